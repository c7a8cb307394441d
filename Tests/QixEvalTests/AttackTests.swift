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

    @Test(arguments: [Attack.clean, .mp3_64, .vorbis_64, .opus_32, .resample_16k, .speedUp, .speedDown, .clip_6db])
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
