import Foundation
import QixAudio
import QixScan
import QixTestSupport
import QixWatermark
import Testing

/// Spots cut in two by a recorder's file boundary: the channel's recordings are read on
/// from one to the next, so the airing starts where the spot does.
@Suite struct RecordingJunctionTests {
    /// Each recording joins the channel's recording that started last before it; other
    /// channels, unnamed files and a duplicated start join nothing.
    @Test func sequenceJoinsEachChannelsRecordingsInTimeOrder() {
        let paths = ["/a/ch1_20260101_010000.flac", "/a/ch1_20260101_000000.flac", "/a/ch2_20260101_003000.flac",
                     "/a/ch1_20260101_020000.flac", "/a/notes.flac", "/a/ch2_20260101_003000.wav"]
        let sequence = ChannelSequence(paths: paths, pattern: .standard)
        #expect(sequence.junction(before: "/a/ch1_20260101_000000.flac") == nil)
        #expect(sequence.junction(before: "/a/ch1_20260101_010000.flac")
                == RecordingJunction(predecessor: "/a/ch1_20260101_000000.flac", offset: 3600))
        #expect(sequence.junction(before: "/a/ch1_20260101_020000.flac")?.predecessor == "/a/ch1_20260101_010000.flac")
        #expect(sequence.junction(before: "/a/ch2_20260101_003000.flac") == nil)
        #expect(sequence.junction(before: "/a/ch2_20260101_003000.wav") == nil)
        #expect(sequence.junction(before: "/a/notes.flac") == nil)
    }

    /// A spot whose first 1.5 s end one recording and whose rest opens the next is one
    /// airing that starts in the first recording where the spot starts, scanned in either
    /// order and one recording at a time (as two shards would): in FLAC; in AAC in MP4, where
    /// the end of the first is found by seeking to a packet; and in MPEG-TS cut from one
    /// stream, as a recorder segments a broadcast.
    @Test(arguments: ["flac", "m4a", "ts"])
    func findsASpotCutByTheHour(_ format: String) throws {
        let directory = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 18 s, then the next recording from 00:00:18.
        let paths = [directory + "/ch_20260101_000000.\(format)", directory + "/ch_20260101_000018.\(format)"]
        try Self.record(try Self.spotCutInTwo(), as: paths, format: format)
        for (run, order) in [paths, paths.reversed()].enumerated() {
            let airings = try Self.scan(paths, in: order, into: directory + "/\(run).sqlite")
            #expect(airings.map(\.id) == ["5eedcafe"])
            guard let airing = airings.first else { continue }
            #expect(airing.recording == paths[0])
            #expect(abs(airing.start - 16.5) <= 0.5, "starts at \(airing.start)")
            #expect(abs(airing.end - 26.5) <= 1.0, "ends at \(airing.end)")
        }
    }

    /// Recordings that do not abut are not read as one: the second starts 12 s after the first
    /// ends (a recorder that stopped), so the spot's airing starts where the second recording does.
    @Test func doesNotJoinRecordingsWithAGapBetween() throws {
        let directory = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = [directory + "/ch_20260101_000000.flac", directory + "/ch_20260101_000030.flac"]
        try Self.record(try Self.spotCutInTwo(), as: paths, format: "flac")
        let airings = try Self.scan(paths, in: paths, into: directory + "/a.sqlite")
        #expect(airings.map(\.id) == ["5eedcafe"])
        #expect(airings.first?.recording == paths[1])
        #expect(airings.allSatisfy { $0.start >= 0 && $0.start <= 0.5 }, "\(airings.map(\.start))")
    }

    /// A recording scanned before the one before it was recorded or copied in (a backfill) is
    /// scanned again once that one is there, since it is then read on from it: its airing
    /// moves to where the spot starts. A third run finds both up to date.
    @Test func rescansARecordingWhenItsPredecessorAppears() throws {
        let directory = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = [directory + "/ch_20260101_000000.flac", directory + "/ch_20260101_000018.flac"]
        try Self.record(try Self.spotCutInTwo(), as: paths, format: "flac")
        let database = directory + "/a.sqlite"
        let alone = try Self.scan([paths[1]], in: [paths[1]], into: database)
        #expect(alone.map(\.recording) == [paths[1]])
        let backfilled = try Self.scan(paths, in: paths, into: database)
        #expect(backfilled.map(\.id) == ["5eedcafe"])
        #expect(backfilled.first?.recording == paths[0])
        #expect(abs((backfilled.first?.start ?? 0) - 16.5) <= 0.5)
        let again = try Self.scanner(paths, into: try AiringsDatabase(path: database))
        #expect(try again.scan(paths, run: ScanFixtures.run(), report: { _, _ in }).0.skipped == 2)
    }

    /// 18 s at 16 kHz whose last 1.5 s are a marked spot's first (ID 5eedcafe, public test key),
    /// and the spot's other 8.5 s followed by 12 s of speech.
    static func spotCutInTwo() throws -> [AudioBuffer] {
        let rate = 16_000
        let speech = try corpus("a05", seconds: 24, rate: rate)
        let spot = try Resampler.resample(WatermarkEmbedder(key: .publicTestKey, payload: WatermarkPayload(message: 0x5eed_cafe))
            .embed(corpus("a01", seconds: 10, rate: 48_000)), to: rate)
        let cut = Int(1.5 * Double(rate))
        var first = speech.slice(frames: 0..<(33 * rate / 2))
        first.samples += spot.samples.prefix(cut)
        var second = spot.slice(frames: cut..<spot.frameCount)
        second.samples += speech.samples.suffix(12 * rate)
        return [first, second]
    }

    /// Scans `paths` one at a time in the order `order` (as shards would) with junctions from
    /// the whole list, and returns the report's airings.
    static func scan(_ paths: [String], in order: [String], into database: String) throws -> [Airing] {
        let database = try AiringsDatabase(path: database)
        let scanner = try scanner(paths, into: database)
        for path in order { _ = try scanner.scan([path], run: ScanFixtures.run(), report: { _, _ in }) }
        return try AiringsBuilder.airings(database.detections(), recordings: database.recordings())
    }

    /// A scanner with the public test key that reads each of `paths` on from the one before it.
    static func scanner(_ paths: [String], into database: AiringsDatabase) throws -> RecordingScanner {
        let analyzer = WatermarkRecordingAnalyzer(key: .publicTestKey)
        let sequence = ChannelSequence(paths: paths, pattern: .standard)
        return RecordingScanner(database: database, keyFingerprint: analyzer.settingsFingerprint, jobs: 1, sequence: sequence,
                                analyzeJunction: { path, junction, progress in
            try analyzer.analyze(path: path, after: junction, progress: progress)
        })
    }

    /// Writes the two recordings: as FLAC; each encoded to AAC in MP4; or, for "ts", the two
    /// encoded as one AAC stream in MPEG-TS and cut in two without re-encoding (at an AAC frame,
    /// 64 ms at 16 kHz: within the junction's tolerance).
    static func record(_ parts: [AudioBuffer], as paths: [String], format: String) throws {
        switch format {
        case "flac":
            for (path, audio) in zip(paths, parts) { try AudioFileWriter.write(audio, to: path) }
        case "ts":
            var whole = parts[0]
            whole.samples += parts[1].samples
            let stream = paths[0] + ".whole.ts"
            try AudioFileWriter.write(whole, to: stream + ".wav")
            try FFmpegTool.encode(stream + ".wav", to: stream, ["-c:a", "aac", "-b:a", "64k"])
            let seconds = Double(parts[0].frameCount) / Double(parts[0].sampleRate)
            let pattern = paths[0] + ".part%d.ts"
            try FFmpegTool.encode(stream, to: pattern, ["-c", "copy", "-f", "segment", "-segment_time", "\(seconds)",
                                                        "-reset_timestamps", "1"])
            for (index, path) in paths.enumerated() {
                try FileManager.default.moveItem(atPath: paths[0] + ".part\(index).ts", toPath: path)
            }
        default:
            for (path, audio) in zip(paths, parts) {
                try AudioFileWriter.write(audio, to: path + ".wav")
                try FFmpegTool.encode(path + ".wav", to: path, ["-c:a", "aac", "-b:a", "64k"])
            }
        }
    }

    static func corpus(_ prefix: String, seconds: Double, rate: Int) throws -> AudioBuffer {
        let buffer = try AudioFileReader.readAll(path: TestSignals.corpusClip(prefix))
        let part = buffer.slice(frames: 0..<Int(seconds * Double(buffer.sampleRate)))
        let mono = part.mixedToMono()
        return mono.sampleRate == rate ? mono : try Resampler.resample(mono, to: rate)
    }
}
