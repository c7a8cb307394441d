/// The order in which the solver visits contacts, packed into SIMD batches without changing a
/// single bit of the sequential Gauss-Seidel solve in that order.
///
/// Contacts are solved one after another in an order; what matters for the result is, for
/// each movable body, the order of the contacts that write it. Each contact goes to the first
/// batch after the last batch holding a contact of either of its movable bodies, so every body
/// still sees its contacts in that order, and the lanes of a batch write disjoint bodies
/// (static and anchored bodies are only read). The order is contact order, whose sweep of a
/// pyramid from the bottom row up carries its load up within one pass and keeps about four
/// independent contacts in flight (3 829 batches for 14 953 contacts at base 100). Where
/// contact order leaves more than a tenth of the lanes empty, because chains of contacts
/// through shared bodies are long for the contact count (a base-10 pyramid: 148 contacts, a
/// chain of 65), the order is a graph colouring's (`ContactSchedule+Colouring.swift`) if that
/// packs into fewer batches. Large scenes keep contact order: coloured (Box2D v3's order) the
/// base-100 pyramid never came to rest, its boxes rising and falling together at 3 Hz, 50
/// points/s after 16 s.
struct ContactSchedule {
    /// Contact indices batch after batch, `width` slots per batch; -1 marks an unused lane.
    private(set) var slots: [Int32] = []
    /// The inverse of `slots`: each contact's slot (set by the packing, here or by heights).
    var slotOfContact: [Int32] = []
    private var lastBatch: [Int32] = []
    private var fill: [Int32] = []
    /// Union-find links to the next batch that may still have a free lane.
    private var nextOpen: [Int32] = []
    /// What the current schedule was built from: the contacts' pair keys (their version, as
    /// `World.contactKeysVersion` counts changes: no copy of the keys), which bodies move, and
    /// the lane count. The schedule is a function of exactly these, so when a step has the same
    /// contacts in the same order and the same movable bodies it is kept.
    private var builtKeysVersion = -1
    private var builtMovable: [Bool] = []
    private var builtWidth = 0
    /// How many times the schedule was built (not kept): what is derived from it alone (the
    /// warm start's reach) is rebuilt only when this changes.
    private(set) var buildCount = 0

    /// Schedules `contacts` (pair keys `keys`, of version `keysVersion`) into batches of `width`
    /// lanes; `masses` holds each body's inverse mass (x) and inverse inertia (y).
    mutating func build(contacts: UnsafeBufferPointer<ContactConstraint>, keys: UnsafeBufferPointer<UInt64>,
                        keysVersion: Int?, masses: UnsafeBufferPointer<SIMD2<Double>>, width: Int) {
        let bodyCount = masses.count, contactCount = contacts.count
        // Without a key per contact (or their version) nothing is recorded, and the schedule is not kept.
        let recorded = keys.count == contactCount ? keysVersion : nil
        if let recorded, isBuilt(forVersion: recorded, masses: masses, width: width) { return }
        buildCount &+= 1
        if lastBatch.count < bodyCount { lastBatch = Array(repeating: -1, count: bodyCount) }
        // At most one batch per contact: size the work arrays once, then use them through pointers.
        fill.setCount(contactCount + 1, filler: 0)
        nextOpen.setCount(contactCount + 1, filler: 0)
        slotOfContact.setCount(contactCount, filler: 0)
        let keyed = keys.count == contactCount
        var batchCount = packFirstFit(contacts: contacts, keys: keyed ? keys : nil, order: nil, masses: masses,
                                      width: width)
        batchCount = repackIfShorter(batchCount: batchCount, width: width, contacts: contacts, keys: keys,
                                     masses: masses)
        // More than a tenth of the lanes empty: the chains through shared bodies bound the
        // packing, and colouring may cut them (base 10: 65 -> 38 batches; base 100 fills 97.6 %).
        if contactCount * 10 < batchCount * width * 9 {
            batchCount = colourIfShorter(batchCount: batchCount, contacts: contacts, keys: keyed ? keys : nil,
                                         masses: masses, width: width)
        }
        builtWidth = recorded != nil ? width : 0
        // The packing's work arrays are only read here: released, they add nothing to the step.
        fill = []
        nextOpen = []
        slots.setCount(batchCount * width, filler: -1)
        slots.withUnsafeMutableBufferPointer { out in
            for i in 0..<out.count { out[i] = -1 }
            for k in 0..<contactCount { out[Int(slotOfContact[k])] = Int32(k) }
        }
    }
}

extension ContactSchedule {
    /// Packs the contacts in colour order (`colourOrder`) and keeps that packing if it takes
    /// fewer batches than `batchCount`, the contact-order packing in `slotOfContact`; returns
    /// the batch count kept.
    private mutating func colourIfShorter(batchCount: Int, contacts: UnsafeBufferPointer<ContactConstraint>,
                                          keys: UnsafeBufferPointer<UInt64>?, masses: UnsafeBufferPointer<SIMD2<Double>>,
                                          width: Int) -> Int {
        let sequential = slotOfContact
        var colours = [UInt8](repeating: 0, count: contacts.count)
        var order = [Int32](repeating: 0, count: contacts.count)
        lastBatch.withUnsafeMutableBufferPointer { last in
            order.withUnsafeMutableBufferPointer { ord in
                colours.withUnsafeMutableBufferPointer { c in
                    Self.colourOrder(contacts: contacts, keys: keys, masses: masses, masks: last, colours: c, order: ord)
                }
            }
        }
        let colouredCount = order.withUnsafeBufferPointer {
            packFirstFit(contacts: contacts, keys: keys, order: $0, masses: masses, width: width)
        }
        if colouredCount < batchCount { return colouredCount }
        slotOfContact = sequential
        return batchCount
    }
}

extension ContactSchedule {
    /// The two bodies contact `k` joins: from its pair key (`keys[k] >> 32` and
    /// `keys[k] & 0xFFFF_FFFF`) when there are keys, which are compact, else from its record.
    @inline(__always)
    static func bodies(of k: Int, contacts: UnsafeBufferPointer<ContactConstraint>,
                       keys: UnsafeBufferPointer<UInt64>?) -> (Int, Int) {
        if let keys { return (Int(keys[k] >> 32), Int(keys[k] & 0xFFFF_FFFF)) }
        return (contacts[k].a, contacts[k].b)
    }

    /// First fit in `order` (contact order when nil): each contact goes to the first batch with
    /// a free lane after the last batch holding either of its movable bodies, so every body sees
    /// its contacts in that order, and the lanes of a batch write disjoint bodies. Sets
    /// `slotOfContact`; returns the batch count.
    private mutating func packFirstFit(contacts: UnsafeBufferPointer<ContactConstraint>,
                                       keys: UnsafeBufferPointer<UInt64>?, order: UnsafeBufferPointer<Int32>?,
                                       masses: UnsafeBufferPointer<SIMD2<Double>>, width: Int) -> Int {
        var batchCount = 0
        let bodyCount = masses.count
        lastBatch.withUnsafeMutableBufferPointer { last in
            fill.withUnsafeMutableBufferPointer { fill in
                nextOpen.withUnsafeMutableBufferPointer { next in
                    slotOfContact.withUnsafeMutableBufferPointer { slotOf in
                        for i in 0..<bodyCount { last[i] = -1 }
                        @inline(__always) func place(_ k: Int) {
                            let (a, b) = Self.bodies(of: k, contacts: contacts, keys: keys)
                            let movableA = masses[a].x > 0, movableB = masses[b].x > 0
                            let after = max(movableA ? last[a] : -1, movableB ? last[b] : -1)
                            // The first batch from `after + 1` with a free lane: follow the links
                            // past full batches, halving the path as we go.
                            var t = Int(after) + 1
                            while t < batchCount && Int(fill[t]) == width {
                                let n = Int(next[t])
                                if n < batchCount && Int(fill[n]) == width { next[t] = next[n] }
                                t = n
                            }
                            if t >= batchCount {
                                t = batchCount
                                fill[t] = 0
                                next[t] = Int32(t + 1)
                                batchCount += 1
                            }
                            slotOf[k] = Int32(t * width) + fill[t]
                            fill[t] += 1
                            if movableA { last[a] = Int32(t) }
                            if movableB { last[b] = Int32(t) }
                        }
                        if let order {
                            for i in 0..<order.count { place(Int(order[i])) }
                        } else {
                            for k in 0..<contacts.count { place(k) }
                        }
                    }
                }
            }
        }
        return batchCount
    }
}

extension ContactSchedule {
    /// Whether the schedule was built for contact keys of this version and these movable
    /// bodies; if not, records them for the build that follows.
    private mutating func isBuilt(forVersion version: Int, masses: UnsafeBufferPointer<SIMD2<Double>>,
                                  width: Int) -> Bool {
        var same = width == builtWidth && builtKeysVersion == version && builtMovable.count == masses.count
        builtKeysVersion = version
        builtMovable.setCount(masses.count, filler: false)
        builtMovable.withUnsafeMutableBufferPointer { built in
            for i in 0..<masses.count where built[i] != (masses[i].x > 0) {
                same = false
                built[i] = masses[i].x > 0
            }
        }
        if !same { builtWidth = 0 }
        return same
    }
}
