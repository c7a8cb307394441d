import Testing
@testable import QixDynamics
import QixScenes

/// The C contact kernel (both builds) must give exactly the Swift kernel's bits: on random
/// batches in isolation (every lane case: masked second points, static sides, separated and
/// overlapping points, signed zeros) and on whole scenes stepped side by side.
@Suite struct ContactKernelTests {
    /// The kernels this machine can run besides the Swift reference (the AVX2 build only on a
    /// CPU with AVX2; on such a CPU both C builds are compared).
    static var cKernels: [ContactKernel] { [.portable, .avx2, .avx512].filter(\.isAvailable) }

    @Test func recordsLineUpWithTheCKernel() {
        #expect(ContactKernel.layoutMatches)
        #expect(ContactKernel.portable.isAvailable)
    }

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        /// A value in [-scale, scale), now and then exactly +0 or -0.
        mutating func value(_ scale: Double) -> Double {
            switch next() % 16 {
            case 0: return 0
            case 1: return -0.0
            default: return (2 * unit() - 1) * scale
            }
        }
        mutating func lanes(_ scale: Double) -> Lanes { Lanes(value(scale), value(scale), value(scale), value(scale)) }
    }

    /// Random batches over `bodyCount` bodies (body 0 static), each batch's lanes writing
    /// disjoint movable bodies as the schedule guarantees, and the bodies' inverse masses.
    static func randomPass(seed: UInt64, batchCount: Int, bodyCount: Int)
        -> (batches: [ContactBatch], solve: [BatchSolve], states: [BodyState], masses: [SIMD2<Double>]) {
        var g = Generator(state: seed)
        var states: [BodyState] = []
        var masses: [SIMD2<Double>] = [.zero]
        for i in 0..<bodyCount {
            if i > 0 {
                let m = 0.5 + g.unit()
                masses.append(SIMD2(m, m * 0.001))
            }
            var s = BodyState()
            s.v = Vector2(g.value(300), g.value(300))
            s.w = g.value(5)
            s.dp = Vector2(g.value(2), g.value(2))
            let a = g.value(0.05)
            s.dq = Rotation(c: 1 - a * a / 2, s: a)
            states.append(s)
        }
        var batches: [ContactBatch] = []
        var solve: [BatchSolve] = []
        for _ in 0..<batchCount {
            var c = ContactBatch()
            var d = BatchSolve()
            // Distinct bodies for the eight sides (a lane may use the static body 0 instead).
            var used: Set<Int32> = []
            func pick() -> Int32 {
                while true {
                    let i = Int32(1 + Int(g.next() % UInt64(bodyCount - 1)))
                    if used.insert(i).inserted { return i }
                }
            }
            for l in 0..<4 {
                let kind = g.next() % 8
                if kind == 0 { continue }  // an unused lane: all zeros, body 0 both sides
                let staticA = kind == 1, staticB = kind == 2
                c.indexA[l] = staticA ? 0 : pick()
                c.indexB[l] = staticB ? 0 : pick()
                let angle = 2 * Double.pi * g.unit()
                setLane(&c.normalX, l, DeterministicMath.sinCos(angle).cos)
                setLane(&c.normalY, l, DeterministicMath.sinCos(angle).sin)
                setLane(&d.friction, l, g.unit())
                let two = g.next() % 3 != 0
                c.hasP2[l] = two
                for p in two ? [1, 2] : [1] {
                    func point(_ b: inout BatchPoint, _ q: inout PointSolve) {
                        setLane(&b.normalArmA, l, g.value(70))
                        setLane(&b.normalArmB, l, g.value(70))
                        setLane(&b.tangentArmA, l, g.value(70))
                        setLane(&b.tangentArmB, l, g.value(70))
                        setLane(&b.normalImpulse, l, abs(g.value(50)))
                        setLane(&b.tangentImpulse, l, g.value(10))
                        setLane(&q.baseSeparation, l, g.value(3))
                        setLane(&q.normalMass, l, g.unit())
                        setLane(&q.tangentMass, l, g.unit())
                        setLane(&q.maxNormalImpulse, l, abs(g.value(5)))
                    }
                    if p == 1 { point(&c.p1, &d.p1) } else { point(&c.p2, &d.p2) }
                }
                if two {
                    // A coupling as the fill computes it (|c12 c21| < 1), so the block solve runs.
                    let c12 = 0.9 * g.unit(), c21 = 0.9 * g.unit()
                    setLane(&d.coupling12, l, c12)
                    setLane(&d.coupling21, l, c21)
                    setLane(&d.blockScale, l, 1 / (1 - c12 * c21))
                }
            }
            batches.append(c)
            solve.append(d)
        }
        return (batches, solve, states, masses)
    }

    static func bytes<T>(_ a: [T]) -> [UInt8] { a.withUnsafeBytes { Array($0) } }

    /// Where two arrays of records first differ, as record index, byte offset in the record
    /// and both 64-bit words as Doubles; nil when their bytes are identical.
    static func firstDifference<T>(_ a: [T], _ b: [T]) -> String? {
        let x = bytes(a), y = bytes(b)
        if x == y { return nil }
        guard x.count == y.count else { return "sizes \(x.count) and \(y.count)" }
        let i = (0..<x.count).first { x[$0] != y[$0] }! / 8 * 8
        func word(_ z: [UInt8]) -> Double {
            Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(z[i + $1]) << (8 * UInt64($1)) })
        }
        let stride = MemoryLayout<T>.stride
        return "record \(i / stride), byte \(i % stride): \(word(x)) vs \(word(y))"
    }

    /// Every pass, forwards and backwards (last batch first), gives the Swift kernel's bits.
    @Test(arguments: [true, false], [false, true])
    func randomBatchesGiveTheSwiftKernelsBits(useBias: Bool, reversed: Bool) {
        let softness = (contact: Softness.make(hertz: 60, zeta: 10, h: 1.0 / 480),
                        static: Softness.make(hertz: 120, zeta: 10, h: 1.0 / 480))
        for seed: UInt64 in [1, 2, 3, 0x9E37_79B9_7F4A_7C15] {
            let start = Self.randomPass(seed: seed, batchCount: 400, bodyCount: 300)
            var reference = start
            let masses = start.masses
            reference.batches.withUnsafeMutableBufferPointer { bp in reference.solve.withUnsafeMutableBufferPointer { sd in
                reference.states.withUnsafeMutableBufferPointer { sp in masses.withUnsafeBufferPointer { mp in
                    ContactSolver.solvePass(bp, sd, sp.baseAddress!, softness, invH: 480, useBias: useBias,
                                            reversed: reversed, masses: mp.baseAddress!)
                } }
            } }
            #expect(Self.bytes(reference.states) != Self.bytes(start.states))
            for kernel in Self.cKernels {
                var run = start
                let ran = run.batches.withUnsafeMutableBufferPointer { bp in run.solve.withUnsafeMutableBufferPointer { sd in
                    run.states.withUnsafeMutableBufferPointer { sp in masses.withUnsafeBufferPointer { mp in
                        kernel.runPass(bp.baseAddress!, sd.baseAddress!, count: bp.count, sp.baseAddress!,
                                       softness: softness, invH: 480, useBias: useBias, reversed: reversed,
                                       masses: mp.baseAddress!)
                    } }
                } }
                #expect(ran)
                let differences = [Self.firstDifference(run.states, reference.states),
                                   Self.firstDifference(run.batches, reference.batches),
                                   Self.firstDifference(run.solve, reference.solve)]
                #expect(differences == [nil, nil, nil],
                        "\(kernel) (states, batches, solve data), seed \(seed), reversed \(reversed)")
            }
        }
    }

    /// The least warm-start reach for `batches` (the rule of `WarmStartReach`, from the batch
    /// records): before batch n, every batch up to the last one of a movable body of n.
    static func leastReach(_ batches: [ContactBatch], masses: [SIMD2<Double>]) -> [Int32] {
        let bodyCount = masses.count
        var last = [Int32](repeating: -1, count: bodyCount)
        for (n, c) in batches.enumerated() {
            for l in 0..<4 {
                if masses[Int(c.indexA[l])].x > 0 { last[Int(c.indexA[l])] = Int32(n) }
                if masses[Int(c.indexB[l])].x > 0 { last[Int(c.indexB[l])] = Int32(n) }
            }
        }
        var farthest = Int32(0)
        return batches.enumerated().map { n, c in
            var need = Int32(n)
            for l in 0..<4 {
                if masses[Int(c.indexA[l])].x > 0 { need = max(need, last[Int(c.indexA[l])]) }
                if masses[Int(c.indexB[l])].x > 0 { need = max(need, last[Int(c.indexB[l])]) }
            }
            farthest = max(farthest, need)
            return farthest + 1
        }
    }

    /// The C kernels' warm start (four lanes at a time) must give the scalar warm start's bits.
    @Test func warmStartGivesTheScalarBits() {
        for seed: UInt64 in [8, 9] {
            let start = Self.randomPass(seed: seed, batchCount: 300, bodyCount: 40)
            var reference = start
            let masses = start.masses
            reference.states.withUnsafeMutableBufferPointer { sp in masses.withUnsafeBufferPointer { mp in
                start.batches.withUnsafeBufferPointer { bp in
                    ContactSolver.warmStartPass(bp, sp.baseAddress!, masses: mp.baseAddress!)
                }
            } }
            #expect(Self.bytes(reference.states) != Self.bytes(start.states))
            for kernel in Self.cKernels {
                var run = start
                let ran = run.states.withUnsafeMutableBufferPointer { sp in masses.withUnsafeBufferPointer { mp in
                    start.batches.withUnsafeBufferPointer { bp in
                        kernel.runWarmStart(bp.baseAddress!, count: bp.count, sp.baseAddress!, masses: mp.baseAddress!)
                    }
                } }
                #expect(ran)
                #expect(Self.firstDifference(run.states, reference.states) == nil, "\(kernel), seed \(seed)")
            }
        }
    }

    /// The fused warm start and solve sweep must give the bits of the warm start followed by
    /// the solve pass, with the least reach and with the whole warm start first.
    @Test func fusedWarmStartAndSolveGivesTheSeparatePassesBits() {
        let softness = (contact: Softness.make(hertz: 60, zeta: 10, h: 1.0 / 480),
                        static: Softness.make(hertz: 120, zeta: 10, h: 1.0 / 480))
        for seed: UInt64 in [5, 6, 7] {
            // Few bodies, so that bodies recur across many batches and the reach matters.
            let start = Self.randomPass(seed: seed, batchCount: 300, bodyCount: 40)
            var reference = start
            let masses = start.masses
            reference.batches.withUnsafeMutableBufferPointer { bp in reference.solve.withUnsafeMutableBufferPointer { sd in
                reference.states.withUnsafeMutableBufferPointer { sp in masses.withUnsafeBufferPointer { mp in
                    ContactSolver.warmStartPass(UnsafeBufferPointer(bp), sp.baseAddress!, masses: mp.baseAddress!)
                    ContactSolver.solvePass(bp, sd, sp.baseAddress!, softness, invH: 480, useBias: true,
                                            masses: mp.baseAddress!)
                } }
            } }
            let least = Self.leastReach(start.batches, masses: masses)
            #expect(zip(least.indices, least).contains { $0 + 1 < Int($1) })  // the warm start runs ahead
            let whole = [Int32](repeating: Int32(start.batches.count), count: start.batches.count)
            // Too short a reach (each batch warm-started just before it is solved) reorders
            // impulses, which the comparison must notice.
            let short = (0..<start.batches.count).map { Int32($0 + 1) }
            for (reach, same) in [(least, true), (whole, true), (short, false)] {
                for kernel in Self.cKernels {
                    var run = start
                    let ran = run.batches.withUnsafeMutableBufferPointer { bp in run.solve.withUnsafeMutableBufferPointer { sd in
                        run.states.withUnsafeMutableBufferPointer { sp in
                            reach.withUnsafeBufferPointer { wb in masses.withUnsafeBufferPointer { mp in
                                kernel.runWarmStartAndSolve(bp.baseAddress!, sd.baseAddress!, count: bp.count, sp.baseAddress!,
                                                            softness: softness, invH: 480, warmedBy: wb.baseAddress!,
                                                            masses: mp.baseAddress!)
                            } }
                        }
                    } }
                    #expect(ran)
                    let differences = [Self.firstDifference(run.states, reference.states),
                                       Self.firstDifference(run.batches, reference.batches),
                                       Self.firstDifference(run.solve, reference.solve)]
                    #expect((differences == [nil, nil, nil]) == same, "\(kernel) (states, batches, solve data), seed \(seed)")
                }
            }
        }
    }

    /// A Box2D-style pyramid of `base` 100-point boxes on a ground segment.
    static func pyramid(base: Int) -> [UInt8] {
        var items: [String] = [], ids: [String] = []
        for row in 0..<base {
            for i in 0..<(base - row) {
                let id = "b\(row)_\(i)"
                ids.append("\"\(id)\"")
                items.append("{\"id\": \"\(id)\", \"center\": [\(1050 + 50 * row + 100 * i), \(2950 - 100 * row)], \"size\": [100, 100]}")
            }
        }
        let list = ids.joined(separator: ", ")
        let json = """
            {"referenceBounds": [0, 0, 4000, 3100], "frameRate": 60, "duration": 1, "items": [\(items.joined(separator: ",\n"))],
             "behaviors": [{"type": "gravity", "items": [\(list)]},
              {"type": "collision", "items": [\(list)], "mode": "everything",
               "boundaries": [{"id": "ground", "from": [-1000, 3000], "to": [5000, 3000]}]}]}
            """
        return Array(json.utf8)
    }

    /// The C fill must write every lane of every batch record as the Swift fill does (unused
    /// lanes and missing second points included), here for the contacts of a settled pile and
    /// of a pyramid, with and without pair keys.
    @Test(arguments: ["pile60.json", "pyramid"])
    func fillGivesTheSwiftFillsBits(scene name: String) throws {
        let scene = try SceneLoader.load(name == "pyramid" ? Self.pyramid(base: 20) : DeterminismTests.sceneBytes(name))
        for _ in 0..<(name == "pyramid" ? 30 : 180) { _ = scene.advanceFrame() }  // the pile has settled by 3 s
        let world = scene.animator.world
        #expect(world.contacts.count > 50)
        let contactSoftness = Softness.make(hertz: 60, zeta: 10, h: 1.0 / 480)
        let staticSoftness = Softness.make(hertz: 120, zeta: 10, h: 1.0 / 480)
        func filled(_ kernel: ContactKernel, keyed: Bool) -> ContactSolver {
            var solver = ContactSolver()
            solver.kernel = kernel
            world.contacts.withUnsafeBufferPointer { cp in world.contactKeys.withUnsafeBufferPointer { keys in
                world.bodies.withUnsafeBufferPointer { bp in world.states.withUnsafeBufferPointer { sp in
                    world.materials.withUnsafeBufferPointer { mp in
                        solver.prepare(cp, keys: keyed ? keys : UnsafeBufferPointer(start: nil, count: 0), bodies: bp.baseAddress!,
                                       materials: mp.baseAddress!, bodyCount: bp.count, states: sp.baseAddress!,
                                       contactSoftness: contactSoftness, staticSoftness: staticSoftness)
                    }
                } }
            } }
            return solver
        }
        for keyed in [true, false] {
            let reference = filled(.swift, keyed: keyed)
            for kernel in Self.cKernels {
                let run = filled(kernel, keyed: keyed)
                let differences = [Self.firstDifference(run.batches, reference.batches),
                                   Self.firstDifference(run.solveData, reference.solveData),
                                   Self.firstDifference(run.bounces, reference.bounces)]
                #expect(differences == [nil, nil, nil], "\(kernel) (batches, solve data, bounces), \(name)")
            }
        }
    }

    /// Runs the scene with every available kernel side by side and compares the bodies' whole
    /// solver state (velocities, displacements) after every frame.
    static func compareKernels(_ file: [UInt8], frames: Int) throws {
        let kernels: [ContactKernel] = [.swift] + cKernels
        let scenes = try kernels.map { kernel in
            let scene = try SceneLoader.load(file)
            scene.animator.world.contactSolver.kernel = kernel
            return scene
        }
        for frame in 1...frames {
            for scene in scenes { _ = scene.advanceFrame() }
            let reference = scenes[0].animator.world.states
            for (k, scene) in scenes.enumerated().dropFirst() {
                let difference = firstDifference(scene.animator.world.states, reference)
                #expect(difference == nil, "\(kernels[k]) differs from the Swift kernel at frame \(frame)")
                if difference != nil { return }
            }
        }
        let hashes = scenes.map { StateHash.of($0.items) }
        #expect(Set(hashes).count == 1)
    }

    @Test func pyramidStepsAreIdenticalWithEveryKernel() throws {
        try Self.compareKernels(Self.pyramid(base: 20), frames: 90)
    }

    @Test func pileStepsAreIdenticalWithEveryKernel() throws {
        try Self.compareKernels(try DeterminismTests.sceneBytes("pile60.json"), frames: 240)
    }

    @Test func cardsStepsAreIdenticalWithEveryKernel() throws {
        try Self.compareKernels(try DeterminismTests.sceneBytes("cards10.json"), frames: 240)
    }
}
