import Testing
@testable import QixDynamics

/// The contact schedule: batches whose lanes write disjoint movable bodies, each body's
/// contacts in the order of the solve, and the graph colouring where contact order leaves the
/// lanes part-empty.
@Suite struct ContactScheduleTests {
    /// Builds a schedule of four lanes for contacts joining `pairs` (body 0 static, the others
    /// movable unless listed in `anchored`); returns its slots.
    static func schedule(_ pairs: [(Int, Int)], bodyCount: Int, anchored: Set<Int> = []) -> [Int32] {
        let contacts = pairs.map { ContactConstraint(a: $0.0, b: $0.1) }
        let masses = (0..<bodyCount).map { $0 == 0 || anchored.contains($0) ? SIMD2<Double>.zero : SIMD2(1, 1) }
        var schedule = ContactSchedule()
        contacts.withUnsafeBufferPointer { cp in masses.withUnsafeBufferPointer { mp in
            schedule.build(contacts: cp, keys: UnsafeBufferPointer(start: nil, count: 0), keysVersion: nil, masses: mp,
                           width: 4)
        } }
        return schedule.slots
    }

    /// Every contact in exactly one lane, and no movable body twice in one batch.
    static func expectValid(_ slots: [Int32], _ pairs: [(Int, Int)], movable: (Int) -> Bool) {
        #expect(slots.filter { $0 >= 0 }.sorted() == (0..<Int32(pairs.count)).map { $0 })
        for n in 0..<slots.count / 4 {
            let bodies = slots[(n * 4)..<(n * 4 + 4)].filter { $0 >= 0 }
                .flatMap { [pairs[Int($0)].0, pairs[Int($0)].1] }.filter(movable)
            #expect(Set(bodies).count == bodies.count, "batch \(n) writes a body twice")
        }
    }

    /// The colour rule: the lowest free colour above the bodies' highest, else the lowest free,
    /// else (all 23 used) the overflow.
    @Test func colourRule() {
        #expect(ContactSchedule.colour(used: 0) == 0)
        #expect(ContactSchedule.colour(used: 0b101) == 3)
        #expect(ContactSchedule.colour(used: 1 << 22 | 0b1) == 1)
        #expect(ContactSchedule.colour(used: (1 << 23) - 1) == ContactSchedule.overflowColour)
    }

    /// Colours of `pairs` (no keys) and the order the packing takes them in.
    static func colourOrder(_ pairs: [(Int, Int)], bodyCount: Int) -> (colours: [UInt8], order: [Int32]) {
        let contacts = pairs.map { ContactConstraint(a: $0.0, b: $0.1) }
        let masses = (0..<bodyCount).map { $0 == 0 ? SIMD2<Double>.zero : SIMD2(1, 1) }
        var masks = [Int32](repeating: 7, count: bodyCount)
        var colours = [UInt8](repeating: 0, count: pairs.count)
        var order = [Int32](repeating: 0, count: pairs.count)
        contacts.withUnsafeBufferPointer { cp in masses.withUnsafeBufferPointer { mp in
            masks.withUnsafeMutableBufferPointer { m in colours.withUnsafeMutableBufferPointer { c in
                order.withUnsafeMutableBufferPointer { o in
                    ContactSchedule.colourOrder(contacts: cp, keys: nil, masses: mp, masks: m, colours: c, order: o)
                }
            } }
        } }
        return (colours, order)
    }

    /// A chain of 20 contacts (a tower on the static ground) takes colours 0...19 in contact
    /// order: the solve is contact order, bit for bit.
    @Test func shortChainsKeepContactOrder() {
        let pairs = (0..<20).map { ($0, $0 + 1) }
        let (colours, order) = Self.colourOrder(pairs, bodyCount: 21)
        #expect(colours == (0..<20).map { UInt8($0) })
        #expect(order == (0..<20).map { Int32($0) })
    }

    /// Contacts of one colour touch disjoint movable bodies (the static body 0 is shared); a
    /// body with more contacts than colours sends the rest to the overflow, which comes first.
    @Test func coloursAreDisjointAndTheOverflowComesFirst() {
        // Body 1 touches bodies 2...31 (30 contacts), then a chain 2-3, 3-4, ..., and bodies
        // 2...31 the ground.
        var pairs = (2...31).map { (1, $0) }
        pairs += (2..<31).map { ($0, $0 + 1) } + (2...31).map { (0, $0) }
        let (colours, order) = Self.colourOrder(pairs, bodyCount: 32)
        #expect(colours.filter { Int($0) == ContactSchedule.overflowColour }.count == 7)
        for c in 0..<ContactSchedule.overflowColour {
            let bodies = pairs.indices.filter { Int(colours[$0]) == c }.flatMap { [pairs[$0].0, pairs[$0].1] }.filter { $0 != 0 }
            #expect(Set(bodies).count == bodies.count, "colour \(c) writes a body twice")
        }
        // The overflow first, then colour by colour, each in contact order.
        let ranks = order.map { Int(colours[Int($0)]) == ContactSchedule.overflowColour ? -1 : Int(colours[Int($0)]) }
        #expect(ranks == ranks.sorted())
        #expect(order.count == pairs.count && Set(order).count == pairs.count)
        for i in 1..<order.count where ranks[i] == ranks[i - 1] { #expect(order[i] > order[i - 1]) }
    }

    /// A row of 40 boxes on the ground, each contact with its right neighbour before its
    /// ground contact: in contact order every contact shares a body with the one before, one
    /// chain of 79 batches for 79 contacts; coloured, the colours run up to 22 and start again,
    /// and it packs into fewer batches, every batch still writing disjoint bodies.
    @Test func longChainsAreColoured() {
        var pairs: [(Int, Int)] = [(0, 1)]
        for i in 1..<40 { pairs += [(i, i + 1), (0, i + 1)] }
        let slots = Self.schedule(pairs, bodyCount: 41)
        #expect(slots.count / 4 < 40)
        Self.expectValid(slots, pairs) { $0 != 0 }
    }

    /// A tower of 20 keeps the contact-order schedule: one contact a batch, bottom up.
    @Test func towerKeepsContactOrder() {
        let pairs = (0..<20).map { ($0, $0 + 1) }
        let slots = Self.schedule(pairs, bodyCount: 21)
        #expect(slots.count == 80)
        #expect((0..<20).allSatisfy { slots[$0 * 4] == Int32($0) })
    }

    /// Anchored bodies are only read: contacts sharing one may share a batch.
    @Test func anchoredBodiesDoNotCount() {
        let pairs = [(5, 1), (5, 2), (5, 3), (5, 4)]
        let slots = Self.schedule(pairs, bodyCount: 6, anchored: [5])
        #expect(slots == [0, 1, 2, 3])
    }
}
