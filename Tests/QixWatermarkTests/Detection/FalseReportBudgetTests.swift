import Foundation
import Testing
@testable import QixWatermark

/// The expected-ID threshold per budget: an hour's chance of a false report per hour, or
/// for a whole listening session.
struct FalseReportBudgetTests {
    @Test func theHourlyBudgetKeepsSevenAtAnyLength() {
        for seconds in [0.5, 3, 60, 3600, 86_400, .infinity] {
            #expect(FalseReportBudget.perHour.expectedScore(seconds: seconds) == WatermarkDetector.expectedScore)
        }
    }

    /// Q(T) = Q(7) * 3600 / seconds: a 3 s session reports from 5.92, an hour from 7, and
    /// the threshold never rises above the hourly one nor falls below a second's.
    @Test func aSessionKeepsOneHoursChanceOverTheWholeInput() {
        let session = FalseReportBudget.perSession
        #expect(abs(session.expectedScore(seconds: 3) - 5.92) < 0.01)
        #expect(abs(session.expectedScore(seconds: 5) - 6.01) < 0.01)
        #expect(abs(session.expectedScore(seconds: 3600) - 7) < 1e-4)
        #expect(session.expectedScore(seconds: 7200) == 7)
        #expect(session.expectedScore(seconds: .infinity) == 7)
        #expect(session.expectedScore(seconds: 0.2) == session.expectedScore(seconds: FalseReportBudget.shortestSession))
        let lengths = [1.0, 2, 3, 5, 10, 30, 100, 1000, 3600]
        let scores = lengths.map { session.expectedScore(seconds: $0) }
        #expect(zip(scores, scores.dropFirst()).allSatisfy { $0 < $1 })
        for (seconds, score) in zip(lengths, scores) {
            let chance = FalseReportBudget.upperTail(Double(score)) * seconds
            let hour = FalseReportBudget.upperTail(7) * 3600
            #expect(abs(chance / hour - 1) < 1e-3, "\(seconds) s")
        }
    }

    @Test func theInverseTailInvertsTheTail() {
        for x in [0.5, 1.0, 3.0, 5.9, 7.0, 9.0] {
            #expect(abs(FalseReportBudget.inverseUpperTail(FalseReportBudget.upperTail(x)) - x) < 1e-9)
        }
    }
}
