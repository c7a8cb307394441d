/// Graph colouring in the style of Box2D v3's constraint graph, for scenes whose contacts in
/// contact order leave the lanes part-empty (the base-10 pyramid: 148 contacts in 65 batches,
/// because 65 is its longest chain of contacts through shared movable bodies).
///
/// Each contact takes a colour in which neither of its movable bodies is used yet (static and
/// anchored bodies do not count), so the contacts of one colour touch disjoint movable bodies;
/// there are 23 colours, and a contact for which none is free goes to the overflow. The
/// contacts are then packed colour after colour (the overflow first, as Box2D solves it first)
/// by the first-fit packing, which keeps each body's contacts in that order: the result is the
/// sequential solve in colour order, and the base-10 pyramid takes 38 batches.
///
/// Unlike Box2D, which takes the lowest free colour, a contact takes the lowest free colour
/// above every colour its bodies already have, and only when there is none the lowest free
/// one. A body's contacts thus keep contact order while the colours last, and where no chain
/// of contacts is longer than 23 (the 20-box tower, stacked cards) the order is contact order
/// exactly, bit for bit. Contact order is what carries a stack's load up within one sweep:
/// with the lowest free colour the same tower paused 0.7 s later (frame 98 against 57).
extension ContactSchedule {
    /// Box2D v3's `B2_GRAPH_COLOR_COUNT`: 23 colours and the overflow.
    static let colourCount = 24
    /// The overflow colour's index: its contacts share bodies freely.
    static let overflowColour = 23

    /// Colours the contacts (joining `keys[k] >> 32` and `keys[k] & 0xFFFF_FFFF`, or without
    /// keys `contacts[k].a` and `.b`; a body moves when `masses[i].x > 0`), with the movable
    /// bodies' colours as bit masks in `masks` (any contents on entry) and each contact's colour
    /// written to `colours`, and writes in `order` the contacts overflow first, then colour by
    /// colour, each colour in contact order.
    static func colourOrder(contacts: UnsafeBufferPointer<ContactConstraint>, keys: UnsafeBufferPointer<UInt64>?,
                            masses: UnsafeBufferPointer<SIMD2<Double>>, masks: UnsafeMutableBufferPointer<Int32>,
                            colours: UnsafeMutableBufferPointer<UInt8>, order: UnsafeMutableBufferPointer<Int32>) {
        for i in 0..<masks.count { masks[i] = 0 }
        for k in 0..<contacts.count {
            let (a, b) = bodies(of: k, contacts: contacts, keys: keys)
            let movableA = masses[a].x > 0, movableB = masses[b].x > 0
            let maskA = movableA ? UInt32(bitPattern: masks[a]) : 0
            let maskB = movableB ? UInt32(bitPattern: masks[b]) : 0
            let c = colour(used: maskA | maskB)
            if c != overflowColour {
                if movableA { masks[a] = Int32(bitPattern: maskA | 1 << UInt32(c)) }
                if movableB { masks[b] = Int32(bitPattern: maskB | 1 << UInt32(c)) }
            }
            colours[k] = UInt8(c)
        }
        sortByColour(colours: UnsafeBufferPointer(colours), order: order)
    }

    /// The colour for a contact whose movable bodies have the colours in `used`: the lowest
    /// free colour above the highest used one, else the lowest free one, else the overflow.
    @inline(__always)
    static func colour(used: UInt32) -> Int {
        let all: UInt32 = (1 << UInt32(overflowColour)) - 1
        let free = ~used & all
        let above = ~((UInt32(1) << UInt32(32 - used.leadingZeroBitCount)) &- 1) & all
        if free & above != 0 { return (free & above).trailingZeroBitCount }
        return free == 0 ? overflowColour : free.trailingZeroBitCount
    }

    /// Writes in `order` the contacts by the rank of their colour (the overflow first), each
    /// colour in contact order: a counting sort.
    private static func sortByColour(colours: UnsafeBufferPointer<UInt8>, order: UnsafeMutableBufferPointer<Int32>) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: colourCount + 1) { counts in
            for c in 0...colourCount { counts[c] = 0 }
            for k in 0..<colours.count { counts[rank(Int(colours[k])) + 1] += 1 }
            for r in 0..<colourCount { counts[r + 1] += counts[r] }
            for k in 0..<colours.count {
                let r = rank(Int(colours[k]))
                order[counts[r]] = Int32(k)
                counts[r] += 1
            }
        }
    }

    /// The position of colour `c` in the solve order: the overflow first.
    @inline(__always)
    private static func rank(_ c: Int) -> Int { c == overflowColour ? 0 : c + 1 }
}
