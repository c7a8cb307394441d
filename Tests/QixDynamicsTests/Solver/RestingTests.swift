import Testing
@testable import QixDynamics

/// Stacks that must come to rest and let the animator pause (UIKit pauses when every item
/// sleeps, and a sleeping item has no velocity). Before contacts were block-solved, 20-box
/// towers fell over within 10 s, pyramids paused with items still moving at 0.8 points/s and
/// card stacks at 0.04 points/s.
@Suite struct RestingTests {
    /// A run of `items` under gravity inside `bounds` (the bounds a boundary).
    struct Run {
        let animator: DynamicAnimator
        let items: [DynamicItem]
        let start: [Vector2]
        var pausedAt: Int?
        var frame = 0

        init(_ items: [DynamicItem], bounds: Rect) {
            animator = Harness.bounded(items, bounds: bounds)
            self.items = items
            start = items.map(\.center)
        }

        /// Advances `frames` frames at 60 Hz, noting the first pause.
        mutating func advance(_ frames: Int) {
            for _ in 0..<frames {
                frame += 1
                if animator.advance(by: 1.0 / 60).contains(.paused), pausedAt == nil { pausedAt = frame }
            }
        }

        var fastest: Double { items.map { max($0.velocity.length, abs($0.angularVelocity)) }.max() ?? 0 }
        /// The largest sideways move of any item from its start.
        var sideways: Double { zip(items, start).map { abs($0.center.x - $1.x) }.max() ?? 0 }
    }

    /// 10 cards of 300 x 10 points on the floor of a 390 x 844 screen: touching, or dropped
    /// 100 points with 5 points between them.
    @Test(arguments: [(0.0, 0.0), (5.0, 100.0)])
    func thinCardsRestAndPauseWithinTwoSeconds(gap: Double, lift: Double) {
        let cards = (0..<10).map { k in
            Harness.box("c\(k)", at: Vector2(195, 844 - 5 - lift - (10 + gap) * Double(k)), size: Vector2(300, 10))
        }
        var run = Run(cards, bounds: Rect(x: 0, y: 0, width: 390, height: 844))
        run.advance(120)
        #expect(run.pausedAt != nil)
        #expect(!run.animator.isRunning)
        #expect(run.fastest < 0.01)
        #expect(run.sideways < 0.01)
        for (k, card) in cards.enumerated() {
            #expect(abs(card.angle) < 1e-4)
            // Stacked in order, 10 points apart (the soft contacts overlap under 0.2 point).
            #expect(abs(card.center.y - (844 - 5 - 10 * Double(k))) < 2)
        }
    }

    @Test func twentyBoxTowerStandsTenSecondsAndPauses() {
        let (boxes, bounds) = Harness.tower()
        var run = Run(boxes, bounds: bounds)
        run.advance(60)
        let settled = boxes.map(\.center)
        run.advance(540)
        #expect(run.pausedAt.map { $0 <= 120 } == true)
        #expect(run.fastest < 0.01)
        // Upright in its column, and still from 1 s to 10 s; the soft contacts compress the
        // 800-point tower by 0.45 point (the top box's sag at 160 Hz; 3.25 with 60 Hz contacts), no more
        // than 0.5.
        #expect(run.sideways < 0.5)
        for (box, then) in zip(boxes, settled) {
            #expect((box.center - then).length < 0.5)
            #expect(abs(box.angle) < 1e-3)
        }
        #expect(abs(boxes[19].center.y - run.start[19].y) < 0.5)
    }

    /// A base-40 pyramid of 100-point boxes (820 boxes, UIKit's default friction 0.2) settles in
    /// place. At 5 sub-steps with 180 Hz contacts and both contact passes always sweeping in
    /// contact order it kept jittering (the fastest box at 19.6 points/s after 5 s) and its top
    /// box crept one way, 2.9 points by 5 s (the base-100 pyramid's 62 by 8 s); with the sweeps
    /// alternating and 160 Hz contacts the top box moves 0.26 point and the fastest box is at
    /// 0.38 point/s.
    @Test func baseFortyPyramidDoesNotLean() {
        var boxes: [DynamicItem] = []
        for row in 0..<40 {
            for i in 0..<(40 - row) {
                let x = 1050 + 50 * Double(row) + 100 * Double(i)
                boxes.append(Harness.box("p\(row)_\(i)", at: Vector2(x, 4200 - 50 - 100 * Double(row))))
            }
        }
        var run = Run(boxes, bounds: Rect(x: 0, y: 0, width: 6000, height: 4200))
        run.advance(300)
        let top = boxes[boxes.count - 1], topStart = run.start[boxes.count - 1]
        #expect(abs(top.center.x - topStart.x) < 1, "top box moved \(top.center.x - topStart.x) sideways")
        #expect(run.fastest < 2, "fastest box at \(run.fastest) points/s")
    }

    @Test func baseTwentyPyramidStands() {
        var boxes: [DynamicItem] = []
        for row in 0..<20 {
            for i in 0..<(20 - row) {
                let x = 400 - 20 * Double(19 - row) + 40 * Double(i)
                boxes.append(Harness.box("p\(row)_\(i)", at: Vector2(x, 1000 - 20 - 40 * Double(row)), size: Vector2(40, 40)))
            }
        }
        var run = Run(boxes, bounds: Rect(x: 0, y: 0, width: 800, height: 1000))
        run.advance(600)
        #expect(run.pausedAt.map { $0 <= 120 } == true)
        #expect(run.fastest < 0.01)
        // Every box within a point of where it was stacked (the top box 0.18); the uneven loads of
        // the soft contacts tilt some by up to 0.00051 rad (0.0025 with 60 Hz contacts).
        for (box, start) in zip(boxes, run.start) {
            #expect((box.center - start).length < 1)
            #expect(abs(box.angle) < 0.005)
        }
    }
}
