import Foundation
import Testing
import QixAudio
import QixTestSupport

/// Every clip of the bundled corpus reads completely with the format the corpus README states.
@Suite("Corpus clips")
struct CorpusClipTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var name: String
        var seconds: Double
        var rate: Int
        var channels: Int
        var testDescription: String { name }
    }

    static let clips: [Expected] = [
        .init(name: "a01_music_rock_sectoid_metal-madness.flac", seconds: 15, rate: 44100, channels: 2),
        .init(name: "a02_music_orchestral_wesnoth_heroes-rite.flac", seconds: 15, rate: 44100, channels: 2),
        .init(name: "a03_music_blues_midi-fluidr3_openmsx-city-blues.flac", seconds: 15, rate: 44100, channels: 1),
        .init(name: "a04_speech_en-female_asterisk-allison_demo-instruct.flac", seconds: 20, rate: 16000, channels: 1),
        .init(name: "a05_speech_en-audiobook_librivox-austen.flac", seconds: 24.73, rate: 16000, channels: 1),
        .init(name: "a06_speech_cs-dialogue_fillets-airplane.flac", seconds: 20, rate: 22050, channels: 1),
        .init(name: "a07_crowd_stadium_etw.flac", seconds: 23.326, rate: 22050, channels: 1),
        .init(name: "a08_crowd_cheering_lmms-raving-crowd.flac", seconds: 10.029, rate: 44100, channels: 1),
        .init(name: "a09_ambience_cc0_sonicpi-vinyl-glass.flac", seconds: 18, rate: 44100, channels: 1),
        .init(name: "r01_rir_street-antwerp_jconvolver-street2.flac", seconds: 0.389, rate: 48000, channels: 2),
        .init(name: "r02_rir_greathall_guitarix.flac", seconds: 2.345, rate: 48000, channels: 2),
        .init(name: "r03_rir_mediumhall_pyo.flac", seconds: 1.501, rate: 44100, channels: 2),
        .init(name: "r04_speakerir_cabinet_guitarix-marshall-mg15.flac", seconds: 0.101, rate: 44100, channels: 1),
    ]

    @Test("the clip list matches the folder")
    func listIsComplete() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: TestSignals.corpusClips)
            .filter { $0.hasSuffix(".flac") }.sorted()
        #expect(onDisk == Self.clips.map(\.name).sorted())
    }

    @Test("reads whole, with its stated format", arguments: clips)
    func clipReads(_ clip: Expected) throws {
        let reader = try AudioFileReader(path: "\(TestSignals.corpusClips)/\(clip.name)")
        #expect(reader.info.container == "FLAC")
        #expect(reader.info.sampleRate == clip.rate)
        #expect(reader.info.channels == clip.channels)
        var levels = SignalLevels()
        try reader.forEachBlock(blockFrames: 4096) { levels.add($0) }
        #expect(reader.framesRead == reader.info.frames)
        #expect(abs(Double(reader.framesRead) / Double(clip.rate) - clip.seconds) < 0.001)
        // Real material: not silent, not beyond full scale, no NaN.
        #expect(levels.peak > 0.01 && levels.peak <= 1)
        #expect(levels.nonFiniteCount == 0)
    }
}
