/// The order in which the solver visits contacts, packed into SIMD batches without changing a
/// single bit of the sequential Gauss-Seidel solve.
///
/// Contacts are solved one after another in contact order; what matters for the result is, for
/// each movable body, the order of the contacts that write it. Each contact goes to the first
/// batch after the last batch holding a contact of either of its movable bodies, so every body
/// still sees its contacts in contact order, and the lanes of a batch write disjoint bodies
/// (static and anchored bodies are only read). The pyramid's sweep from the bottom row up keeps
/// about three independent contacts in flight, which is what the batches solve side by side.
/// Unlike graph colouring (Box2D v3) the order of impulses per body, and therefore the way
/// support propagates through a tall stack within one pass, is unchanged.
struct ContactSchedule {
    /// Contact indices batch after batch, `width` slots per batch; -1 marks an unused lane.
    private(set) var slots: [Int32] = []
    /// The inverse of `slots`: each contact's slot.
    private(set) var slotOfContact: [Int32] = []
    private var lastBatch: [Int32] = []
    private var fill: [Int32] = []
    /// Union-find links to the next batch that may still have a free lane.
    private var nextOpen: [Int32] = []

    /// Schedules `contacts` into batches of `width` lanes; `masses` holds each body's inverse
    /// mass (x) and inverse inertia (y).
    mutating func build(contacts: UnsafeBufferPointer<ContactConstraint>, masses: [SIMD2<Double>], width: Int) {
        let bodyCount = masses.count
        if lastBatch.count < bodyCount { lastBatch = Array(repeating: -1, count: bodyCount) }
        fill.removeAll(keepingCapacity: true)
        nextOpen.removeAll(keepingCapacity: true)
        slotOfContact.removeAll(keepingCapacity: true)
        // The last batch of each body, held in a local array while `openBatch` mutates self.
        var lastOfBody: [Int32] = []
        swap(&lastOfBody, &lastBatch)
        masses.withUnsafeBufferPointer { masses in
            lastOfBody.withUnsafeMutableBufferPointer { last in
                for i in 0..<bodyCount { last[i] = -1 }
                for k in 0..<contacts.count {
                    let a = contacts[k].a, b = contacts[k].b
                    let movableA = masses[a].x > 0, movableB = masses[b].x > 0
                    let after = max(movableA ? last[a] : -1, movableB ? last[b] : -1)
                    let batch = openBatch(from: Int(after) + 1, width: width)
                    slotOfContact.append(Int32(batch * width) + fill[batch])
                    fill[batch] += 1
                    if movableA { last[a] = Int32(batch) }
                    if movableB { last[b] = Int32(batch) }
                }
            }
        }
        swap(&lastOfBody, &lastBatch)
        slots.removeAll(keepingCapacity: true)
        slots.append(contentsOf: repeatElement(-1, count: fill.count * width))
        slots.withUnsafeMutableBufferPointer { out in
            for k in 0..<slotOfContact.count { out[Int(slotOfContact[k])] = Int32(k) }
        }
    }

    /// The first batch at or after `start` with a free lane (a new one at the end if none).
    private mutating func openBatch(from start: Int, width: Int) -> Int {
        var t = start
        // Follow the links past full batches, halving the path as we go.
        while t < nextOpen.count && Int(fill[t]) == width {
            let next = Int(nextOpen[t])
            if next < nextOpen.count && Int(fill[next]) == width { nextOpen[t] = nextOpen[next] }
            t = next
        }
        if t >= fill.count {
            t = fill.count
            fill.append(0)
            nextOpen.append(Int32(t + 1))
        }
        return t
    }
}
