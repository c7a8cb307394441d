import Foundation
import Testing
import QixAudio
import QixTestSupport

/// Unreadable inputs give one clear error naming the file, and writes never leave half files.
@Suite("Bad audio input")
struct BadInputTests {
    static func reason(_ path: String) -> AudioError? {
        do { _ = try AudioFileReader.readAll(path: path); return nil } catch let error as AudioError { return error } catch {
            Issue.record("unexpected error type \(error)")
            return nil
        }
    }

    @Test("missing file, directory, empty file, text named .wav; a truncated WAV or FLAC reads up to the cut")
    func unreadable() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: "\(dir)/empty.wav", contents: Data())
        _ = FileManager.default.createFile(atPath: "\(dir)/text.wav", contents: Data("not audio at all\n".utf8))
        let tone = TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 1, sampleRate: 44100, channels: 2)
        try AudioFileWriter.write(tone, to: "\(dir)/whole.wav")
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/whole.wav"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: "\(dir)/cut.wav"))
        let flac = "\(dir)/whole.flac"
        try AudioFileWriter.write(tone, to: flac)
        let flacData = try Data(contentsOf: URL(fileURLWithPath: flac))
        try flacData.prefix(flacData.count / 2).write(to: URL(fileURLWithPath: "\(dir)/cut.flac"))

        let expectations: [(String, String)] = [
            ("\(dir)/missing.wav", "no such file"),
            (dir, "is a directory"),
            ("\(dir)/empty.wav", "file is empty"),
            ("\(dir)/text.wav", "not an audio file"),
            // Unknown formats (AAC above all, in broadcast archives) get the way round.
            ("\(dir)/text.wav", "convert it first, e.g. ffmpeg"),
        ]
        for (path, phrase) in expectations {
            let error = Self.reason(path)
            #expect(error?.subject == path, "\(path)")
            #expect(error?.reason.contains(phrase) == true, "\(path): \(error?.description ?? "no error")")
            #expect(error.map { !$0.description.contains("\n") } ?? false, "one line")
        }
        #expect(try AudioFileReader.readAll(path: "\(dir)/whole.wav").frameCount == 44100)
        let cut = try AudioFileReader(path: "\(dir)/cut.wav")
        #expect(abs(try cut.readAll().frameCount - 22050) < 50)
        #expect(cut.damage?.declaredEnd == 1)
        // A FLAC cut off mid-write keeps its whole frames, like the WAV.
        let cutFLAC = try AudioFileReader(path: "\(dir)/cut.flac")
        let kept = try cutFLAC.readAll().frameCount
        #expect(kept > 11025 && kept < 44100, "\(kept) frames")
        #expect(cutFLAC.damage?.declaredEnd == 1 && cutFLAC.damage?.end == Double(kept) / 44100)
    }

    /// A 349-byte FLAC whose STREAMINFO declares 2^36 frames (found by the audio_file fuzz
    /// harness): reading it whole once reserved 275 GB on the header's word and crashed.
    @Test("a header's declared length is not trusted for memory")
    func hugeDeclaredLength() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
        let error = Self.reason("\(fixtures)/flac_declares_2e36_frames.flac")
        #expect(error?.reason.contains("damaged file") == true, "\(error?.description ?? "no error")")
    }

    /// An 802-byte WAV whose LIST/INFO entry claims 4 GB (found by the audio_file fuzz
    /// harness): libsndfile's sf_open spent minutes on it; it is refused at once.
    @Test("a WAV header with a LIST entry past its list is refused, not handed to libsndfile")
    func listEntryPastItsList() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
        let error = Self.reason("\(fixtures)/wav_list_entry_claims_4gb.wav")
        #expect(error?.reason.hasPrefix("damaged WAV header: the LIST entry") == true, "\(error?.description ?? "no error")")
    }

    /// An 839-byte MP3 behind an ID3 tag that libsndfile refuses and FFmpeg's probing takes,
    /// stating a duration whose conversion to frames overflowed Int64 (found by the
    /// audio_file fuzz harness): `qix info` trapped. It opens, or is refused, without a trap.
    @Test("a container's stated duration too large for frames is no length, not a trap")
    func overflowingDuration() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
        if let reader = try? AudioFileReader(path: "\(fixtures)/mp3_libav_duration_overflows.mp3") {
            #expect(reader.info.frames >= 0)
            _ = try? reader.readAll()
        }
    }

    @Test("a failed or abandoned write leaves nothing at the path")
    func writesAreAtomic() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/out.flac"
        let writer = try AudioFileWriter(path: path, sampleRate: 48000, channels: 1)
        try writer.write([Float](repeating: 0.1, count: 4800))
        #expect(!FileManager.default.fileExists(atPath: path), "nothing visible before finish()")
        writer.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)

        #expect(throws: AudioError.self) { try AudioFileWriter(path: "\(dir)/out.xyz", sampleRate: 48000, channels: 1) }
        #expect(throws: AudioError.self) { try AudioFileWriter(path: "\(dir)/no/such/dir/out.wav", sampleRate: 48000, channels: 1) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
