import Testing
@testable import QixDynamics

@Suite struct CollisionBehaviorTests {
    private func headOn(elasticity: Double, densityB: Double, va: Double, vb: Double) -> (DynamicItem, DynamicItem, Double) {
        let a = Harness.box("a", at: Vector2(0, 0), shape: .ellipse)
        let b = Harness.box("b", at: Vector2(300, 0), shape: .ellipse)
        a.velocity = Vector2(va, 0)
        b.velocity = Vector2(vb, 0)
        let animator = DynamicAnimator()
        animator.addBehavior(CollisionBehavior(items: [a, b]))
        let p = Harness.undamped([a, b])
        p.elasticity = elasticity
        p.friction = 0
        animator.addBehavior(p)
        let heavy = DynamicItemBehavior(items: [b])
        heavy.density = densityB
        animator.addBehavior(heavy)
        Harness.run(animator, frames: 120)
        return (a, b, densityB)
    }

    @Test func elasticHeadOnCirclesSwapVelocities() {
        let (a, b, _) = headOn(elasticity: 1, densityB: 1, va: 200, vb: -200)
        // Swap within 1 %; momentum (0) conserved to 1e-9.
        #expect(abs(a.velocity.x + 200) <= 2)
        #expect(abs(b.velocity.x - 200) <= 2)
        #expect(abs(a.velocity.x + b.velocity.x) < 1e-9)
        #expect(abs(a.velocity.y) < 1e-9 && abs(b.velocity.y) < 1e-9)
    }

    @Test func inelasticHeadOnCirclesShareOneVelocity() {
        let (a, b, m) = headOn(elasticity: 0, densityB: 2, va: 300, vb: 0)
        // Common velocity 300 * 1 / 3 = 100 within 1 %; momentum 300 conserved to 1e-9 relative.
        #expect(abs(a.velocity.x - 100) <= 1)
        #expect(abs(b.velocity.x - 100) <= 1)
        #expect(abs(a.velocity.x + m * b.velocity.x - 300) < 1e-9 * 300)
    }

    @Test func boxRestsOnTheFloorAndTheAnimatorPauses() {
        let a = Harness.box(at: Vector2(200, 400))
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 400, height: 600))
        animator.addBehavior(GravityBehavior(items: [a]))
        let collision = CollisionBehavior(items: [a])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        var pausedAt: Int?
        var began = 0
        Harness.run(animator, frames: 300) { f, events in
            if events.contains(.paused), pausedAt == nil { pausedAt = f }
            for e in events { if case .contactBegan(let c) = e, c.isBoundary, c.boundaryIdentifier == nil { began += 1 } }
        }
        // Resting centre 550 (floor 600): no visible sinking (under 0.5 point), paused within 5 s.
        #expect(abs(a.center.y - 550) < 0.5)
        #expect(pausedAt != nil)
        #expect(began >= 1)
        #expect(!animator.isRunning)
    }

    @Test func tenBoxStackStandsFiveSeconds() {
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 400, height: 600))
        var boxes: [DynamicItem] = []
        for k in 0..<10 { boxes.append(Harness.box("b\(k)", at: Vector2(200, 575 - 50 * Double(k)), size: Vector2(50, 50))) }
        animator.addBehavior(GravityBehavior(items: boxes))
        let collision = CollisionBehavior(items: boxes)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        Harness.run(animator, frames: 300)
        // Every box within 1 point of its column, angles under 0.01 rad, and the soft contacts
        // compress the 500-point stack by under 3 points (0.6 %).
        for (k, box) in boxes.enumerated() {
            #expect(abs(box.center.x - 200) < 1)
            #expect(abs(box.center.y - (575 - 50 * Double(k))) < 3)
            #expect(abs(box.angle) < 0.01)
        }
    }

    @Test func anchoredItemDoesNotMoveWhenHit() {
        let wall = Harness.box("wall", at: Vector2(300, 0))
        let ball = Harness.box("ball", at: Vector2(0, 10), size: Vector2(40, 40), shape: .ellipse)
        ball.velocity = Vector2(800, 0)
        let animator = DynamicAnimator()
        animator.addBehavior(CollisionBehavior(items: [wall, ball]))
        let p = DynamicItemBehavior(items: [wall])
        p.isAnchored = true
        animator.addBehavior(p)
        var contact = false
        Harness.run(animator, frames: 60) { _, events in
            for e in events { if case .contactBegan = e { contact = true } }
            #expect(wall.center == Vector2(300, 0))
            #expect(wall.angle == 0)
            #expect(wall.velocity == .zero)
        }
        #expect(contact)
        #expect(ball.center.x < 230)
    }

    @Test func noTunnellingAtTwelveThousandPointsPerSecond() {
        for shape in [ItemShape.rectangle, .ellipse] {
            let bullet = Harness.box("bullet", at: Vector2(100, 300), size: Vector2(20, 20), shape: shape)
            bullet.velocity = Vector2(12000, 500)
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 600))
            let collision = CollisionBehavior(items: [bullet])
            collision.translatesReferenceBoundsIntoBoundary = true
            collision.addBoundary(identifier: "wall", from: Vector2(500, 0), to: Vector2(500, 600))
            animator.addBehavior(collision)
            let p = Harness.undamped([bullet])
            p.elasticity = 0
            animator.addBehavior(p)
            var maxX = 0.0
            Harness.run(animator, frames: 60) { _, _ in maxX = max(maxX, bullet.center.x) }
            // The wall at x = 500 stops it: the centre never passes 500 - 10 + 1.
            #expect(maxX < 491)
        }
    }

    @Test func segmentBoundaryEventsNameTheBoundary() {
        let a = Harness.box(at: Vector2(100, 0))
        let animator = DynamicAnimator()
        animator.addBehavior(GravityBehavior(items: [a]))
        let collision = CollisionBehavior(items: [a])
        collision.addBoundary(identifier: "floor", from: Vector2(0, 200), to: Vector2(300, 200))
        animator.addBehavior(collision)
        var names: [String?] = []
        Harness.run(animator, frames: 60) { _, events in
            for e in events { if case .contactBegan(let c) = e { names.append(c.boundaryIdentifier) } }
        }
        #expect(names.first == "floor")
        #expect(abs(a.center.y - 150) < 0.5)
    }

    /// A 40x40 box dropped at (100, 100) over a cup: a path from (0, 200) down to (0, 300), along
    /// its floor to (200, 300) and up to (200, 200); where it rests after 2 s.
    private func restingHeight(closed: Bool?, removeAll: Bool = false) -> Double {
        let box = Harness.box("box", at: Vector2(100, 100), size: Vector2(40, 40))
        let animator = DynamicAnimator()
        let collision = CollisionBehavior(items: [box])
        let path = [Vector2(0, 200), Vector2(0, 300), Vector2(200, 300), Vector2(200, 200)]
        if let closed { collision.addBoundary(identifier: "path", path: path, isClosed: closed) }
        collision.addBoundary(identifier: "other", from: Vector2(-500, 600), to: Vector2(500, 600))
        if removeAll { collision.removeAllBoundaries() }
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        Harness.run(animator, frames: 120)
        return box.center.y
    }

    @Test func anOpenPathHasNoClosingEdge() {
        // Closed, the edge from (200, 200) back to (0, 200) is a lid the box lands on.
        #expect(abs(restingHeight(closed: true) - 180) < 1)
        // Open, the box falls into the cup, onto its floor at y = 300.
        #expect(abs(restingHeight(closed: false) - 280) < 1)
    }

    @Test func removeAllBoundariesLeavesNothingToLandOn() {
        let collision = CollisionBehavior(items: [])
        collision.addBoundary(identifier: "a", from: .zero, to: Vector2(1, 0))
        collision.addBoundary(identifier: "b", path: [.zero, Vector2(0, 1), Vector2(1, 1)], isClosed: false)
        #expect(collision.boundary(identifier: "b")?.isClosed == false)
        collision.removeAllBoundaries()
        #expect(collision.boundaryIdentifiers.isEmpty && collision.boundary(identifier: "a") == nil)
        #expect(restingHeight(closed: false, removeAll: true) > 600)
    }
}

