import Foundation
import Testing
import QixAudio
import QixWatermark
@testable import QixEval

/// End-to-end: a marked corpus excerpt through each attack, then detection. Short clips
/// keep this fast enough for CI in a debug build; the full table is `qix eval`.
struct AttackTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("corpus/clips").path
    static let key = WatermarkKey.publicTestKey
    static let message: UInt32 = 0x0a1b2c3d

    static func marked(_ prefix: String, seconds: Double) throws -> AudioBuffer {
        let name = try FileManager.default.contentsOfDirectory(atPath: corpus).sorted()
            .first { $0.hasPrefix(prefix) && $0.hasSuffix(".flac") }!
        let host = try AudioFileReader.readAll(path: corpus + "/" + name)
        let excerpt = host.slice(frames: 0..<Int(seconds * Double(host.sampleRate)))
        return try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message)).embed(excerpt)
    }

    static let resources = Result { try Attack.Resources.load(from: corpus) }

    @Test(arguments: [Attack.clean, .mp3_64, .vorbis_64, .opus_32, .resample_16k, .speedUp, .speedDown, .clip_6db,
                      .phone_band, .lowpass_3k])
    func decodesAfter(_ attack: Attack) throws {
        let audio = try attack.apply(try Self.marked("a02", seconds: 6), resources: try Self.resources.get(), seed: 1,
                                     scratch: NSTemporaryDirectory())
        let found = try WatermarkDetector(key: Self.key).detect(audio)
        #expect(found.map(\.message) == [Self.message])
    }

    /// The acoustic attacks may lose a short clip, but never turn it into another ID.
    @Test(arguments: [Attack.pink_noise_10db, .room, .stadium])
    func neverMisreadsAfter(_ attack: Attack) throws {
        let audio = try attack.apply(try Self.marked("a01", seconds: 10), resources: try Self.resources.get(), seed: 2,
                                     scratch: NSTemporaryDirectory())
        let found = try WatermarkDetector(key: Self.key).detect(audio)
        #expect(found.allSatisfy { $0.message == Self.message })
    }

    /// The band-limit attacks' filter: flat in its band, 60 dB down a transition away.
    @Test func bandFilterPassesItsBandAndStopsTheRest() {
        func gain(_ taps: [Float], at hertz: Double, rate: Int) -> Double {
            var re = 0.0, im = 0.0
            for (n, tap) in taps.enumerated() {
                re += Double(tap) * cos(2 * .pi * hertz * Double(n) / Double(rate))
                im -= Double(tap) * sin(2 * .pi * hertz * Double(n) / Double(rate))
            }
            return (re * re + im * im).squareRoot()
        }
        let phone = BandFilter.bandPass(from: 300, to: 3400, rate: 8000)
        for hertz in [500.0, 1000, 2000, 3200] { #expect(abs(gain(phone, at: hertz, rate: 8000) - 1) < 0.01, "\(hertz) Hz") }
        for hertz in [0.0, 150, 3600, 3900] { #expect(gain(phone, at: hertz, rate: 8000) < 1e-3, "\(hertz) Hz") }
        let lowPass = BandFilter.bandPass(from: 0, to: 3000, rate: 44_100)
        #expect(abs(gain(lowPass, at: 1000, rate: 44_100) - 1) < 0.01)
        #expect(gain(lowPass, at: 3600, rate: 44_100) < 1e-3)
    }

    @Test func convolverMatchesDirectConvolution() {
        let signal: [Float] = (0..<3000).map { Float(sin(Double($0) * 0.01)) }
        let response: [Float] = [1, 0.5, 0, -0.25] + [Float](repeating: 0, count: 700) + [0.1]
        let fast = Convolver.convolve(signal, with: response)
        for i in stride(from: 0, to: signal.count, by: 97) {
            var direct: Float = 0
            for k in 0..<response.count where i - k >= 0 { direct += signal[i - k] * response[k] }
            #expect(abs(direct - fast[i]) < 1e-3)
        }
    }
}
