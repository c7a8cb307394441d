import Testing
import QixScan

/// Airings: adjacent windows merge, different IDs stay apart, recordings of one channel join.
@Suite("Airings")
struct AiringsBuilderTests {
    static func recording(_ path: String, channel: String?, start: String?, duration: Double, id: Int64) -> StoredRecording {
        let file = RecordingFile(stored: path, size: 1, modificationTime: 0, fingerprint: "f")
        return StoredRecording(id: id, file: file, duration: duration, channel: channel,
                               wallclockStart: start.flatMap(WallClockTime.init(iso8601:)), isDone: true, error: nil, keyFingerprint: "k")
    }

    @Test("windows of one ID merge when the gap is small; other IDs and far windows stay separate")
    func withinRecording() {
        let r = Self.recording("a.flac", channel: "x", start: "2026-11-21T10:00:00Z", duration: 600, id: 1)
        let list = [("aaaaaaaa", 10.0, 13.0), ("aaaaaaaa", 13.5, 16.0), ("bbbbbbbb", 14.0, 17.0), ("aaaaaaaa", 40.0, 43.0)]
        let airings = AiringsBuilder.airings(list.map { (r, ScanDetection(message: $0.0, start: $0.1, end: $0.2, score: 5)) })
        #expect(airings.map(\.id) == ["aaaaaaaa", "bbbbbbbb", "aaaaaaaa"])
        #expect(airings[0].start == 10 && airings[0].end == 16)
        #expect(airings[0].wallclockStart?.iso8601 == "2026-11-21T10:00:10Z")
    }

    @Test("an airing across the boundary of two abutting recordings of one channel is one airing")
    func acrossRecordings() {
        let a = Self.recording("ch_1.flac", channel: "ch", start: "2026-11-21T10:00:00Z", duration: 3600, id: 1)
        let b = Self.recording("ch_2.flac", channel: "ch", start: "2026-11-21T11:00:00Z", duration: 3600, id: 2)
        let other = Self.recording("zz_2.flac", channel: "zz", start: "2026-11-21T11:00:00Z", duration: 3600, id: 3)
        let rows: [(StoredRecording, ScanDetection)] = [
            (a, ScanDetection(message: "cafebabe", start: 3590, end: 3600, score: 4)),
            (b, ScanDetection(message: "cafebabe", start: 0, end: 5, score: 9)),
            (other, ScanDetection(message: "cafebabe", start: 0, end: 5, score: 9)),
        ]
        let airings = AiringsBuilder.airings(rows)
        #expect(airings.count == 2)
        #expect(airings[0].recording == "ch_1.flac" && airings[0].start == 3590 && airings[0].end == 3605 && airings[0].score == 9)
        #expect(airings[1].recording == "zz_2.flac")
    }

    @Test("an airing found across a junction starts in the recording before, which found nothing itself")
    func acrossAJunction() {
        let a = Self.recording("ch_1.flac", channel: "ch", start: "2026-11-21T10:00:00Z", duration: 3600, id: 1)
        let b = Self.recording("ch_2.flac", channel: "ch", start: "2026-11-21T11:00:00Z", duration: 3600, id: 2)
        let rows: [(StoredRecording, ScanDetection)] = [
            (b, ScanDetection(message: "cafebabe", start: -4, end: 3, score: 6)),
            (b, ScanDetection(message: "cafebabe", start: 0.01, end: 6, score: 9)),
        ]
        let airings = AiringsBuilder.airings(rows, recordings: [a, b])
        #expect(airings.count == 1)
        #expect(airings[0].recording == "ch_1.flac" && airings[0].start == 3596 && airings[0].end == 3606)
        #expect(airings[0].wallclockStart?.iso8601 == "2026-11-21T10:59:56Z" && airings[0].score == 9)
        // Without the recording before, it stays with the one it was found in.
        #expect(AiringsBuilder.airings(rows).map(\.start) == [-4])
    }
}
