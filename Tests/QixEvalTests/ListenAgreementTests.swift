import Foundation
import Testing
import QixAudio
import QixWatermark
@testable import QixEval

/// `qix listen`'s detector against `qix detect`'s on the same audio: on every corpus host,
/// clean and through the `room` attack, the stream finds at least as many IDs as the
/// file detector decoding as the listener does, and neither ever reports a wrong one.
struct ListenAgreementTests {
    static let hosts = ["a01", "a02", "a03", "a04", "a05", "a06", "a07", "a08", "a09"]

    static func stream(_ audio: AudioBuffer) throws -> [UInt32] {
        let detector = try StreamingDetector(key: AttackTests.key, inputRate: audio.sampleRate, channels: audio.channels)
        var heard: [StreamingDetector.Heard] = []
        let block = 4800 * audio.channels
        var offset = 0
        while offset < audio.samples.count {
            let end = min(audio.samples.count, offset + block)
            heard += detector.feed(Array(audio.samples[offset..<end]))
            offset = end
        }
        return (heard + detector.finish()).map(\.message)
    }

    @Test(arguments: [Attack.clean, .room])
    func streamFindsWhatFileDetectionFinds(_ attack: Attack) throws {
        var fileFound = 0, streamFound = 0
        for (index, host) in Self.hosts.enumerated() {
            let marked = try AttackTests.marked(host, seconds: 10)
            let audio = try attack.apply(marked, resources: try AttackTests.resources.get(), seed: UInt64(index + 1),
                                         scratch: NSTemporaryDirectory())
            // Decoded as the listener decodes (no list decoding: StreamingDetector), so that
            // only the streaming itself is compared.
            let file = try WatermarkDetector(key: AttackTests.key, thoroughListSize: 0).detect(audio).map(\.message)
            let stream = try Self.stream(audio)
            #expect(file.allSatisfy { $0 == AttackTests.message }, "\(host): file detection misread")
            #expect(stream.allSatisfy { $0 == AttackTests.message }, "\(host): stream misread")
            fileFound += file.isEmpty ? 0 : 1
            streamFound += stream.isEmpty ? 0 : 1
        }
        #expect(streamFound >= fileFound, "\(attack): stream \(streamFound) of 9 hosts, file \(fileFound)")
        print("listen agreement \(attack): stream \(streamFound)/9, file \(fileFound)/9")
    }
}
