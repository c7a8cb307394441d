import Testing
import QixTestSupport
@testable import QixDynamics

/// The physics issue's acceptance line: "0 of 1 000 seeded random throws pass through anything:
/// rectangles, ellipses and paths, oblique and spinning, at up to 20 000 pt/s", against static
/// boundaries (a segment, a closed path, the reference bounds) and a dynamic plank 10-40 pt thick.
///
/// A throw passes through when the thrown item's centre crosses the target's solid: it crosses
/// the segment's (or the plank's) line within its length, or leaves the inside of the closed path
/// or of the reference bounds. A centre cannot get there without the item going through the
/// target, so the count has no "went round the end" cases in it. Throw k is shape k % 3 at
/// target (k / 3) % 4, each with its own seeded draw, so 1 000 throws give 83 or 84 a category.
@Suite struct TunnellingTests {
    /// Every category measures 0 (2026-11-27). Before the sweep turned the item with its spin
    /// and swept fast items against moving ones, 250 of 1 000 got through (5 to 34 a category,
    /// 87 of 249 through the plank): a corner hit left the item touching with up to 320 rad/s of
    /// spin, and the next step's translation-only sweep at the final angle found it already
    /// overlapping and let it through. Box2D's rotating sweep with its fallback for a start in
    /// contact (a small circle round the centre) still let 26 through, the thin items whose
    /// long side a corner hit swings into the target; `ContinuousCollision` says what stops those.
    @Test(arguments: Throw.Target.allCases)
    func noThrowPassesThrough(_ target: Throw.Target) {
        let throwCount = 1000
        var tallies: [Throw.ShapeKind: Throw.Tally] = [:]
        for k in 0..<throwCount where (k / 3) % 4 == target.rawValue {
            let t = Throw(index: k, seed: 0x71C0_2026)
            tallies[t.shape, default: Throw.Tally()].add(t, passed: t.passesThrough())
        }
        for shape in Throw.ShapeKind.allCases {
            let tally = tallies[shape, default: Throw.Tally()]
            let category = Throw.Category(shape: shape, target: target)
            #expect(tally.passes == 0, "\(category): \(tally.summary)")
        }
    }

    /// The same throws with the thrown item's rotation locked: none gets through, the plank
    /// included (74 of its 249 got through before fast items were swept against moving ones).
    @Test(arguments: Throw.Target.allCases)
    func withRotationLockedNothingPassesThrough(_ target: Throw.Target) {
        var passes: [Int] = []
        for k in 0..<1000 where (k / 3) % 4 == target.rawValue {
            if Throw(index: k, seed: 0x71C0_2026).passesThrough(allowsRotation: false) { passes.append(k) }
        }
        #expect(passes.isEmpty, "\(target): throws \(passes) passed through")
    }

    /// Another seed's throw: a 61 x 27 path at 10 454 points/s spinning at 89 rad/s, whose centre
    /// a corner hit brought to 1.3 points off the 12-point plank; Box2D's core circle then gave
    /// up and the next step carried the centre through. The core may not sink a slop deeper now.
    @Test func aSpinningPathBroughtCloseToThePlankDoesNotGoThrough() {
        #expect(!Throw(index: 383, seed: 5).passesThrough())
    }

    @Test func theGeneratorIsSeeded() {
        // Same seed, same throw: the counts above are reproducible run to run.
        let a = Throw(index: 7, seed: 1), b = Throw(index: 7, seed: 1), c = Throw(index: 7, seed: 2)
        #expect(a.speed == b.speed && a.spin == b.spin && a.start == b.start)
        #expect(a.speed != c.speed)
    }
}

/// One seeded random throw: the thrown item, its start, velocity and spin, and the target.
struct Throw {
    enum ShapeKind: Int, CaseIterable, CustomStringConvertible, Sendable {
        case rectangle, ellipse, path
        var description: String { ["rectangle", "ellipse", "path"][rawValue] }
    }

    enum Target: Int, CaseIterable, CustomStringConvertible, Sendable {
        case segment, closedPath, referenceBounds, plank
        var description: String { ["segment", "closed path", "reference bounds", "plank"][rawValue] }
    }

    struct Category: Hashable, CustomStringConvertible, Sendable {
        var shape: ShapeKind
        var target: Target
        var description: String { "\(shape) x \(target)" }
    }

    /// Pass-throughs out of throws, and the slowest pass-through (the one that says most about
    /// where the limit lies).
    struct Tally {
        var throwsCount = 0
        var passes = 0
        var slowest: Throw?
        mutating func add(_ t: Throw, passed: Bool) {
            throwsCount += 1
            guard passed else { return }
            passes += 1
            if slowest.map({ t.speed < $0.speed }) ?? true { slowest = t }
        }
        var summary: String {
            let worst = slowest.map { " ; slowest: \($0.details)" } ?? ""
            return "\(passes) of \(throwsCount) passed through\(worst)"
        }
    }

    let index: Int
    let shape: ShapeKind
    let target: Target
    let itemShape: ItemShape
    let size: Vector2
    /// Farthest point of the outline from the centre.
    let extent: Double
    let start: Vector2
    let angle: Double
    let speed: Double
    /// Direction of travel, radians from the target's inward normal (segment, plank) or absolute.
    let heading: Double
    let spin: Double
    /// The plank's thickness (plank target only).
    let thickness: Double

    var details: String {
        let deg = heading * 180 / Double.pi
        return "throw \(index) \(shape) \(Int(size.x))x\(Int(size.y)) at \(Int(speed)) pt/s, heading "
            + "\(Int(deg.rounded()))°, spin \(Int(spin.rounded())) rad/s, \(target)"
            + (target == .plank ? " \(Int(thickness)) pt thick" : "")
    }
}

extension Throw {
    init(index: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x2545_F491_4F6C_DD1D)
        self.index = index
        shape = ShapeKind(rawValue: index % 3)!
        target = Target(rawValue: (index / 3) % 4)!
        (itemShape, size, extent) = Self.randomShape(shape, using: &random)
        angle = Double.random(in: -Double.pi...Double.pi, using: &random)
        speed = Double.random(in: 1000...20000, using: &random)
        spin = Double.random(in: -100...100, using: &random)
        thickness = Double.random(in: 10...40, using: &random)
        // Oblique up to 80° against the line targets; any direction inside the closed ones.
        let limit = target == .segment || target == .plank ? 80 * Double.pi / 180 : Double.pi
        heading = Double.random(in: -limit...limit, using: &random)
        start = Self.randomStart(target, extent: extent, thickness: thickness, using: &random)
    }

    /// A rectangle or ellipse 10-80 points a side (a third of the ellipses circles), or a convex
    /// path: a regular 3- to 8-gon stretched along its axes (a stretch keeps it convex).
    static func randomShape(_ kind: ShapeKind, using random: inout SplitMix64) -> (ItemShape, Vector2, Double) {
        var w = Double.random(in: 10...80, using: &random), h = Double.random(in: 10...80, using: &random)
        switch kind {
        case .rectangle:
            return (.rectangle, Vector2(w, h), 0.5 * (Vector2(w, h)).length)
        case .ellipse:
            if Int.random(in: 0..<3, using: &random) == 0 { h = w }
            return (.ellipse, Vector2(w, h), 0.5 * max(w, h))
        case .path:
            let n = Int.random(in: 3...8, using: &random)
            let phase = Double.random(in: 0...Double.pi, using: &random)
            var points: [Vector2] = []
            for i in 0..<n {
                let sc = DeterministicMath.sinCos(phase + 2 * Double.pi * Double(i) / Double(n))
                points.append(Vector2(0.5 * w * sc.cos, 0.5 * h * sc.sin))
            }
            let extent = points.map(\.length).max()!
            w = 2 * points.map { abs($0.x) }.max()!
            h = 2 * points.map { abs($0.y) }.max()!
            return (.path(points), Vector2(w, h), extent)
        }
    }

    /// Where the throw starts: in front of the segment or plank (3-300 points clear of it, within
    /// 150 points of its middle), or near the middle of the closed path or the bounds.
    static func randomStart(_ target: Target, extent: Double, thickness: Double,
                            using random: inout SplitMix64) -> Vector2 {
        let across = Double.random(in: -150...150, using: &random)
        let gap = Double.random(in: 3...300, using: &random)
        switch target {
        case .segment: return Vector2(-(extent + gap), across)
        case .plank: return Vector2(across, -(0.5 * thickness + extent + gap))
        case .closedPath: return Scene.pathInside + Vector2(across, 0.5 * gap - 75)
        case .referenceBounds: return Scene.boundsMiddle + Vector2(across, gap - 150)
        }
    }
}

/// The targets' geometry. The segment and the plank are long enough (6 000 and 5 000 points)
/// that every throw, even at 80° from the normal, meets them within their length.
enum Scene {
    static let segmentHalfLength = 3000.0
    static let plankLength = 5000.0
    /// An irregular closed path with a notch at (650, 380), so throws meet edges and corners at
    /// every angle; `pathInside` is at least 100 points from every edge.
    static let path = [Vector2(0, 0), Vector2(700, -100), Vector2(900, 300), Vector2(650, 380),
                       Vector2(850, 650), Vector2(100, 700), Vector2(-120, 350)]
    static let pathInside = Vector2(350, 320)
    static let bounds = Rect(x: 0, y: 0, width: 1000, height: 700)
    static let boundsMiddle = Vector2(500, 350)

    /// Even-odd rule: is `p` inside the closed `polygon`?
    static func contains(_ polygon: [Vector2], _ p: Vector2) -> Bool {
        var inside = false
        for i in 0..<polygon.count {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        }
        return inside
    }

    /// `p` in the frame of an item at `center` turned by `angle`.
    static func local(_ p: Vector2, center: Vector2, angle: Double) -> Vector2 {
        let sc = DeterministicMath.sinCos(angle), r = p - center
        return Vector2(r.x * sc.cos + r.y * sc.sin, -r.x * sc.sin + r.y * sc.cos)
    }

    /// Did a centre moving from `a` to `b` (local frame, target along x at y = 0) cross the target
    /// line within `halfLength` of its middle?
    static func crosses(from a: Vector2, to b: Vector2, halfLength: Double) -> Bool {
        guard (a.y < 0) != (b.y < 0) else { return false }
        let x = a.x + (b.x - a.x) * (0 - a.y) / (b.y - a.y)
        return abs(x) <= halfLength
    }
}

extension Throw {
    /// The simulated time of a throw: long enough for the containers' many bounces at 20 000
    /// points/s (the elasticity 0.2 default takes 80 % of the normal speed at each).
    static let steps = 120

    /// Runs the throw, one 1/120 s step a frame, and says whether the centre got through.
    /// `allowsRotation` false locks the thrown item's angle (`DynamicItemBehavior.allowsRotation`).
    func passesThrough(allowsRotation: Bool = true) -> Bool {
        let item = (try? DynamicItem(identifier: "thrown", center: start, size: size, angle: angle, shape: itemShape))!
        item.angularVelocity = spin
        let animator = DynamicAnimator(referenceBounds: target == .referenceBounds ? Scene.bounds : nil)
        let collision = CollisionBehavior(items: [item])
        let plank = makeTarget(collision)
        animator.addBehavior(collision)
        if !allowsRotation {
            let locked = DynamicItemBehavior(items: [item])
            locked.allowsRotation = false
            animator.addBehavior(locked)
        }
        let direction = target == .plank ? Vector2(DeterministicMath.sinCos(heading).sin, DeterministicMath.sinCos(heading).cos)
            : Vector2(DeterministicMath.sinCos(heading).cos, DeterministicMath.sinCos(heading).sin)
        item.velocity = speed * direction
        var previous = localCenter(item, plank: plank)
        for _ in 0..<Self.steps {
            _ = animator.advance(by: PhysicsConstants.stepDuration)
            let now = localCenter(item, plank: plank)
            if crossed(from: previous, to: now) { return true }
            previous = now
        }
        // Left deep inside the plank: the centre is in its solid.
        return target == .plank && abs(previous.y) < 0.5 * thickness && abs(previous.x) < 0.5 * Scene.plankLength
    }

    /// Adds the target to `collision`; returns the plank when the target is one.
    private func makeTarget(_ collision: CollisionBehavior) -> DynamicItem? {
        switch target {
        case .segment:
            collision.addBoundary(identifier: "wall", from: Vector2(0, -Scene.segmentHalfLength),
                                  to: Vector2(0, Scene.segmentHalfLength))
        case .closedPath:
            collision.addBoundary(identifier: "path", polygon: Scene.path)
        case .referenceBounds:
            collision.translatesReferenceBoundsIntoBoundary = true
        case .plank:
            // Floating, no gravity: density 1 makes it 8 to 300 times the thrown item's mass.
            let plank = Harness.box("plank", at: .zero, size: Vector2(Scene.plankLength, thickness))
            collision.addItem(plank)
            return plank
        }
        return nil
    }

    /// The centre in the target's frame: the plank's own frame, the segment turned so that it
    /// lies along x (the wall is x = 0, so swap the axes), or plain coordinates.
    private func localCenter(_ item: DynamicItem, plank: DynamicItem?) -> Vector2 {
        if let plank { return Scene.local(item.center, center: plank.center, angle: plank.angle) }
        if target == .segment { return Vector2(item.center.y, item.center.x) }
        return item.center
    }

    private func crossed(from a: Vector2, to b: Vector2) -> Bool {
        switch target {
        case .segment: return Scene.crosses(from: a, to: b, halfLength: Scene.segmentHalfLength)
        case .plank: return Scene.crosses(from: a, to: b, halfLength: 0.5 * Scene.plankLength)
        case .closedPath: return !Scene.contains(Scene.path, b)
        case .referenceBounds:
            let r = Scene.bounds
            return b.x < r.origin.x || b.y < r.origin.y || b.x > r.origin.x + r.size.x || b.y > r.origin.y + r.size.y
        }
    }
}
