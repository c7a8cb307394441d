import Foundation
import Testing
import QixAudio
@testable import QixWatermark

/// Detection of IDs the caller expects: more sensitive than the blind search, and still
/// silent on unmarked audio, with a wrong key, and for IDs that are not there.
struct ExpectedIDTests {
    let key = WatermarkKey.publicTestKey
    let message: UInt32 = 0x5eed1234

    /// 3 s of a marked corpus clip at 16 kHz mono under white noise `level` times its RMS.
    func noisyExcerpt(level: Float, marked: Bool = true, format: WatermarkFormat = .current) throws -> AudioBuffer {
        try TestSignals.noisyExcerpt(key: key, message: message, level: level, marked: marked, format: format)
    }

    @Test(arguments: WatermarkFormat.allCases)
    func anExpectedIDIsHeardWhereTheBlindSearchFails(_ format: WatermarkFormat) throws {
        var heardOnlyWhenExpected = 0
        for level: Float in [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2] {
            let clip = try noisyExcerpt(level: level, format: format)
            let blind = try WatermarkDetector(key: key).detect(clip)
            let expecting = try WatermarkDetector(key: key, expected: [message, 0x0bad_cafe], expectedFormats: [format]).detect(clip)
            #expect(blind.allSatisfy { $0.message == message }, "level \(level)")
            #expect(expecting.allSatisfy { $0.message == message }, "level \(level): an ID that is not there")
            // Whatever the blind search hears, expecting the ID hears too.
            if !blind.isEmpty { #expect(!expecting.isEmpty, "level \(level)") }
            if blind.isEmpty && !expecting.isEmpty { heardOnlyWhenExpected += 1 }
        }
        #expect(heardOnlyWhenExpected > 0, "no noise level where only the expected search hears the mark")
    }

    /// IDs of one key share their sync tiles: a strong mark must not lend a neighbouring
    /// expected ID a detection, whether or not its own ID is expected too.
    @Test func anotherIDsMarkDoesNotCountForAnExpectedOne() throws {
        for level: Float in [0, 0.5, 1.0] {
            let clip = try noisyExcerpt(level: level)
            for neighbours in [[message + 1], [message ^ 0xffff_0000, message + 1, message], [0x0bad_cafe]] {
                let found = try WatermarkDetector(key: key, expected: neighbours).detect(clip)
                #expect(found.allSatisfy { $0.message == message }, "level \(level), expecting \(neighbours): \(found.map(\.hex))")
            }
        }
    }

    /// IDs numbered in sequence share the first part of their code: expecting a run of
    /// them, where the blind search cannot help, only the one that is there may be heard.
    @Test(arguments: [FalseReportBudget.perHour, .perSession])
    func sequentialExpectedIDsAreToldApart(_ budget: FalseReportBudget) throws {
        let run = (0..<8).map { message &- 3 &+ $0 }
        var heard = 0
        for level: Float in [0.5, 0.7, 1.0, 1.4, 1.8] {
            let found = try WatermarkDetector(key: key, expected: run, falseReportBudget: budget).detect(try noisyExcerpt(level: level))
            #expect(found.allSatisfy { $0.message == message }, "level \(level): \(found.map(\.hex))")
            heard += found.isEmpty ? 0 : 1
        }
        #expect(heard > 0, "the right ID is still heard among its neighbours")
    }

    @Test(arguments: [FalseReportBudget.perHour, .perSession])
    func nothingIsHeardWithoutTheMarkOrWithAWrongKey(_ budget: FalseReportBudget) throws {
        for level: Float in [0, 0.5, 1.0] {
            let unmarked = try noisyExcerpt(level: level, marked: false)
            #expect(try WatermarkDetector(key: key, expected: campaigns, falseReportBudget: budget).detect(unmarked).isEmpty,
                    "level \(level)")
            let marked = try noisyExcerpt(level: level)
            let wrongKey = try WatermarkKey(bytes: (0..<16).map { UInt8($0 * 7 + 3) })
            #expect(try WatermarkDetector(key: wrongKey, expected: campaigns, falseReportBudget: budget).detect(marked).isEmpty,
                    "level \(level)")
        }
    }

    /// The ID on air among 19 other campaigns, as an app expects them (fixed, unrelated IDs).
    var campaigns: [UInt32] { TestSignals.campaigns(onAir: message) }

    /// A listening session allows its whole input an hour's chance of a false report, so it
    /// hears the campaign on air, among 19 others, where the hourly budget does not; and
    /// whatever the hourly budget hears, the session hears too.
    @Test func aListeningSessionHearsWhereTheHourlyBudgetDoesNot() throws {
        var heardOnlyInASession = 0
        for level: Float in [0.5, 0.6, 0.7, 0.8, 0.9, 1.0] {
            let clip = try noisyExcerpt(level: level)
            let hourly = try WatermarkDetector(key: key, expected: campaigns).detect(clip)
            let session = try WatermarkDetector(key: key, expected: campaigns, falseReportBudget: .perSession).detect(clip)
            #expect(session.allSatisfy { $0.message == message }, "level \(level): \(session.map(\.hex))")
            if !hourly.isEmpty { #expect(!session.isEmpty, "level \(level)") }
            if hourly.isEmpty && !session.isEmpty { heardOnlyInASession += 1 }
        }
        #expect(heardOnlyInASession > 0, "no noise level where only the session hears the mark")
    }

    /// Only an expected ID that could be reported itself can veto another: the true ID must
    /// beat a neighbour that scores on its data tiles by the margin, but an unrelated ID that
    /// scores nothing there does not stand in its way.
    @Test func onlyARivalThatScoresCanVetoAnExpectedID() throws {
        let detector = WatermarkDetector(key: key, expected: [message, 0x0bad_cafe])
        let mine = detector.expectedDataChips[0], theirs = detector.expectedDataChips[1]
        let shared = mine.indices.filter { mine[$0] != 0 && mine[$0] == theirs[$0] }
        let differing = mine.indices.filter { mine[$0] != 0 && mine[$0] != theirs[$0] }
        let sync = mine.indices.filter { mine[$0] == 0 }
        /// Tiles holding the mark on `onShared` shared and `onDiffering` differing data tiles,
        /// with the sync tiles filling the energy up to 100 (so scores are sums / 10).
        func tiles(onShared: Int, onDiffering: Int) -> [Float] {
            var tiles = [Float](repeating: 0, count: mine.count)
            for t in shared.prefix(onShared) { tiles[t] = mine[t] }
            for t in differing.prefix(onDiffering) { tiles[t] = mine[t] }
            let rest = (100 - Float(onShared + onDiffering)) / Float(sync.count)
            for t in sync { tiles[t] = rest.squareRoot() }
            return tiles
        }
        // Mine 4.5, theirs 1.5, evidence 1.5: not a rival, so the margin does not apply.
        #expect(detector.outscoresOtherExpected(0, tiles: tiles(onShared: 30, onDiffering: 15)))
        // Mine 7, theirs 5, evidence 1: a rival, beaten by less than the margin.
        #expect(!detector.outscoresOtherExpected(0, tiles: tiles(onShared: 60, onDiffering: 10)))
        // Mine 9, theirs 5, evidence 2: a rival beaten by the margin.
        #expect(detector.outscoresOtherExpected(0, tiles: tiles(onShared: 70, onDiffering: 20)))
    }
}
