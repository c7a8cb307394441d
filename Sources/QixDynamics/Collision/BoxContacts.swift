internal import CContactKernel

/// The narrow phase's contact records for runs of box pairs in C (`qix_box_contacts`,
/// Sources/CContactKernel/include/BoxContacts.h): what `World.contact` does with the box lanes'
/// manifolds, with the same comparisons and copies, so the same records, keys, point ids and
/// touching bits. The Swift code spent some 260 instructions a pair on this bookkeeping (on the
/// base-20 pyramid, more than the manifolds themselves); it stays the reference, runs every
/// pair that is not two boxes, and finds the warm start's contacts the C code's first guess
/// misses.
struct BoxContacts {
    /// Last step's contacts in the C code's form (the shift is kept up to date by the caller).
    private var old: QixOldContacts
    /// Where the contacts go and how many there are so far.
    var output: QixNarrowOutput

    /// Whether the C records line up with the Swift ones they read and write in place
    /// (`Collider`; the contact and batch records are checked by `ContactKernel.layoutMatches`).
    static let layoutMatches: Bool = {
        let offsets: [(Int?, Int?)] = [
            (MemoryLayout.offset(of: \Collider.center), MemoryLayout.offset(of: \QixCollider.centerX)),
            (MemoryLayout.offset(of: \Collider.invMass), MemoryLayout.offset(of: \QixCollider.invMass)),
            (MemoryLayout.offset(of: \Collider.itemMask), MemoryLayout.offset(of: \QixCollider.itemMask)),
            (MemoryLayout.offset(of: \Collider.shapeStart), MemoryLayout.offset(of: \QixCollider.shapeStart)),
            (MemoryLayout.offset(of: \Collider.shapeCount), MemoryLayout.offset(of: \QixCollider.shapeCount)),
            (MemoryLayout.offset(of: \Collider.isBoundary), MemoryLayout.offset(of: \QixCollider.isBoundary)),
            (MemoryLayout.offset(of: \Collider.isRectangle), MemoryLayout.offset(of: \QixCollider.isRectangle)),
        ]
        return ContactKernel.layoutMatches && MemoryLayout<Collider>.stride == MemoryLayout<QixCollider>.stride
            && MemoryLayout<Bool>.size == 1 && MemoryLayout<SIMD4<UInt32>>.stride == 16
            && offsets.allSatisfy { $0.0 != nil && $0.0 == $0.1 }
    }()

    /// The C writer over last step's contacts `old` into `out`, or nil when the records do not
    /// line up.
    init?(old: World.OldContacts, into out: World.NarrowPhaseOutput) {
        guard BoxContacts.layoutMatches else { return nil }
        // Empty arrays have no address: the C code reads keys and ids only below their count.
        let ids = old.pointIDs.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt32.self) }
        self.old = QixOldContacts(
            keys: old.keys.baseAddress, count: old.keys.count, pointIDs: ids,
            batches: old.impulses.map { UnsafePointer(OpaquePointer($0.batches)) },
            slotOfContact: old.impulses?.slotOfContact, shift: old.shift, mayRepeat: old.keysMayRepeat ? 1 : 0,
            tableStart: nil, tableCount: 0, tableOrder: nil, tableSecond: nil)
        output = QixNarrowOutput(
            contacts: UnsafeMutablePointer(OpaquePointer(out.contacts)), keys: out.keys,
            pointIDs: UnsafeMutableRawPointer(out.pointIDs).assumingMemoryBound(to: UInt32.self),
            touching: out.touching, found: 0, touchingCount: 0, keysDiffer: 0)
    }

    /// Writes the contacts of pairs `range` while they are pairs of two boxes (their manifolds
    /// from `records` on), looking last step's contacts up as `lookup` does and leaving its
    /// shift where the C code left it; returns the first pair not written (not two boxes, or
    /// its last-step contact is not where the first guess looks and `lookup` has no table
    /// yet), or the range's end.
    mutating func write(_ pairs: UnsafeBufferPointer<SIMD2<Int32>>, _ range: Range<Int>,
                        colliders: UnsafePointer<Collider>, records: UnsafePointer<QixBoxManifold>,
                        lookup: inout World.OldContacts) -> Int {
        guard let base = pairs.baseAddress else { return range.lowerBound }
        lookup.prepareTableIfAlwaysUsed()
        old.shift = lookup.shift
        let flat = UnsafeRawPointer(base).assumingMemoryBound(to: Int32.self)
        let stop = lookup.withTable { start, count, order, second in
            old.tableStart = start
            old.tableCount = count
            old.tableOrder = order
            old.tableSecond = second
            defer { old.tableStart = nil }
            return qix_box_contacts(flat, range.lowerBound, range.upperBound,
                                    UnsafePointer(OpaquePointer(colliders)), records, &old, &output,
                                    PhysicsConstants.linearSlop)
        }
        lookup.shift = old.shift
        return stop
    }
}
