import Testing
@testable import QixDynamics

/// Groups (UIKit's `UIDynamicItemGroup`): several items moving as one rigid body.
@Suite struct DynamicItemGroupTests {
    /// Two boxes side by side with a gap and a third turned one above, grouped.
    private func items() -> [DynamicItem] {
        [Harness.box("a", at: Vector2(0, 0)), Harness.box("b", at: Vector2(150, 0), size: Vector2(100, 40)),
         Harness.box("c", at: Vector2(60, -90), size: Vector2(40, 40), angle: 0.3)]
    }

    private func group(_ members: [DynamicItem]) -> DynamicItemGroup {
        (try? DynamicItemGroup(identifier: "g", items: members))!
    }

    /// Largest change, over all pairs of items, of the distance between their centres and of
    /// the difference of their angles, from the start.
    private func rigidityError(_ members: [DynamicItem], start: [(Vector2, Double)]) -> Double {
        var worst = 0.0
        for i in members.indices {
            for j in members.indices where j > i {
                let d0 = (start[i].0 - start[j].0).length, d = (members[i].center - members[j].center).length
                worst = max(worst, abs(d - d0), abs((members[i].angle - members[j].angle) - (start[i].1 - start[j].1)))
            }
        }
        return worst
    }

    @Test func theGroupTakesItsItemsBoundsAndCentre() throws {
        let a = Harness.box("a", at: Vector2(0, 0)), b = Harness.box("b", at: Vector2(200, 50))
        let g = try DynamicItemGroup(items: [a, b])
        #expect(g.center == Vector2(100, 25) && g.size == Vector2(300, 150))
        #expect(g.items.count == 2 && g.angle == 0)
    }

    @Test func invalidGroupsAreRefused() throws {
        let a = Harness.box("a", at: .zero), b = Harness.box("b", at: Vector2(200, 0))
        #expect(throws: DynamicsError.invalidGroup("g", "a group needs at least one item")) { try DynamicItemGroup(identifier: "g", items: []) }
        #expect(throws: DynamicsError.self) { try DynamicItemGroup(identifier: "g", items: [a, a]) }
        let g = try DynamicItemGroup(identifier: "g", items: [a])
        #expect(throws: DynamicsError.self) { try DynamicItemGroup(identifier: "h", items: [g]) }
        #expect(throws: DynamicsError.invalidGroup("h", "item a is in group g")) { try DynamicItemGroup(identifier: "h", items: [a, b]) }
    }

    /// Gravity on the group: it falls as one body (y = g t²/2 = 500 points after 1 s, within the
    /// integrator's 0.5 %) and its items keep their distances and relative angles.
    @Test func aGroupFallsAsOneBody() {
        let members = items()
        let start = members.map { ($0.center, $0.angle) }
        let g = group(members)
        let animator = DynamicAnimator()
        animator.addBehavior(GravityBehavior(items: [g]))
        animator.addBehavior(Harness.undamped([g]))
        Harness.run(animator, frames: 60)
        for (k, item) in members.enumerated() {
            #expect(abs(item.center.y - start[k].0.y - 500) < 2.5)
            #expect(abs(item.center.x - start[k].0.x) < 1e-9 && abs(item.angle - start[k].1) < 1e-12)
            #expect(abs(item.velocity.y - 1000) < 1e-6)
        }
        #expect(rigidityError(members, start: start) < 1e-9)
        #expect(abs(g.velocity.y - 1000) < 1e-6)
    }

    /// A push off the centre of mass turns the group: every item turns by the same angle and
    /// every pair keeps its distance.
    @Test func anOffCentrePushTurnsTheItemsTogether() {
        let members = items()
        let start = members.map { ($0.center, $0.angle) }
        let g = group(members)
        let animator = DynamicAnimator()
        let push = PushBehavior(items: [g], mode: .continuous)
        push.pushDirection = Vector2(0, 1)
        push.setTargetOffsetFromCenter(Vector2(100, 0), for: g)
        animator.addBehavior(push)
        animator.addBehavior(Harness.undamped([g]))
        Harness.run(animator, frames: 60)
        let turn = members[0].angle - start[0].1
        #expect(turn > 0.05)
        for (k, item) in members.enumerated() { #expect(abs(item.angle - start[k].1 - turn) < 1e-12) }
        #expect(abs(g.angle - turn) < 1e-12)
        #expect(rigidityError(members, start: start) < 1e-9)
        for item in members { #expect(abs(item.angularVelocity - g.angularVelocity) < 1e-12) }
    }

    /// Two overlapping bars in a collision behavior form an upside-down T: grouped, they do not
    /// push each other apart, and the T lands on its bar and rests there without turning.
    @Test func overlappingItemsOfAGroupDoNotCollideWithEachOther() {
        let across = Harness.box("h", at: Vector2(200, 300), size: Vector2(200, 40))
        let down = Harness.box("v", at: Vector2(200, 220), size: Vector2(40, 200))
        let g = group([across, down])
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 400, height: 600))
        let collision = CollisionBehavior(items: [g])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [g]))
        Harness.run(animator, frames: 180)
        #expect(abs(across.center.x - down.center.x) < 1e-6 && abs(across.center.y - down.center.y - 80) < 1e-6)
        #expect(abs(across.center.y - 580) < 1.5, "the bar rests on the floor: \(across.center.y)")
        // The landing moves it sideways by a point (the solver takes the contact points one
        // after the other; the bar alone, ungrouped, lands 2.7 points aside).
        #expect(abs(g.angle) < 1e-6 && abs(across.center.x - 200) < 2, "angle \(g.angle), x \(across.center.x)")
    }

    /// A box dropped on a grouped pair lands on it and rests (items collide with a group's items).
    @Test func otherItemsCollideWithTheGroupsItems() {
        let a = Harness.box("a", at: Vector2(150, 550)), b = Harness.box("b", at: Vector2(250, 550))
        let g = group([a, b])
        let top = Harness.box("top", at: Vector2(200, 300), size: Vector2(60, 60))
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 400, height: 600))
        let collision = CollisionBehavior(items: [g, top])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [g, top]))
        Harness.run(animator, frames: 180)
        #expect(abs(top.center.y - 470) < 1.5, "top at \(top.center.y)")
        #expect(abs(a.center.y - 550) < 1.5 && abs(b.center.y - a.center.y) < 0.05, "a \(a.center.y), b \(b.center.y)")
    }

    /// An item landing on one end of a grouped bar tips the whole bar: a rigid response to a
    /// contact on one item.
    @Test func aContactOnOneItemMovesTheWholeGroup() {
        let left = Harness.box("l", at: Vector2(100, 300), size: Vector2(100, 20))
        let right = Harness.box("r", at: Vector2(200, 300), size: Vector2(100, 20))
        let members = [left, right]
        let start = members.map { ($0.center, $0.angle) }
        let g = group(members)
        let ball = Harness.box("ball", at: Vector2(60, 100), size: Vector2(20, 20), shape: .ellipse)
        ball.velocity = Vector2(0, 600)
        let animator = DynamicAnimator()
        animator.addBehavior(CollisionBehavior(items: [g, ball]))
        animator.addBehavior(Harness.undamped([g, ball]))
        Harness.run(animator, frames: 60)
        #expect(right.velocity.y > 1 && left.velocity.y > 1, "both move: \(left.velocity.y) \(right.velocity.y)")
        #expect(g.angularVelocity < -0.01 || g.angularVelocity > 0.01)
        #expect(rigidityError(members, start: start) < 1e-9)
    }

    /// A snap on a group pulls the group's centre to the point and its angle back to 0.
    @Test func aSnapMovesTheGroupToThePoint() {
        let members = items()
        let g = group(members)
        let target = g.center + Vector2(120, 80)
        let animator = DynamicAnimator()
        animator.addBehavior(SnapBehavior(item: g, snapTo: target))
        Harness.run(animator, frames: 600)
        #expect((g.center - target).length < 1, "centre \(g.center) vs \(target)")
        #expect(abs(g.angle) < 0.01)
    }

    /// Two 100x100 boxes side by side, grouped, and one 200x100 box: the same rigid shape.
    private func twinAndSolid() -> (group: DynamicItemGroup, solid: DynamicItem) {
        (group([Harness.box("a", at: Vector2(-50, 0)), Harness.box("b", at: Vector2(50, 0))]),
         Harness.box("s", at: .zero, size: Vector2(200, 100)))
    }

    /// The largest distance between the paths of the group and of the solid box over 4 s, each
    /// in its own animator with the behaviors `make` gives.
    private func pathGap(_ make: (DynamicItem) -> [DynamicBehavior]) -> Double {
        let (g, solid) = twinAndSolid()
        let animators = [g, solid].map { item -> DynamicAnimator in
            let animator = DynamicAnimator()
            for behavior in make(item) { animator.addBehavior(behavior) }
            return animator
        }
        var gap = 0.0
        for _ in 0..<240 {
            for animator in animators { _ = animator.advance(by: 1.0 / 60) }
            gap = max(gap, (g.center - solid.center).length)
        }
        return gap
    }

    /// A 1 Hz spring off the centre swings and turns the group as it does the same shape
    /// ungrouped (the spring is retuned to the group's mass after every step; on the first
    /// item's mass alone the group swung at 0.71 Hz).
    @Test func aSpringOnAGroupSwingsAsOnTheSameSolidShape() {
        let gap = pathGap { item in
            let spring = AttachmentBehavior(kind: .distance, items: [item], offsets: [Vector2(0, 30)], anchor: Vector2(-300, 40))
            spring.frequency = 1
            spring.damping = 0.1
            spring.length = 200
            return [spring, Harness.undamped([item])]
        }
        // 0.44 points at most over 4 s of swinging and turning (64 before the retuning).
        #expect(gap < 1, "paths part by \(gap) points")
    }

    /// A snap on the group moves it as a snap moves the same shape ungrouped, within a point
    /// over its 180-point way (the welds, soft inside the step, let the group give a little).
    @Test func aSnapOnAGroupMovesItAsTheSameSolidShape() {
        let gap = pathGap { item in [SnapBehavior(item: item, snapTo: Vector2(150, 100))] }
        #expect(gap < 1, "paths part by \(gap) points")
    }

    /// A rod from an anchor to a point on a group keeps that point at the rod's length while the
    /// group swings under gravity.
    @Test func anAttachmentHoldsAPointOfTheGroup() {
        let members = items()
        let g = group(members)
        let offset = Vector2(-50, -50)
        let anchor = g.center + offset + Vector2(0, -150)
        let rod = AttachmentBehavior(kind: .distance, items: [g], offsets: [offset], anchor: anchor)
        let animator = DynamicAnimator()
        animator.addBehavior(rod)
        animator.addBehavior(GravityBehavior(items: [g]))
        g.velocity = Vector2(200, 0)
        var worst = 0.0
        Harness.run(animator, frames: 120) { _, _ in
            let point = g.center + Rotation(angle: g.angle).rotate(offset)
            worst = max(worst, abs((point - anchor).length - 150))
        }
        #expect(worst < 0.1, "rod length off by \(worst)")  // 0.015 points
        #expect(abs(g.center.x - (anchor.x + 50)) > 10, "the group swung")
    }

    @Test func addedVelocityMovesTheWholeGroup() {
        let members = items()
        let g = group(members)
        let animator = DynamicAnimator()
        let properties = Harness.undamped([g])
        animator.addBehavior(properties)
        _ = animator.advance(by: 1.0 / 60)
        properties.addLinearVelocity(Vector2(60, 0), for: g)
        properties.addAngularVelocity(1, for: g)
        Harness.run(animator, frames: 60)
        // The welds' impulses, taken at points a soft step lets drift apart, change the angular
        // momentum by 1e-6 in a second.
        #expect(abs(g.angularVelocity - 1) < 1e-5 && abs(g.angle - 1) < 0.02, "\(g.angularVelocity) \(g.angle)")
        for item in members { #expect(abs(item.angularVelocity - g.angularVelocity) < 1e-12) }
    }

    @Test func twoRunsGiveTheSameBits() {
        func run() -> [UInt64] {
            let members = items()
            let g = group(members)
            let other = Harness.box("o", at: Vector2(60, -300), size: Vector2(50, 50))
            let animator = DynamicAnimator(referenceBounds: Rect(x: -200, y: -400, width: 600, height: 800))
            let collision = CollisionBehavior(items: [g, other])
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(collision)
            animator.addBehavior(GravityBehavior(items: [g, other]))
            Harness.run(animator, frames: 240)
            return (members + [other]).flatMap { [$0.center.x.bitPattern, $0.center.y.bitPattern, $0.angle.bitPattern] }
        }
        #expect(run() == run())
    }
}
