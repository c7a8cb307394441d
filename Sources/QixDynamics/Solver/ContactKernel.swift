internal import CContactKernel

/// Which code runs the contact solver's batch fill and its solve and relax passes (and, without
/// joints, the warm start fused with the solve pass). All give the same bits (the C kernel is a
/// transcription of ContactSolver+Lanes.swift and the fill with the same IEEE operations in the
/// same order and no fused multiply-add); the AVX2 build is the fast one, because
/// baseline x86-64 needs two two-operand SSE2 instructions per `SIMD4<Double>` operation and
/// spills a third of its instructions, where AVX2 holds a lane vector in one register and has
/// three-operand instructions (docs/dynamics.md, docs/determinism.md).
enum ContactKernel: Sendable, CaseIterable {
    /// The Swift lane kernel (`ContactSolver.solveBatch`), the reference the others are tested against.
    case swift
    /// The C kernel compiled for baseline x86-64 (or for the target CPU elsewhere).
    case portable
    /// The same C kernel compiled for AVX2 (x86-64 CPUs that have it).
    case avx2
    /// The same C kernel compiled for AVX-512 F, VL and DQ (x86-64 CPUs that have them): the
    /// same 256-bit lanes with 32 registers, so a batch's values are not spilled to the stack.
    case avx512

    /// The kernel every solver uses unless told otherwise: chosen once per process, the
    /// AVX-512 build where the CPU runs it, else the AVX2 build, else the Swift kernel (the
    /// reference; the portable C build is there so that tests check the C code on any machine,
    /// and was not measured faster).
    static let preferred: ContactKernel = avx512.isAvailable ? .avx512 : avx2.isAvailable ? .avx2 : .swift

    /// Whether this kernel can run in this process: the C kernels need the C records to line
    /// up with the Swift ones (checked once), the AVX2 build also a CPU with AVX2.
    var isAvailable: Bool {
        switch self {
        case .swift: return true
        case .portable: return ContactKernel.layoutMatches
        case .avx2: return ContactKernel.layoutMatches && ContactKernel.cpuHasAVX2
        case .avx512: return ContactKernel.layoutMatches && ContactKernel.cpuHasAVX512
        }
    }

    /// Of a C kernel built portable and AVX2 (`KernelBuilds.h`), the build that runs with this
    /// contact kernel (the AVX-512 one runs the AVX2 build), or nil for the Swift kernel or
    /// one this process cannot run.
    func build<Function>(portable: Function, avx2: Function) -> Function? {
        guard isAvailable else { return nil }
        switch self {
        case .swift: return nil
        case .portable: return portable
        case .avx2, .avx512: return avx2
        }
    }

    private static let cpuHasAVX2 = qix_contact_avx2_supported() != 0
    private static let cpuHasAVX512 = qix_contact_avx512_supported() != 0

    /// Whether the C kernel's records (CContactKernel.h) have the sizes and field offsets of
    /// the Swift records it works on in place. Swift does not promise a struct layout, so the
    /// C kernel is only used when this holds (it does for the declaration-order layout every
    /// Swift compiler so far produces).
    static let layoutMatches: Bool = {
        func same<S, C>(_ s: S.Type, _ c: C.Type) -> Bool {
            MemoryLayout<S>.size == MemoryLayout<C>.size && MemoryLayout<S>.stride == MemoryLayout<C>.stride
        }
        let batch: [(Int?, Int?)] = [
            (MemoryLayout.offset(of: \ContactBatch.indexA), MemoryLayout.offset(of: \QixContactBatch.indexA)),
            (MemoryLayout.offset(of: \ContactBatch.indexB), MemoryLayout.offset(of: \QixContactBatch.indexB)),
            (MemoryLayout.offset(of: \ContactBatch.normalX), MemoryLayout.offset(of: \QixContactBatch.normalX)),
            (MemoryLayout.offset(of: \ContactBatch.normalY), MemoryLayout.offset(of: \QixContactBatch.normalY)),
            (MemoryLayout.offset(of: \ContactBatch.p1), MemoryLayout.offset(of: \QixContactBatch.p1)),
            (MemoryLayout.offset(of: \ContactBatch.p2), MemoryLayout.offset(of: \QixContactBatch.p2)),
            (MemoryLayout.offset(of: \ContactBatch.hasP2), MemoryLayout.offset(of: \QixContactBatch.hasP2)),
        ]
        let point: [(Int?, Int?)] = [
            (MemoryLayout.offset(of: \BatchPoint.normalArmA), MemoryLayout.offset(of: \QixBatchPoint.normalArmA)),
            (MemoryLayout.offset(of: \BatchPoint.normalArmB), MemoryLayout.offset(of: \QixBatchPoint.normalArmB)),
            (MemoryLayout.offset(of: \BatchPoint.tangentArmA), MemoryLayout.offset(of: \QixBatchPoint.tangentArmA)),
            (MemoryLayout.offset(of: \BatchPoint.tangentArmB), MemoryLayout.offset(of: \QixBatchPoint.tangentArmB)),
            (MemoryLayout.offset(of: \BatchPoint.normalImpulse), MemoryLayout.offset(of: \QixBatchPoint.normalImpulse)),
            (MemoryLayout.offset(of: \BatchPoint.tangentImpulse), MemoryLayout.offset(of: \QixBatchPoint.tangentImpulse)),
        ]
        let solve: [(Int?, Int?)] = [
            (MemoryLayout.offset(of: \BatchSolve.friction), MemoryLayout.offset(of: \QixBatchSolve.friction)),
            (MemoryLayout.offset(of: \BatchSolve.p1), MemoryLayout.offset(of: \QixBatchSolve.p1)),
            (MemoryLayout.offset(of: \BatchSolve.p2), MemoryLayout.offset(of: \QixBatchSolve.p2)),
            (MemoryLayout.offset(of: \BatchSolve.coupling12), MemoryLayout.offset(of: \QixBatchSolve.coupling12)),
            (MemoryLayout.offset(of: \BatchSolve.coupling21), MemoryLayout.offset(of: \QixBatchSolve.coupling21)),
            (MemoryLayout.offset(of: \BatchSolve.blockScale), MemoryLayout.offset(of: \QixBatchSolve.blockScale)),
            (MemoryLayout.offset(of: \PointSolve.baseSeparation), MemoryLayout.offset(of: \QixPointSolve.baseSeparation)),
            (MemoryLayout.offset(of: \PointSolve.normalMass), MemoryLayout.offset(of: \QixPointSolve.normalMass)),
            (MemoryLayout.offset(of: \PointSolve.tangentMass), MemoryLayout.offset(of: \QixPointSolve.tangentMass)),
            (MemoryLayout.offset(of: \PointSolve.maxNormalImpulse),
             MemoryLayout.offset(of: \QixPointSolve.maxNormalImpulse)),
        ]
        let body: [(Int?, Int?)] = [
            (MemoryLayout.offset(of: \BodyState.v), MemoryLayout.offset(of: \QixBodyState.vx)),
            (MemoryLayout.offset(of: \BodyState.w), MemoryLayout.offset(of: \QixBodyState.w)),
            (MemoryLayout.offset(of: \BodyState.dp), MemoryLayout.offset(of: \QixBodyState.dpx)),
            (MemoryLayout.offset(of: \BodyState.dq), MemoryLayout.offset(of: \QixBodyState.dqc)),
            (MemoryLayout.offset(of: \BodyState.dAngle), MemoryLayout.offset(of: \QixBodyState.dAngle)),
        ]
        let contact: [(Int?, Int?)] = [
            (ContactConstraint.bodyOffsets.a, MemoryLayout.offset(of: \QixContact.a)),
            (ContactConstraint.bodyOffsets.b, MemoryLayout.offset(of: \QixContact.b)),
            (ContactConstraint.bodyOffsets.pointCount, MemoryLayout.offset(of: \QixContact.pointCount)),
            (MemoryLayout.offset(of: \ContactConstraint.normal), MemoryLayout.offset(of: \QixContact.normalX)),
            (MemoryLayout.offset(of: \ContactConstraint.p0), MemoryLayout.offset(of: \QixContact.p0)),
            (MemoryLayout.offset(of: \ContactConstraint.p1), MemoryLayout.offset(of: \QixContact.p1)),
            (MemoryLayout.offset(of: \ContactPoint.point), MemoryLayout.offset(of: \QixContactPoint.pointX)),
            (MemoryLayout.offset(of: \ContactPoint.separation), MemoryLayout.offset(of: \QixContactPoint.separation)),
            (MemoryLayout.offset(of: \ContactPoint.normalImpulse),
             MemoryLayout.offset(of: \QixContactPoint.normalImpulse)),
            (MemoryLayout.offset(of: \ContactPoint.tangentImpulse),
             MemoryLayout.offset(of: \QixContactPoint.tangentImpulse)),
            (MemoryLayout.offset(of: \BatchBounce.restitution), MemoryLayout.offset(of: \QixBatchBounce.restitution)),
            (MemoryLayout.offset(of: \BatchBounce.relativeVelocity1),
             MemoryLayout.offset(of: \QixBatchBounce.relativeVelocity1)),
            (MemoryLayout.offset(of: \BatchBounce.relativeVelocity2),
             MemoryLayout.offset(of: \QixBatchBounce.relativeVelocity2)),
        ]
        let contactStride = MemoryLayout<ContactConstraint>.stride == MemoryLayout<QixContact>.stride
            && MemoryLayout<ContactPoint>.stride == MemoryLayout<QixContactPoint>.stride
        // SIMDMask lanes are Int64 all-ones or zero, which the C kernel reads as such.
        let mask = MemoryLayout<LaneMask>.size == 4 * MemoryLayout<Int64>.size
            && withUnsafeBytes(of: LaneMask(repeating: true)) { $0.allSatisfy { $0 == 0xFF } }
            && withUnsafeBytes(of: LaneMask(repeating: false)) { $0.allSatisfy { $0 == 0 } }
        return same(ContactBatch.self, QixContactBatch.self) && same(BatchPoint.self, QixBatchPoint.self)
            && same(BatchSolve.self, QixBatchSolve.self) && same(PointSolve.self, QixPointSolve.self)
            && same(BodyState.self, QixBodyState.self) && mask
            && MemoryLayout<Vector2>.size == 16 && MemoryLayout<Rotation>.size == 16
            && same(BatchBounce.self, QixBatchBounce.self) && contactStride
            && (batch + point + solve + body + contact).allSatisfy { $0.0 != nil && $0.0 == $0.1 }
    }()

    /// The C build of this kernel; nil for the Swift kernel.
    private var cPass: QixContactPass? {
        switch self {
        case .swift: return nil
        case .portable: return qix_contact_pass_portable
        case .avx2: return qix_contact_pass_avx2
        case .avx512: return qix_contact_pass_avx512
        }
    }

    /// The C build of this kernel's batch fill; nil for the Swift kernel.
    private var cFill: QixContactFill? {
        switch self {
        case .swift: return nil
        case .portable: return qix_contact_fill_portable
        case .avx2: return qix_contact_fill_avx2
        case .avx512: return qix_contact_fill_avx512
        }
    }

    /// Fills `count` batches for a step with this kernel's C build (`ContactSolver.fill` and
    /// `clear` lane by lane: lane l of batch n from contact `slots[4 n + l]`, -1 unused) and
    /// returns true; returns false, having done nothing, for the Swift kernel.
    func runFill(_ batches: UnsafeMutablePointer<ContactBatch>, _ solve: UnsafeMutablePointer<BatchSolve>,
                 _ bounce: UnsafeMutablePointer<BatchBounce>, count: Int, slots: UnsafePointer<Int32>,
                 contacts: UnsafePointer<ContactConstraint>,
                 bodies: (masses: BodyMasses, materials: UnsafePointer<SIMD2<Double>>, centers: UnsafePointer<Vector2>),
                 states: UnsafePointer<BodyState>) -> Bool {
        guard let fill = cFill else { return false }
        fill(UnsafeMutablePointer(OpaquePointer(batches)), UnsafeMutablePointer(OpaquePointer(solve)),
             UnsafeMutablePointer(OpaquePointer(bounce)), count, slots, UnsafePointer(OpaquePointer(contacts)),
             UnsafePointer(OpaquePointer(bodies.masses)), UnsafePointer(OpaquePointer(bodies.materials)),
             UnsafePointer(OpaquePointer(bodies.centers)), UnsafePointer(OpaquePointer(states)))
        return true
    }

    /// The C build of this kernel's warm start; nil for the Swift kernel.
    private var cWarmStart: QixContactWarmStart? {
        switch self {
        case .swift: return nil
        case .portable: return qix_contact_warm_start_portable
        case .avx2: return qix_contact_warm_start_avx2
        case .avx512: return qix_contact_warm_start_avx512
        }
    }

    /// Runs the warm start over `count` batches with this kernel's C build (four lanes at a
    /// time, the bits of `ContactSolver.warmStartPass`) and returns true; returns false, having
    /// done nothing, for the Swift kernel.
    func runWarmStart(_ batches: UnsafePointer<ContactBatch>, count: Int, _ states: UnsafeMutablePointer<BodyState>,
                      masses: BodyMasses) -> Bool {
        guard let warm = cWarmStart else { return false }
        warm(UnsafePointer(OpaquePointer(batches)), count, UnsafeMutablePointer(OpaquePointer(states)),
             UnsafePointer(OpaquePointer(masses)))
        return true
    }

    /// The C build of this kernel's fused warm start and solve pass; nil for the Swift kernel.
    private var cWarmStartAndSolve: QixContactWarmStartAndSolve? {
        switch self {
        case .swift: return nil
        case .portable: return qix_contact_warm_start_and_solve_portable
        case .avx2: return qix_contact_warm_start_and_solve_avx2
        case .avx512: return qix_contact_warm_start_and_solve_avx512
        }
    }

    /// The pass constants in the C kernel's form.
    private static func constants(_ softness: (contact: Softness, static: Softness), invH: Double,
                                  useBias: Bool, reversed: Bool = false, masses: BodyMasses) -> QixPassConstants {
        func soft(_ s: Softness) -> QixSoftness {
            QixSoftness(biasRate: s.biasRate, massScale: s.massScale, impulseScale: s.impulseScale)
        }
        return QixPassConstants(
            contact: soft(softness.contact), fixed: soft(softness.static), invH: invH,
            maxPush: -PhysicsConstants.contactPushMaxVelocity,
            overRelaxation: PhysicsConstants.relaxOverRelaxation, useBias: useBias ? 1 : 0,
            reverse: reversed ? 1 : 0, masses: UnsafePointer(OpaquePointer(masses)))
    }

    /// Runs the warm start and the solve pass in one sweep with this kernel's C build (before
    /// batch n is solved, batches up to `warmedBy[n]` are warm-started: `WarmStartReach`) and
    /// returns true; returns false, having done nothing, for the Swift kernel.
    func runWarmStartAndSolve(_ batches: UnsafeMutablePointer<ContactBatch>, _ solve: UnsafeMutablePointer<BatchSolve>,
                              count: Int, _ states: UnsafeMutablePointer<BodyState>,
                              softness: (contact: Softness, static: Softness), invH: Double,
                              warmedBy: UnsafePointer<Int32>, masses: BodyMasses) -> Bool {
        guard let pass = cWarmStartAndSolve else { return false }
        var constants = ContactKernel.constants(softness, invH: invH, useBias: true, masses: masses)
        pass(UnsafeMutablePointer(OpaquePointer(batches)), UnsafeMutablePointer(OpaquePointer(solve)), count,
             UnsafeMutablePointer(OpaquePointer(states)), &constants, warmedBy)
        return true
    }

    /// Runs one solve (`useBias`) or relax pass over `count` batches, last to first when
    /// `reversed`, with this kernel's C build and returns true; returns false, having done
    /// nothing, for the Swift kernel (the solver runs its own loop).
    func runPass(_ batches: UnsafeMutablePointer<ContactBatch>, _ solve: UnsafeMutablePointer<BatchSolve>, count: Int,
                 _ states: UnsafeMutablePointer<BodyState>, softness: (contact: Softness, static: Softness),
                 invH: Double, useBias: Bool, reversed: Bool = false, masses: BodyMasses) -> Bool {
        guard let pass = cPass else { return false }
        var constants = ContactKernel.constants(softness, invH: invH, useBias: useBias, reversed: reversed,
                                                masses: masses)
        // The C records mirror the Swift ones (`layoutMatches`); the memory is only read and
        // written through them inside the C pass.
        pass(UnsafeMutablePointer(OpaquePointer(batches)), UnsafeMutablePointer(OpaquePointer(solve)), count,
             UnsafeMutablePointer(OpaquePointer(states)), &constants)
        return true
    }
}
