import Foundation
import QixAudio
import QixWatermark

/// A small broadcast archive generated from corpus clips: two channels, three abutting
/// 30 s recordings each (16 kHz mono FLAC named CHANNEL_YYYYMMDD_HHMMSS), with marked spots
/// inserted at known wall-clock times, one of them across a recording boundary.
struct ScanArchive {
    /// One inserted spot: its ID, channel and wall-clock start (seconds after 10:00:00Z).
    struct Spot: Equatable {
        var id: String
        var channel: String
        var secondsAfterTen: Double
        var length: Double
    }

    static let key = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
    static let spots = [
        Spot(id: "11111111", channel: "alpha", secondsAfterTen: 5, length: 8),
        Spot(id: "22222222", channel: "alpha", secondsAfterTen: 55, length: 9),   // 25 s into file 2, crosses into file 3
        Spot(id: "33333333", channel: "beta", secondsAfterTen: 40, length: 8),
    ]
    static let recordingSeconds = 30.0
    static let rate = 16_000

    let directory: String
    var keyFile: String { "\(directory)/campaign.key" }
    var recordings: String { "\(directory)/archive" }

    /// Writes the archive and the key file into a fresh directory.
    static func make() throws -> ScanArchive {
        let archive = ScanArchive(directory: try QixProcess.temporaryDirectory())
        try FileManager.default.createDirectory(atPath: archive.recordings, withIntermediateDirectories: true)
        try (key + "\n").write(toFile: archive.keyFile, atomically: true, encoding: .utf8)
        // Owner-only, as qix keygen writes keys (qix warns about keys others can read).
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: archive.keyFile)
        let watermarkKey = try WatermarkKey(hex: key)
        let clips = "\(QixProcess.repository)/corpus/clips"
        let music = try Resampler.resample(AudioFileReader.readAll(path: "\(clips)/a01_music_rock_sectoid_metal-madness.flac").mixedToMono(), to: rate)
        let speech = try Resampler.resample(AudioFileReader.readAll(path: "\(clips)/a05_speech_en-audiobook_librivox-austen.flac"), to: rate)

        // Each channel's day is one timeline of background speech, cut into recordings later.
        let total = Int(3 * recordingSeconds) * rate
        for channel in ["alpha", "beta"] {
            var timeline = [Float](repeating: 0, count: total)
            for i in 0..<total { timeline[i] = 0.5 * speech.samples[(i + (channel == "beta" ? 7 * rate : 0)) % speech.samples.count] }
            for spot in spots where spot.channel == channel {
                let payload = try WatermarkPayload(hex: spot.id)
                let marked = try WatermarkEmbedder(key: watermarkKey, payload: payload).embed(music)
                let start = Int(spot.secondsAfterTen) * rate
                for i in 0..<Int(spot.length) * rate { timeline[start + i] = marked.samples[2 * rate + i] }
            }
            for part in 0..<3 {
                let slice = Array(timeline[part * Int(recordingSeconds) * rate ..< (part + 1) * Int(recordingSeconds) * rate])
                let seconds = part * Int(recordingSeconds)
                let name = "\(channel)_20261121_10" + Self.twoDigits(seconds / 60) + Self.twoDigits(seconds % 60)
                try AudioFileWriter.write(AudioBuffer(samples: slice, channels: 1, sampleRate: rate),
                                          to: "\(archive.recordings)/\(name).flac")
            }
        }
        return archive
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
