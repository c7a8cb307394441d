/// Sorting of contact pair keys (`first body << 32 | second body`) as the world lists them:
/// contacts come in broad-phase order, ascending by first body with a few keys out of order
/// within each body's group, followed by the boundary contacts (again ascending by first body),
/// and a frame repeats this once per step. Such a list is a handful of runs of non-decreasing
/// first body: each run is put in order by insertion (short moves), then the runs are merged.
/// The result is the ascending order, as `sort()` gives (keys are plain integers, so any
/// correct sort gives the same array); unexpected shapes fall back to `sort()`.
enum PairKeySort {
    /// Runs beyond this count, or insertion moves beyond `moveBudget` per key, mean the list
    /// is not shaped as expected: `sort()` is used instead.
    static let maximumRuns = 32
    static let moveBudget = 8
    /// Lists this short are left to `sort()` (no scratch arrays to allocate).
    static let shortList = 64

    /// Sorts `keys` ascending.
    static func sort(_ keys: inout [UInt64]) {
        let n = keys.count
        if n < 2 { return }
        if n <= shortList {
            keys.sort()
            return
        }
        var starts: [Int] = [0]
        let sorted = keys.withUnsafeMutableBufferPointer { k in
            findRuns(k, starts: &starts) && sortWithinRuns(k, starts: starts)
        }
        if !sorted {
            keys.sort()
            return
        }
        if starts.count <= 2 { return }
        mergeRuns(&keys, starts: starts)
    }

    /// Appends to `starts` where each run of non-decreasing first body begins, then the end;
    /// false (the list is not shaped as expected) past `maximumRuns`.
    private static func findRuns(_ k: UnsafeMutableBufferPointer<UInt64>, starts: inout [Int]) -> Bool {
        let n = k.count
        for i in 1..<n where k[i] >> 32 < k[i - 1] >> 32 {
            starts.append(i)
            if starts.count > maximumRuns { return false }
        }
        starts.append(n)
        return true
    }

    /// Insertion within each run: keys only move within their first body's group. False (left
    /// partly sorted) when the moves exceed `moveBudget` per key.
    private static func sortWithinRuns(_ k: UnsafeMutableBufferPointer<UInt64>, starts: [Int]) -> Bool {
        var moves = 0
        let budget = moveBudget * k.count
        for r in 0..<(starts.count - 1) {
            let s = starts[r], e = starts[r + 1]
            var i = s + 1
            while i < e {
                let x = k[i]
                var j = i
                while j > s && k[j - 1] > x {
                    k[j] = k[j - 1]
                    j -= 1
                }
                moves += i - j
                k[j] = x
                if moves > budget { return false }
                i += 1
            }
        }
        return true
    }

    /// Merges neighbouring sorted runs (starting at `starts`, then the end) until one is left,
    /// ping-ponging between the keys and a scratch copy.
    private static func mergeRuns(_ keys: inout [UInt64], starts runStarts: [Int]) {
        var starts = runStarts
        var source = keys
        var target = [UInt64](repeating: 0, count: keys.count)
        while starts.count > 2 {
            var merged: [Int] = [0]
            source.withUnsafeBufferPointer { src in
                target.withUnsafeMutableBufferPointer { dst in
                    var r = 0
                    while r + 1 < starts.count {
                        let s = starts[r], m = starts[r + 1]
                        let e = r + 2 < starts.count ? starts[r + 2] : starts[r + 1]
                        merge(UnsafeBufferPointer(rebasing: src[s..<m]), UnsafeBufferPointer(rebasing: src[m..<e]),
                              into: dst.baseAddress! + s)
                        merged.append(e)
                        r += 2
                    }
                }
            }
            starts = merged
            swap(&source, &target)
        }
        keys = source
    }

    /// Merges sorted `a` and sorted `b` into `out` (room for both), ties taken from `a` first.
    static func merge(_ a: UnsafeBufferPointer<UInt64>, _ b: UnsafeBufferPointer<UInt64>,
                      into out: UnsafeMutablePointer<UInt64>) {
        var i = 0, j = 0, o = 0
        while i < a.count && j < b.count {
            if b[j] < a[i] {
                out[o] = b[j]
                j += 1
            } else {
                out[o] = a[i]
                i += 1
            }
            o += 1
        }
        while i < a.count {
            out[o] = a[i]
            i += 1
            o += 1
        }
        while j < b.count {
            out[o] = b[j]
            j += 1
            o += 1
        }
    }
}
