import Foundation
import Testing
@testable import QixAudio
import QixTestSupport

/// FLAC files decode through libFLAC directly: the samples must be exactly what
/// libsndfile gives for the same file, in any block size, after a seek, and a cut file
/// must still be refused.
struct FLACDecoderTests {
    @Test(arguments: [SampleEncoding.pcm16, .pcm24], [1, 2, 3])
    func decodesLikeLibsndfile(encoding: SampleEncoding, channels: Int) throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var tone = TestSignals.sine(frequency: 997, amplitude: 0.7, seconds: 0.8, sampleRate: 44_100, channels: channels)
        for i in stride(from: 0, to: tone.samples.count, by: 7) { tone.samples[i] *= -0.3 }
        try AudioFileWriter.write(tone, to: "\(dir)/a.flac", encoding: encoding)
        let reference = try AudioFileReader(path: "\(dir)/a.flac", decodesFLACDirectly: false).readAll()
        let reader = try AudioFileReader(path: "\(dir)/a.flac")
        var flac: [Float] = [], block: [Float] = []
        while try reader.read(frames: 1_001, into: &block) > 0 { flac.append(contentsOf: block) }
        #expect(flac.count == reference.samples.count && flac.count == tone.samples.count)
        #expect(Self.firstDifference(flac, reference.samples) == nil)

        let start = 12_345
        try reader.seek(toFrame: Int64(start))
        #expect(try reader.read(frames: 2_000, into: &block) == 2_000)
        #expect(Self.firstDifference(block, Array(reference.samples[(start * channels)..<((start + 2_000) * channels)])) == nil)
    }

    /// Index and values of the first differing sample, nil when equal.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> String? {
        guard a.count == b.count else { return "lengths \(a.count) vs \(b.count)" }
        guard let i = a.indices.first(where: { a[$0] != b[$0] }) else { return nil }
        return "sample \(i): \(a[i]) vs \(b[i])"
    }

    @Test(arguments: [1, 2, 3])
    func monoBlocksAreTheChannelMix(channels: Int) throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var tone = TestSignals.sine(frequency: 1_234, amplitude: 0.6, seconds: 0.5, sampleRate: 32_000, channels: channels)
        for i in stride(from: 0, to: tone.samples.count, by: 5) { tone.samples[i] *= -0.4 }
        try AudioFileWriter.write(tone, to: "\(dir)/a.flac", encoding: .pcm24)
        try AudioFileWriter.write(tone, to: "\(dir)/a.wav", encoding: .pcm24)
        for path in ["\(dir)/a.flac", "\(dir)/a.wav"] {
            let reference = try AudioFileReader(path: path, decodesFLACDirectly: false).readAll().mixedToMono().samples
            // Part of a FLAC frame is read interleaved first, so the switch to mono
            // must also mix the frames left waiting.
            let reader = try AudioFileReader(path: path)
            var head: [Float] = []
            _ = try reader.read(frames: 1_001, into: &head)
            var mono = AudioBuffer(samples: head, channels: channels, sampleRate: 32_000).mixedToMono().samples
            try reader.forEachMonoBlock(blockFrames: 3_000) { mono.append(contentsOf: $0) }
            #expect(Self.firstDifference(mono, reference) == nil, "\(path)")
        }
    }

    /// A FLAC cut off mid-write keeps the whole frames before the cut, bit for bit, and
    /// reports the rest as lost; one cut inside its header decodes nothing and is refused.
    @Test func cutFileKeepsItsWholeFrames() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tone = TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 2, sampleRate: 48_000, channels: 2)
        try AudioFileWriter.write(tone, to: "\(dir)/whole.flac")
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/whole.flac"))
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: "\(dir)/cut.flac"))
        let whole = try AudioFileReader.readAll(path: "\(dir)/whole.flac")
        let reader = try AudioFileReader(path: "\(dir)/cut.flac")
        let cut = try reader.readAll()
        #expect(cut.frameCount > 48_000 && cut.frameCount < 96_000, "\(cut.frameCount) frames")
        #expect(cut.samples == Array(whole.samples.prefix(cut.samples.count)))
        #expect(reader.damage?.end == Double(cut.frameCount) / 48_000 && reader.damage?.declaredEnd == 2)
        try data.prefix(60).write(to: URL(fileURLWithPath: "\(dir)/header.flac"))
        #expect(throws: AudioError.self) { try AudioFileReader.readAll(path: "\(dir)/header.flac") }
    }
}
