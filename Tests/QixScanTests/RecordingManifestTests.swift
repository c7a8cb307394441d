import Testing
@testable import QixScan

/// Manifest text: comments, blank lines, line endings, relative paths, a byte-order mark.
@Suite("Recording manifests")
struct RecordingManifestTests {
    @Test("one path per line; comments and blank lines skipped; relative paths from the folder")
    func lines() throws {
        let text = "# week 47\n\n  a.wav  \r\n/abs/b.flac\r\n\t# indented comment\nsub/c.m4a"
        let paths = try #require(RecordingManifest.paths(in: Array(text.utf8), folder: "/arch"))
        #expect(paths == ["/arch/a.wav", "/abs/b.flac", "/arch/sub/c.m4a"])
        #expect(RecordingManifest.paths(in: Array("x.wav\n".utf8), folder: "") == ["x.wav"])
    }

    @Test("a UTF-8 byte-order mark is not part of the first path")
    func byteOrderMark() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a.wav\nb.wav\n".utf8)
        #expect(RecordingManifest.paths(in: bytes, folder: "d") == ["d/a.wav", "d/b.wav"])
    }

    @Test("bytes that are not UTF-8 are refused, not guessed")
    func notText() {
        #expect(RecordingManifest.paths(in: [0x61, 0xFF, 0x0A], folder: "d") == nil)
    }
}
