import Testing
@testable import QixDynamics
import QixScenes

/// The C box manifolds (both builds, four pairs in lanes) must give `Collide.clipPolygons`'
/// bits: on random pairs of placed rectangles (apart, touching, overlapping, aligned, turned,
/// identical); only rectangles may be sent to them; and whole scenes must step exactly as with
/// the Swift narrow phase.
@Suite struct BoxManifoldsTests {
    static var cKernels: [ContactKernel] { ContactKernelTests.cKernels }

    /// A shape placed as the world places it: vertices `xf.apply`, normals `xf.q.rotate`.
    static func placed(_ geometry: ConvexGeometry, at p: Vector2, angle: Double) -> (vertices: [Vector2], normals: [Vector2]) {
        let xf = Transform(p: p, q: Rotation(angle: angle))
        return (geometry.vertices.map { xf.apply($0) }, geometry.normals.map { xf.q.rotate($0) })
    }

    /// The geometry of `ItemShape.rectangle` of this size.
    static func rectangle(_ size: Vector2) -> ConvexGeometry {
        let hw = 0.5 * size.x, hh = 0.5 * size.y
        return ConvexGeometry.polygon([Vector2(-hw, -hh), Vector2(hw, -hh), Vector2(hw, hh), Vector2(-hw, hh)])
    }

    /// Random pairs of shapes near each other: mostly rectangles (some axis-aligned side by
    /// side or stacked, as in a pyramid, some at exactly the same place), now and then a
    /// four-vertex polygon that is not a rectangle.
    static func randomScene(seed: UInt64, pairCount: Int) -> (vertices: [Vector2], normals: [Vector2], pairs: [(Int, Int)]) {
        var g = ContactKernelTests.Generator(state: seed)
        var vertices: [Vector2] = [], normals: [Vector2] = [], pairs: [(Int, Int)] = []
        func add(_ geometry: ConvexGeometry, _ p: Vector2, _ angle: Double) -> Int {
            let start = vertices.count
            let shape = placed(geometry, at: p, angle: angle)
            vertices += shape.vertices
            normals += shape.normals
            return start
        }
        for _ in 0..<pairCount {
            let sizeA = Vector2(10 + 140 * g.unit(), 10 + 140 * g.unit())
            let sizeB = g.next() % 4 == 0 ? sizeA : Vector2(10 + 140 * g.unit(), 10 + 140 * g.unit())
            let quad = g.next() % 16 == 0
            let a = quad ? ConvexGeometry.polygon([Vector2(-30, -20), Vector2(40, -25), Vector2(35, 30), Vector2(-20, 25)])
                : rectangle(sizeA)
            let b = rectangle(sizeB)
            let origin = Vector2(1000 * g.value(1), 10000 * g.unit())
            let angleA: Double, angleB: Double
            switch g.next() % 4 {
            case 0: (angleA, angleB) = (0, 0)
            case 1: (angleA, angleB) = (g.value(1e-3), g.value(1e-3))
            case 2: (angleA, angleB) = (0.5 * Double.pi * Double(g.next() % 4), g.value(4))
            default: (angleA, angleB) = (g.value(4), g.value(4))
            }
            var offset: Vector2
            switch g.next() % 5 {
            case 0: offset = Vector2(0.5 * (sizeA.x + sizeB.x) + g.value(3), g.value(0.5 * sizeA.y))  // side by side
            case 1: offset = Vector2(g.value(0.5 * sizeA.x), -0.5 * (sizeA.y + sizeB.y) + g.value(3))  // stacked
            case 2: offset = .zero  // the same place
            default: offset = Vector2(g.value(0.6 * (sizeA.x + sizeB.x)), g.value(0.6 * (sizeA.y + sizeB.y)))
            }
            let startA = add(a, origin, angleA)
            let startB = add(b, origin + offset, angleB)
            pairs.append(g.next() % 2 == 0 ? (startA, startB) : (startB, startA))
        }
        return (vertices, normals, pairs)
    }

    /// The bits that matter of a manifold: count, and normal and points up to the count.
    static func bits(_ m: Manifold) -> [UInt64] {
        var words: [UInt64] = [UInt64(m.count)]
        if m.count > 0 { words += [m.normal.x.bitPattern, m.normal.y.bitPattern] }
        for p in [m.p0, m.p1].prefix(m.count) {
            words += [p.point.x.bitPattern, p.point.y.bitPattern, p.separation.bitPattern, UInt64(p.id)]
        }
        return words
    }

    @Test(arguments: [UInt64(1), 2, 3, 0x9E37_79B9_7F4A_7C15])
    func randomPairsGiveTheSwiftManifoldsBits(seed: UInt64) {
        // 203 pairs: the last run of lanes is not full.
        let scene = Self.randomScene(seed: seed, pairCount: 203)
        let reference = scene.pairs.map { a, b in
            scene.vertices.withUnsafeBufferPointer { v in
                scene.normals.withUnsafeBufferPointer { n in
                    Collide.clipPolygons(v.baseAddress! + a, n.baseAddress! + a, 4, v.baseAddress! + b, n.baseAddress! + b, 4,
                                         margin: PhysicsConstants.speculativeDistance)
                }
            }
        }
        let rectangles = scene.pairs.map { a, b in
            scene.normals.withUnsafeBufferPointer { Collide.isBox($0.baseAddress! + a) && Collide.isBox($0.baseAddress! + b) }
        }
        #expect(reference.filter { $0.count == 2 }.count > 30)
        #expect(reference.filter { $0.count == 1 }.count > 0)
        #expect(reference.filter { $0.count == 0 }.count > 10)
        #expect(rectangles.filter { !$0 }.count > 3)
        // The C lanes take pairs of rectangles only (the narrow phase sends them no others).
        let boxPairs = scene.pairs.indices.filter { rectangles[$0] }
        for kernel in Self.cKernels {
            var boxes = BoxManifolds()
            boxes.kernel = kernel
            let results: [Manifold] = scene.vertices.withUnsafeBufferPointer { v in
                scene.normals.withUnsafeBufferPointer { n in
                    boxes.withBatch(capacity: boxPairs.count, vertices: v.baseAddress!, normals: n.baseAddress!) { batch in
                        guard let batch else { return [] }
                        for (k, pair) in boxPairs.enumerated() { batch.setPair(k, scene.pairs[pair].0, scene.pairs[pair].1) }
                        batch.run(count: boxPairs.count)
                        return (0..<boxPairs.count).map { batch.manifold($0) }
                    }
                }
            }
            #expect(results.count == boxPairs.count, "\(kernel) ran")
            for (k, result) in results.enumerated() {
                #expect(Self.bits(result) == Self.bits(reference[boxPairs[k]]), "\(kernel), seed \(seed), pair \(boxPairs[k])")
            }
        }
    }

    /// Only shapes whose placed normals are a rectangle's bit for bit (`Collide.isBox`) go to
    /// the C lanes: a turned rectangle is one, a quad, a segment or a circle never (nor is an
    /// unturned rectangle, whose normals (+0, -1) and (+0, 1) differ in the sign of a zero).
    @Test func collidersMarkRectangles() {
        let shapes: [(ConvexGeometry, expected: [Bool]?)] = [
            (Self.rectangle(Vector2(100, 40)), [false, true, true, true]),
            (ConvexGeometry.polygon([Vector2(-30, -20), Vector2(40, -25), Vector2(35, 30), Vector2(-20, 25)]), nil),
            (ConvexGeometry.segment(Vector2(0, 0), Vector2(100, 0)), nil),
            (ConvexGeometry(vertices: [.zero], normals: [.zero], radius: 10), nil),
        ]
        for (geometry, expected) in shapes {
            for (k, angle) in [0, 0.3, -2.5, Double.pi / 2].enumerated() {
                var body = Body(origin: .zero, angle: angle, q: Rotation(angle: angle), localCenter: .zero, center: .zero)
                body.shapeCount = geometry.vertices.count
                let normals = Self.placed(geometry, at: Vector2(10, 20), angle: angle).normals
                let collider = normals.withUnsafeBufferPointer { Collider(body, placedNormals: $0.baseAddress) }
                let isBox = normals.count == 4 && normals.withUnsafeBufferPointer { Collide.isBox($0.baseAddress!) }
                #expect(collider.isRectangle == isBox, "\(geometry.vertices.count) vertices at \(angle)")
                #expect(collider.isRectangle == expected?[k] ?? false, "\(geometry.vertices.count) vertices at \(angle)")
            }
        }
    }

    @Test func theSwiftKernelHasNoBatch() {
        var boxes = BoxManifolds()
        boxes.kernel = .swift
        let ran = [Vector2.zero].withUnsafeBufferPointer { v in
            boxes.withBatch(capacity: 4, vertices: v.baseAddress!, normals: v.baseAddress!) { $0 != nil }
        }
        #expect(!ran)
    }

    /// Every field of a contact as 64-bit words (its padding bytes are not compared).
    static func fields(_ c: ContactConstraint) -> [UInt64] {
        func point(_ p: ContactPoint) -> [UInt64] {
            [p.point.x, p.point.y, p.separation, p.normalImpulse, p.tangentImpulse]
                .map(\.bitPattern)
        }
        return [UInt64(c.a), UInt64(c.b), c.normal.x.bitPattern, c.normal.y.bitPattern, UInt64(c.pointCount)]
            + point(c.p0) + point(c.p1)
    }

    /// Runs the scene with the Swift narrow phase and with each C build of the box manifolds
    /// side by side and compares the contacts and the bodies' solver state after every frame.
    static func compareNarrowPhases(_ file: [UInt8], frames: Int) throws {
        let kernels: [ContactKernel] = [.swift] + cKernels
        let scenes = try kernels.map { kernel in
            let scene = try SceneLoader.load(file)
            scene.animator.world.boxManifolds.kernel = kernel
            return scene
        }
        for frame in 1...frames {
            for scene in scenes { _ = scene.advanceFrame() }
            let reference = scenes[0].animator.world
            for (k, scene) in scenes.enumerated().dropFirst() {
                let world = scene.animator.world
                let difference = ContactKernelTests.firstDifference(world.contacts.flatMap(Self.fields),
                                                                    reference.contacts.flatMap(Self.fields))
                    ?? ContactKernelTests.firstDifference(Array(world.contactPointIDs.elements),
                                                          Array(reference.contactPointIDs.elements))
                    ?? ContactKernelTests.firstDifference(world.states, reference.states)
                #expect(difference == nil, "\(kernels[k]) differs from the Swift narrow phase at frame \(frame)")
                if difference != nil { return }
            }
        }
        #expect(Set(scenes.map { StateHash.of($0.items) }).count == 1)
    }

    @Test func pyramidStepsAreIdenticalWithEveryNarrowPhase() throws {
        try Self.compareNarrowPhases(ContactKernelTests.pyramid(base: 20), frames: 90)
    }

    @Test func pileStepsAreIdenticalWithEveryNarrowPhase() throws {
        try Self.compareNarrowPhases(try DeterminismTests.sceneBytes("pile60.json"), frames: 240)
    }

    @Test func cardsStepsAreIdenticalWithEveryNarrowPhase() throws {
        try Self.compareNarrowPhases(try DeterminismTests.sceneBytes("cards10.json"), frames: 240)
    }
}
