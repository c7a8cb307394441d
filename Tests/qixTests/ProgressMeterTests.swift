import Testing
@testable import qix

/// The progress arithmetic `qix detect` and `qix scan` show, on a clock the test moves.
struct ProgressMeterTests {
    /// A clock that stands still until the test moves it.
    final class FakeClock: @unchecked Sendable {
        var now = 1000.0
        func read() -> Double { now }
    }

    @Test func rateAndTimeLeftFollowTheSecondsDecoded() {
        let clock = FakeClock()
        var meter = ProgressMeter(clock: clock.read)
        // Nothing decoded, no time passed: neither rate nor ETA yet.
        #expect(meter.status(decoded: 0, expected: 7200) == "0:00:00 of 2:00:00 audio (0 %), -- real time, ETA --")
        clock.now += 20
        // 1800 s of 7200 s in 20 s: 90x real time, 5400 s left at 90x = 60 s.
        #expect(ProgressMeter.rate(decoded: 1800, elapsed: meter.elapsed) == 90)
        #expect(ProgressMeter.secondsLeft(decoded: 1800, expected: 7200, elapsed: meter.elapsed) == 60)
        #expect(meter.status(decoded: 1800, expected: 7200) == "0:30:00 of 2:00:00 audio (25 %), 90x real time, ETA 1m00s")
        // An unknown total: the rate, no ETA.
        #expect(meter.status(decoded: 1800, expected: nil) == "0:30:00 audio, 90x real time, ETA --")
        #expect(ProgressMeter.secondsLeft(decoded: 9000, expected: 7200, elapsed: 20) == 0)
        _ = meter.due()
    }

    @Test func redrawsAtMostFourTimesASecond() {
        let clock = FakeClock()
        var meter = ProgressMeter(clock: clock.read)
        var draws = 0
        // 10 s of updates every 1/64 s (exact in binary): 40 draws 0.25 s apart, the first at once.
        for _ in 0..<640 {
            if meter.due() { draws += 1 }
            clock.now += 1.0 / 64
        }
        #expect(draws == 40)
        let tooSoon = meter.due(every: 10)
        clock.now += 10
        let later = meter.due(every: 10)
        #expect(!tooSoon && later)
    }

    @Test func timesReadAsClocks() {
        #expect(ProgressMeter.clockText(3725.9) == "1:02:05")
        #expect(ProgressMeter.etaText(3725) == "1h02m")
        #expect(ProgressMeter.etaText(185) == "3m05s")
        #expect(ProgressMeter.etaText(41.2) == "42s")
        #expect(ProgressMeter.etaText(.infinity) == ProgressMeter.etaText(1e12))
    }
}
