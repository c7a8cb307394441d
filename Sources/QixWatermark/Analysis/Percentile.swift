/// Order statistics without a full sort: the detector takes a noise-floor percentile of
/// every band over thousands of hops per search, where sorting was 2 % of `detect`.
enum Percentile {
    /// The value of rank `Int(count x fraction)` (clamped to the last) of `values`, as
    /// `values.sorted()[rank]` would give it; reorders `values`. 0 for an empty array.
    static func value(_ values: inout [Float], at fraction: Double) -> Float {
        guard !values.isEmpty else { return 0 }
        let rank = min(values.count - 1, max(0, Int(Double(values.count) * fraction)))
        return values.withUnsafeMutableBufferPointer { v in
            // Quickselect (Hoare partition, median-of-three pivot): linear on average,
            // deterministic for the same input.
            var low = 0, high = v.count - 1
            while low < high {
                let middle = low + (high - low) / 2
                let a = v[low], b = v[middle], c = v[high]
                let pivot = max(min(a, b), min(max(a, b), c))
                var i = low, j = high
                while i <= j {
                    while v[i] < pivot { i += 1 }
                    while v[j] > pivot { j -= 1 }
                    if i <= j {
                        v.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if rank <= j { high = j } else if rank >= i { low = i } else { break }
            }
            return v[rank]
        }
    }
}
