import Testing
@testable import QixDynamics

/// The physics issue's acceptance lines, with Box2D v3 as the reference. Lines not met yet are
/// known issues with their measured figures, so the suite stays green and a fix shows up as an
/// unexpected pass.
@Suite struct AcceptanceTests {
    /// "A 20-box tower of 40 pt boxes stands within 0.5 pt for 10 s and pauses": the top box's
    /// largest move from where it was stacked (touching). The soft contacts are springs of the
    /// contact mass times (2π f)², each sagging its load over that stiffness, 2 N g / ω² for N
    /// boxes above. Measured 0.449 points with 160 Hz contacts at 5 sub-steps (its resting sag;
    /// 0.363 at 180 Hz), the relax pass over-relaxed by 1.25 (0.372 at 6 sub-steps and 180 Hz;
    /// 0.51 at 5 without over-relaxation, a dip in
    /// the first frames before the stack's load reaches the top; 3.25 at 60 Hz and 4 sub-steps,
    /// and at 4 the base-20 pyramid jitters above 120 Hz, 0.84 points). Box2D v3 (30 Hz at 240 sub-steps/s) sags 13.5 points on the same
    /// tower in metres (0.4 m boxes, g = 10 m/s²); the 0.16 was 40-unit boxes at g = 10
    /// units/s², a gravity 100 times weaker for the size.
    @Test func twentyBoxTowerStandsWithinHalfAPoint() {
        let (boxes, bounds) = Harness.tower()
        let animator = Harness.bounded(boxes, bounds: bounds)
        let start = boxes[19].center
        var worst = 0.0
        var paused = false
        for _ in 0..<600 {
            paused = animator.advance(by: 1.0 / 60).contains(.paused) || paused
            worst = max(worst, (boxes[19].center - start).length)
        }
        #expect(paused)
        // It does sag (a stiffer contact that stops sagging at all would be a change to look at).
        #expect(worst > 0.1, "measured \(worst)")
        #expect(worst < 0.5, "measured \(worst)")
    }

    /// "A 1100 pt/s floor impact overlaps 1 pt at most": a box hits the bounds' floor at 1100
    /// points/s from every start height over one step's travel; the deepest overlap at any step.
    /// Before bodies moving farther than the speculative distance were swept: 7.16 points.
    @Test(arguments: [Vector2(40, 40), Vector2(100, 100), Vector2(300, 200)])
    func fastFloorImpactOverlapsAtMostOnePoint(size: Vector2) {
        let box = Harness.box("b", at: Vector2(200, 500), size: size)
        let animator = Harness.bounded([box], bounds: Rect(x: 0, y: 0, width: 400, height: 1000))
        var deepest = 0.0
        for start in 0..<12 {
            box.center = Vector2(200, 1000 - size.y / 2 - 40 - Double(start))
            box.velocity = Vector2(0, 1100)
            box.angle = 0
            box.angularVelocity = 0
            animator.updateItem(usingCurrentState: box)
            for _ in 0..<60 {
                _ = animator.advance(by: 1.0 / 120)
                deepest = max(deepest, box.center.y + size.y / 2 - 1000)
            }
        }
        #expect(deepest < 1, "measured \(deepest)")
    }

    /// "A rigid item-item attachment keeps its length within 1 % while its anchor moves 141 pt
    /// per frame": a rod of 200 points between two items, the first held by an anchor
    /// attachment whose anchor moves (100, 100) points a frame. Measured 1e-15: every step ends
    /// with the rigid rods projected back to their length (`JointSolver.projectRods`); before,
    /// with only the soft bias (120 Hz, damping ratio 2) and the rigid relax pass, it stretched
    /// 33 %.
    @Test func rigidAttachmentKeepsItsLengthWhileItsAnchorMoves() {
        let a = Harness.box("a", at: Vector2(1000, 1000), size: Vector2(40, 40))
        let b = Harness.box("b", at: Vector2(1200, 1000), size: Vector2(40, 40))
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 2000, height: 2000))
        let hand = AttachmentBehavior(item: a, attachedToAnchor: Vector2(1000, 1000))
        let rod = AttachmentBehavior(item: a, attachedTo: b)
        animator.addBehavior(hand)
        animator.addBehavior(rod)
        var worst = 0.0
        var travelled = 0.0
        for f in 1...120 {
            // Back and forth over six frames each way, 141 points a frame.
            let phase = Double((f / 6) % 2 == 0 ? f % 6 : 6 - f % 6)
            hand.anchorPoint = Vector2(700 + 100 * phase, 700 + 100 * phase)
            let before = b.center
            _ = animator.advance(by: 1.0 / 60)
            travelled += (b.center - before).length
            worst = max(worst, abs((b.center - a.center).length - 200) / 200)
        }
        // The rod is dragged, not left behind: its far end travels with the hand.
        #expect(travelled > 5000, "travelled \(travelled)")
        #expect(worst < 0.01, "measured \(worst)")
    }
}
