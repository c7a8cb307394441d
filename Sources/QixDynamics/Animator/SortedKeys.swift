/// Set operations on sorted arrays of pair keys for the contact events, each one linear walk
/// through pointers (a settling pile sorts and merges some 30 000 keys a frame). A result is
/// counted before it is written, so it is allocated at its size: the first frame of a large pile
/// unites two steps of 15 000 keys each, and room for both (240 kB on the 5050-box pyramid) was
/// part of that frame's peak.
enum SortedKeys {
    /// The keys of sorted `a` or sorted `b`, sorted and without repeats, leaving out those of
    /// sorted `minus`.
    static func union(_ a: [UInt64], _ b: [UInt64], minus: [UInt64] = []) -> [UInt64] {
        // One side empty and nothing left out: the other side itself when it has no repeats
        // (a frame's first step's keys: 30 000 keys walked twice a frame on the base-100 pyramid).
        if minus.isEmpty && a.isEmpty && isStrictlyIncreasing(b) { return b }
        if minus.isEmpty && b.isEmpty && isStrictlyIncreasing(a) { return a }
        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in minus.withUnsafeBufferPointer { minus in
            var size = 0
            walkUnion(a, b, minus) { _ in size += 1 }
            return [UInt64](unsafeUninitializedCapacity: size) { out, count in
                var n = 0
                walkUnion(a, b, minus) { key in
                    out[n] = key
                    n += 1
                }
                count = n
            }
        } } }
    }

    /// Whether each key of `keys` is above the one before (sorted, no repeats).
    private static func isStrictlyIncreasing(_ keys: [UInt64]) -> Bool {
        keys.withUnsafeBufferPointer { k in
            for i in k.indices.dropFirst() where k[i] <= k[i - 1] { return false }
            return true
        }
    }

    /// A frame's touching changes from sorted key lists (repeats allowed): `began`, the keys of
    /// `earlier` or `last` not in `previous`; `ended`, the keys of `previous` or `earlier` not
    /// in `last`; each ascending and once. One walk over the three lists; the results, small
    /// in most frames, grow as they are appended to.
    static func changes(previous: [UInt64], earlier: [UInt64], last: [UInt64]) -> (began: [UInt64], ended: [UInt64]) {
        var began: [UInt64] = [], ended: [UInt64] = []
        previous.withUnsafeBufferPointer { p in earlier.withUnsafeBufferPointer { e in last.withUnsafeBufferPointer { l in
            var i = 0, j = 0, k = 0
            while i < p.count || j < e.count || k < l.count {
                // Most keys touched before the frame and at its end: the smallest key is then at the
                // head of both lists (and of `earlier` if there at all), neither began nor ended,
                // and its copies are passed over without the general case's three comparisons
                // for the smallest key and three flags (about half the walk's instructions).
                if i < p.count && k < l.count && p[i] == l[k] && (j >= e.count || e[j] >= p[i]) {
                    let key = p[i]
                    repeat { i += 1 } while i < p.count && p[i] == key
                    repeat { k += 1 } while k < l.count && l[k] == key
                    while j < e.count && e[j] == key { j += 1 }
                    continue
                }
                // The smallest key left in any list (keys are below 2^63: a first body below 2^31).
                var key = UInt64.max
                if i < p.count { key = p[i] }
                if j < e.count && e[j] < key { key = e[j] }
                if k < l.count && l[k] < key { key = l[k] }
                var inPrevious = false, inEarlier = false, inLast = false
                while i < p.count && p[i] == key { inPrevious = true; i += 1 }
                while j < e.count && e[j] == key { inEarlier = true; j += 1 }
                while k < l.count && l[k] == key { inLast = true; k += 1 }
                if (inEarlier || inLast) && !inPrevious { began.append(key) }
                if (inPrevious || inEarlier) && !inLast { ended.append(key) }
            }
        } } }
        return (began, ended)
    }

    /// Calls `body` with each key of the union of `a` and `b` not in `minus`, ascending, once.
    @inline(__always)
    private static func walkUnion(_ a: UnsafeBufferPointer<UInt64>, _ b: UnsafeBufferPointer<UInt64>,
                                  _ minus: UnsafeBufferPointer<UInt64>, _ body: (UInt64) -> Void) {
        var i = 0, j = 0, m = 0
        var last: UInt64? = nil
        while i < a.count || j < b.count {
            let key: UInt64
            if j >= b.count || (i < a.count && a[i] <= b[j]) {
                key = a[i]
                i += 1
            } else {
                key = b[j]
                j += 1
            }
            if key == last { continue }
            last = key
            while m < minus.count && minus[m] < key { m += 1 }
            if m < minus.count && minus[m] == key { continue }
            body(key)
        }
    }
}
