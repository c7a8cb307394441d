import Foundation
import Testing
import QixAudio
import QixTestSupport

/// Writes a 1 kHz sine in every format x rate x channel count x sample coding that QixKit
/// writes, and checks what reads back: length, rate, channels, tone frequency and level.
@Suite("Audio format round trips")
struct AudioFormatMatrixTests {
    static let rates = [8000, 16000, 22050, 44100, 48000, 96000]

    struct Case: CustomTestStringConvertible, Sendable {
        var format: AudioFileFormat
        var rate: Int
        var channels: Int
        var encoding: SampleEncoding
        var testDescription: String { "\(format.rawValue) \(rate) Hz \(channels) ch \(encoding.rawValue)" }
    }

    static let cases: [Case] = AudioFileFormat.allCases.flatMap { format in
        rates.flatMap { rate in
            [1, 2].flatMap { channels in
                // Lossy codecs take float input whatever the source coding: one case each.
                (format.isLossy ? [.pcm16] : SampleEncoding.allCases).map {
                    Case(format: format, rate: rate, channels: channels, encoding: $0)
                }
            }
        }
    }

    @Test("sine survives the round trip", arguments: cases)
    func roundTrip(_ c: Case) throws {
        let directory = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/tone.\(c.format.rawValue)"
        let tone = TestSignals.sine(frequency: 1000, amplitude: 0.5, seconds: 1.0, sampleRate: c.rate, channels: c.channels)

        if let rates = c.format.supportedSampleRates, !rates.contains(c.rate) {
            // A rate the codec cannot store is refused up front, naming the file, and
            // leaves nothing behind.
            let error = #expect(throws: AudioError.self) {
                try AudioFileWriter.write(tone, to: path, encoding: c.encoding)
            }
            #expect(error?.subject == path)
            #expect(!FileManager.default.fileExists(atPath: path))
            return
        }
        try AudioFileWriter.write(tone, to: path, encoding: c.encoding)

        let reader = try AudioFileReader(path: path)
        #expect(reader.info.sampleRate == c.rate)
        #expect(reader.info.channels == c.channels)
        let back = try reader.readAll()
        if c.format.isLossy {
            #expect(abs(back.frameCount - tone.frameCount) <= 0, "lossy frame count \(back.frameCount)")
        } else {
            #expect(back.frameCount == tone.frameCount)
            let expectedEncoding: String
            switch (c.format, c.encoding) {
            case (.wav, .float32): expectedEncoding = "FLOAT"
            case (_, .pcm16): expectedEncoding = "PCM_16"
            default: expectedEncoding = "PCM_24"
            }
            #expect(reader.info.encoding == expectedEncoding)
        }
        let measured = TestSignals.dominantTone(back.mixedToMono().samples, sampleRate: c.rate)
        let binWidth = Double(c.rate) / Double(1 << 14)
        #expect(abs(measured.frequency - 1000) <= binWidth, "tone at \(measured.frequency) Hz")
        let levelError = 20 * log10(measured.amplitude / 0.5)
        // Lossless coding keeps the level to quantisation noise; lossy codecs within 1 dB.
        #expect(abs(levelError) < (c.format.isLossy ? 1.0 : 0.05), "level off by \(levelError) dB")
        if !c.format.isLossy {
            let quantum: Float = c.encoding == .pcm16 ? 1.0 / 32768 : (c.encoding == .pcm24 ? 1.0 / 8_388_608 : 1e-7)
            let worst = zip(back.samples, tone.samples).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= quantum, "sample error \(worst)")
        }
    }
}
