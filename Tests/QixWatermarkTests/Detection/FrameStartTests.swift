import Testing
@testable import QixWatermark

/// `MarkLocator.frameStart`: a spot aired whole starts on a boundary of the frame grid, so a
/// start found near one is moved to it; a spot cut inside its first frame keeps its own start.
@Suite struct FrameStartTests {
    /// Frame offset of the grids below: boundaries at hops 40, 232, 424, ... at speed 1.
    static let offset = 40

    @Test func movesALateStartBackToTheBoundaryWhenTheMarkIsThere() {
        // Found one block late (32 hops): the skipped stretch scores z 2, so the mark is there.
        let scores = SpliceTests.scores(hops: 600) { h in h >= 232 ? 2 : 0 }
        #expect(MarkLocator.frameStart(264, scores, lower: 0, speed: 1, offset: Self.offset) == 232)
    }

    @Test func keepsTheStartOfASpotCutAfterTheBoundary() {
        // The same start, but the stretch back to the boundary is unmarked: the spot was cut.
        let scores = SpliceTests.scores(hops: 600) { h in h >= 264 ? 2 : 0 }
        #expect(MarkLocator.frameStart(264, scores, lower: 0, speed: 1, offset: Self.offset) == 264)
    }

    @Test func movesAnEarlyOrSlightlyLateStartWithoutEvidence() {
        // 10 hops early, or 12 hops late (under `frameSnapFar`): moved either way.
        let scores = SpliceTests.scores(hops: 600) { _ in 0 }
        #expect(MarkLocator.frameStart(222, scores, lower: 0, speed: 1, offset: Self.offset) == 232)
        #expect(MarkLocator.frameStart(244, scores, lower: 0, speed: 1, offset: Self.offset) == 232)
    }

    @Test func keepsAStartFarFromEveryBoundary() {
        // 98 hops after one boundary and 94 before the next: a spot cut mid-frame.
        let scores = SpliceTests.scores(hops: 600) { _ in 2 }
        #expect(MarkLocator.frameStart(330, scores, lower: 0, speed: 1, offset: Self.offset) == 330)
    }

    @Test func readsTheGridAtTheSpotsSpeed() {
        // Played 2 % fast from global hop 1000 on: frame hop 40 + 6 * 192 = 1192 is global
        // hop 1192 / 1.02 = 1168.6, local 169 of a stretch that starts at 1000.
        let scores = SpliceTests.scores(hops: 600) { h in h >= 169 ? 2 : 0 }
        #expect(MarkLocator.frameStart(189, scores, lower: 1000, speed: 1.02, offset: Self.offset) == 169)
    }
}
