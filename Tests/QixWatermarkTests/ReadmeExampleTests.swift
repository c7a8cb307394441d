import Foundation
import Testing
import QixAudio
import QixWatermark

/// The README's library example, kept compiling and true.
struct ReadmeExampleTests {
    @Test func embedThenDetect() throws {
        let directory = NSTemporaryDirectory() + "qix-readme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spotPath = directory + "/spot.flac", markedPath = directory + "/spot-marked.flac"
        try AudioFileWriter.write(TestSignals.corpus("a02", seconds: 8), to: spotPath)

        // README: "Using the libraries", QixWatermark.
        let key = try WatermarkKey(hex: "00112233445566778899aabbccddeeff")
        let spot = try AudioFileReader.readAll(path: spotPath)
        let marked = try WatermarkEmbedder(key: key, payload: WatermarkPayload(hex: "0a1b2c3d")).embed(spot)
        try AudioFileWriter.write(marked, to: markedPath)
        var heard: [String] = []
        for detection in try WatermarkDetector(key: key).detect(AudioFileReader.readAll(path: markedPath)) {
            heard.append(detection.hex)   // README prints hex, start, end, score
        }
        #expect(heard == ["0a1b2c3d"])
    }
}
