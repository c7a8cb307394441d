internal import CContactKernel

/// The sub-step's integration of the moving bodies in C (`qix_integrate_velocities`,
/// `qix_integrate_positions`, Sources/CContactKernel/include/BodyIntegration.h): the operations
/// of `World.integrateVelocities` and `World.integratePositions` in the same order, four bodies
/// at a time in lanes, so the same bits. The Swift loops stay the reference (and run with the
/// Swift contact kernel, so the tests that compare kernels compare these too).
enum BodyIntegration {
    /// Whether `BodyMotion` is laid out as the C code reads it (`BodyState` is checked by
    /// `ContactKernel.layoutMatches`).
    private static let layoutMatches: Bool = {
        let offsets: [(Int?, Int?)] = [
            (MemoryLayout.offset(of: \BodyMotion.body), MemoryLayout.offset(of: \QixBodyMotion.body)),
            (MemoryLayout.offset(of: \BodyMotion.material), MemoryLayout.offset(of: \QixBodyMotion.material)),
            (MemoryLayout.offset(of: \BodyMotion.dv), MemoryLayout.offset(of: \QixBodyMotion.dvx)),
            (MemoryLayout.offset(of: \BodyMotion.dw), MemoryLayout.offset(of: \QixBodyMotion.dw)),
        ]
        return ContactKernel.layoutMatches && MemoryLayout<BodyMotion>.stride == MemoryLayout<QixBodyMotion>.stride
            && MemoryLayout<SIMD2<Double>>.stride == 16 && offsets.allSatisfy { $0.0 != nil && $0.0 == $0.1 }
    }()

    /// Velocity integration in `kernel`'s C build, or nil for the Swift kernel (or unmatched records).
    static func velocities(for kernel: ContactKernel) -> QixIntegrateVelocitiesFunction? {
        guard layoutMatches else { return nil }
        return kernel.build(portable: qix_integrate_velocities_portable, avx2: qix_integrate_velocities_avx2)
    }

    /// Position integration in `kernel`'s C build, or nil for the Swift kernel (or unmatched records).
    static func positions(for kernel: ContactKernel) -> QixIntegratePositionsFunction? {
        guard layoutMatches else { return nil }
        return kernel.build(portable: qix_integrate_positions_portable, avx2: qix_integrate_positions_avx2)
    }

    /// Runs `function` on `motions`, `factors` and `states` as the C code's records; returns how
    /// many bodies passed the speed limit (their positions in `motions` are in `over`).
    static func integrateVelocities(
        _ function: QixIntegrateVelocitiesFunction, _ motions: UnsafeBufferPointer<BodyMotion>,
        factors: UnsafePointer<SIMD2<Double>>, _ states: UnsafeMutablePointer<BodyState>, maxSpeedSquared: Double,
        maxAngularSpeed: Double, over: UnsafeMutablePointer<Int32>
    ) -> Int {
        guard let m = motions.baseAddress else { return 0 }
        return function(UnsafeRawPointer(m).assumingMemoryBound(to: QixBodyMotion.self), motions.count,
                        UnsafeRawPointer(factors).assumingMemoryBound(to: Double.self),
                        UnsafeMutableRawPointer(states).assumingMemoryBound(to: QixBodyState.self), maxSpeedSquared,
                        maxAngularSpeed, over)
    }

    /// Runs `function` on `motions` and `states` as the C code's records, sub-step `h`.
    static func integratePositions(_ function: QixIntegratePositionsFunction,
                                   _ motions: UnsafeBufferPointer<BodyMotion>, _ states: UnsafeMutablePointer<BodyState>,
                                   h: Double) {
        guard let m = motions.baseAddress else { return }
        function(UnsafeRawPointer(m).assumingMemoryBound(to: QixBodyMotion.self), motions.count,
                 UnsafeMutableRawPointer(states).assumingMemoryBound(to: QixBodyState.self), h)
    }
}
