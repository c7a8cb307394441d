internal import CContactKernel

/// The narrow phase's box-against-box manifolds in C (`Sources/CContactKernel/BoxManifoldKernel.h`):
/// `Collide.clipPolygons` specialised to two rectangles and run four pairs at a time in SIMD
/// lanes, the same operations in the same order per lane (so the same bits), built portable
/// and for AVX2 like the contact kernel. Most pairs of a box scene are two rectangles; the
/// Swift path stays the reference and handles every other shape.
struct BoxManifolds {
    /// The build that runs (`.swift`: none, every pair takes the Swift path). All give the
    /// same bits; tests switch it to compare them.
    var kernel = ContactKernel.preferred
    private var starts: [Int32] = []
    private var results: [QixBoxManifold] = []

    /// The C function of `kernel`, or nil for the Swift kernel (or if a `Vector2` is not the
    /// (x, y) pair of doubles the C code reads).
    private var function: QixBoxManifoldsFunction? {
        guard kernel.isAvailable, MemoryLayout<Vector2>.size == 16, MemoryLayout.offset(of: \Vector2.y) == 8 else {
            return nil
        }
        switch kernel {
        case .swift: return nil
        case .portable: return qix_box_manifolds_portable
        case .avx2: return qix_box_manifolds_avx2
        case .avx512: return qix_box_manifolds_avx512
        }
    }

    /// Runs `body` with room for `capacity` pairs of boxes placed at `vertices` and `normals`
    /// (the world's placed shapes), or with nil for the Swift kernel.
    mutating func withBatch<R>(capacity: Int, vertices: UnsafePointer<Vector2>, normals: UnsafePointer<Vector2>,
                               _ body: (Batch?) -> R) -> R {
        guard let function else { return body(nil) }
        starts.setCount(2 * capacity, filler: 0)
        results.setCount(capacity, filler: QixBoxManifold())
        return starts.withUnsafeMutableBufferPointer { sp in
            results.withUnsafeMutableBufferPointer { rp in
                body(Batch(function: function, starts: sp.baseAddress!, results: rp.baseAddress!,
                           vertices: UnsafePointer(OpaquePointer(vertices)), normals: UnsafePointer(OpaquePointer(normals))))
            }
        }
    }

    /// Scratch space for a run of pairs, valid inside `withBatch`: `setPair` the pairs, `run`,
    /// then read each pair's `manifold`.
    struct Batch {
        fileprivate let function: QixBoxManifoldsFunction
        fileprivate let starts: UnsafeMutablePointer<Int32>
        fileprivate let results: UnsafeMutablePointer<QixBoxManifold>
        fileprivate let vertices: UnsafePointer<Double>
        fileprivate let normals: UnsafePointer<Double>

        /// Sets pair `k` to the rectangles (`Collide.isBox`) starting at `startA` and `startB`.
        @inline(__always)
        func setPair(_ k: Int, _ startA: Int, _ startB: Int) {
            starts[2 * k] = Int32(truncatingIfNeeded: startA)
            starts[2 * k + 1] = Int32(truncatingIfNeeded: startB)
        }

        /// Sets the pairs of two rectangles among `range` of `pairs`, in order, from the bodies'
        /// colliders (in C: `BoxContacts.layoutMatches` must hold); returns how many.
        func setPairs(_ pairs: UnsafeBufferPointer<SIMD2<Int32>>, _ range: Range<Int>,
                      colliders: UnsafePointer<Collider>) -> Int {
            guard let base = pairs.baseAddress else { return 0 }
            let flat = UnsafeRawPointer(base).assumingMemoryBound(to: Int32.self)
            return qix_box_pair_starts(flat, range.lowerBound, range.upperBound,
                                       UnsafePointer(OpaquePointer(colliders)), starts)
        }

        /// Computes the manifolds of pairs `0..<count`.
        func run(count: Int) {
            function(vertices, normals, starts, count, PhysicsConstants.speculativeDistance,
                     0.1 * PhysicsConstants.linearSlop, results)
        }

        /// The C records of pairs `k...` (after `run`), for the C contact writer (`BoxContacts`).
        func records(from k: Int) -> UnsafePointer<QixBoxManifold> { UnsafePointer(results + k) }

        /// `Collide.clipPolygons` of pair `k` (after `run`).
        @inline(__always)
        func manifold(_ k: Int) -> Manifold {
            let r = results + k
            let count = Int(r.pointee.count)
            var m = Manifold()
            if count == 0 { return m }
            m.normal = Vector2(r.pointee.normalX, r.pointee.normalY)
            m.count = count
            m.p0 = ManifoldPoint(point: Vector2(r.pointee.x0, r.pointee.y0), separation: r.pointee.separation0,
                                 id: UInt32(truncatingIfNeeded: r.pointee.id0))
            if count > 1 {
                m.p1 = ManifoldPoint(point: Vector2(r.pointee.x1, r.pointee.y1), separation: r.pointee.separation1,
                                     id: UInt32(truncatingIfNeeded: r.pointee.id1))
            }
            return m
        }
    }
}
