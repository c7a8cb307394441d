extension Array {
    /// Sets the count to `n`, keeping the storage (no allocation once the array has been this
    /// large, however the contact count changes from step to step); callers overwrite the contents.
    mutating func setCount(_ n: Int, filler: Element) {
        if count > n {
            removeLast(count - n)
        } else if count < n {
            append(contentsOf: repeatElement(filler, count: n - count))
        }
    }
}

extension Array where Element: BitwiseCopyable {
    /// `setCount` for a caller that writes every element before it reads one: an empty array (one
    /// released at the end of the last step) is allocated at its size with its contents left
    /// unset, instead of filled first and then overwritten (three per-body arrays of the 5050-box
    /// pyramid's fill: 90 000 instructions a step).
    mutating func setCountUnset(_ n: Int, filler: Element) {
        if isEmpty && n > 0 {
            self = [Element](unsafeUninitializedCapacity: n) { _, count in count = n }
        } else {
            setCount(n, filler: filler)
        }
    }
}
