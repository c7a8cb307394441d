import Foundation
import Testing
import QixAudio
import QixTestSupport

/// Recordings cut at half their length are read up to the cut, and `damage` names the span
/// that was lost, instead of the whole file failing.
@Suite("Damaged input", .serialized)
struct AudioDamageTests {
    /// Reads a whole file; returns the seconds read and the damage report.
    static func read(_ path: String) throws -> (seconds: Double, damage: AudioDamage?) {
        let reader = try AudioFileReader(path: path)
        let audio = try reader.readAll()
        return (audio.duration, reader.damage)
    }

    @Test("a WAV cut at 50 %: 2 of 4 s read, the lost span is 2-4 s")
    func cutWAV() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileWriter.write(TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 4, sampleRate: 48000, channels: 2), to: "\(dir)/whole.wav")
        try FFmpegTool.cut("\(dir)/whole.wav", to: "\(dir)/cut.wav")
        let (seconds, damage) = try Self.read("\(dir)/cut.wav")
        #expect(abs(seconds - 2) < 0.01)
        #expect(abs((damage?.end ?? 0) - 2) < 0.01 && damage?.declaredEnd == 4, "\(String(describing: damage))")
        #expect(damage?.description.contains("to 4.000 s is missing") == true, "\(damage?.description ?? "")")
    }

    @Test("an MP3 cut at 50 %: its Xing frame count names the lost span")
    func cutMP3() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileWriter.write(TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 4, sampleRate: 44100, channels: 2), to: "\(dir)/whole.mp3")
        try FFmpegTool.cut("\(dir)/whole.mp3", to: "\(dir)/cut.mp3")
        let (seconds, damage) = try Self.read("\(dir)/cut.mp3")
        #expect(seconds > 1.5 && seconds < 2.5, "\(seconds) s")
        #expect(abs((damage?.declaredEnd ?? 0) - 4) < 0.05, "\(String(describing: damage))")
        #expect(abs((damage?.end ?? 0) - seconds) < 0.001)
    }

    @Test("ADTS AAC and an MP4 with its index first, cut at 50 %, read up to the cut")
    func cutAAC() throws {
        let dir = try TestSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileWriter.write(TestSignals.sine(frequency: 440, amplitude: 0.5, seconds: 4, sampleRate: 44100, channels: 2), to: "\(dir)/tone.wav")
        try FFmpegTool.encode("\(dir)/tone.wav", to: "\(dir)/whole.aac", ["-c:a", "aac", "-b:a", "64k"])
        try FFmpegTool.cut("\(dir)/whole.aac", to: "\(dir)/cut.aac")
        let adts = try Self.read("\(dir)/cut.aac")
        #expect(adts.seconds > 1.5 && adts.seconds < 2.5, "\(adts.seconds) s")
        // ADTS has no index: the cut shows as a last frame broken off.
        #expect(adts.damage?.endsMidFrame == true && adts.damage?.declaredEnd == nil, "\(String(describing: adts.damage))")
        #expect(adts.damage?.skippedPackets == 0)

        try FFmpegTool.encode("\(dir)/tone.wav", to: "\(dir)/whole.m4a", ["-c:a", "aac", "-b:a", "64k", "-movflags", "+faststart"])
        try FFmpegTool.cut("\(dir)/whole.m4a", to: "\(dir)/cut.m4a")
        let mp4 = try Self.read("\(dir)/cut.m4a")
        #expect(mp4.seconds > 1.5 && mp4.seconds < 2.5, "\(mp4.seconds) s")
        #expect(abs((mp4.damage?.declaredEnd ?? 0) - 4) < 0.1, "\(String(describing: mp4.damage))")
    }

    @Test("the warning text: one line, the path, the span in seconds")
    func description() {
        let cut = AudioDamage(path: "a.wav", end: 5, declaredEnd: 10.25)
        #expect(cut.description == "a.wav: truncated input: audio from 5.000 s to 10.250 s is missing (5.250 s lost); read up to the cut")
        let broken = AudioDamage(path: "b.aac", end: 2.5, endsMidFrame: true, skippedPackets: 2)
        #expect(broken.description == "b.aac: truncated input: the stream ends in the middle of a frame at 2.500 s; whatever followed is lost; read up to the cut; 2 damaged packets skipped")
    }
}
