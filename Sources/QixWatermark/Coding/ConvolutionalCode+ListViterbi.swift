extension ConvolutionalCode {
    /// The `size` most likely information sequences, best first: the parallel list Viterbi
    /// decoder, where every state keeps its `size` best paths, so the list holds the true
    /// runners-up rather than single detours from the best path. For a caller whose keyed
    /// check tells the right entry (each entry checked is one more chance for noise to pass).
    /// Non-finite soft values count as erasures. With `size` 1 it is `decode`.
    public func listDecode(_ soft: [Float], size: Int) -> [[UInt8]] {
        precondition(soft.count == codedBits, "wrong soft block length")
        let list = min(max(1, size), 256)
        let (back, paths) = listForwardPass(soft, list: list)
        // Every path ends in state 0 after the tail.
        return (0..<paths).map { rank in listTraceback(back, rank: rank, list: list) }
    }

    /// The list Viterbi recursion: per step and target state, the merge of its two
    /// predecessors' lists. Returns the back pointers, `back[(step * states + state) * list
    /// + rank]` = predecessor state << 8 | its rank, and how many paths end in state 0.
    private func listForwardPass(_ soft: [Float], list: Int) -> (back: [UInt16], paths: Int) {
        let states = Self.stateCount, steps = inputBits + Self.constraintLength - 1
        let minusInfinity = -Float.greatestFiniteMagnitude
        // metric[state * list + rank], best first within a state; count[state] paths held.
        var metric = [Float](repeating: minusInfinity, count: states * list)
        var next = metric
        var count = [Int](repeating: 0, count: states), nextCount = count
        metric[0] = 0
        count[0] = 1
        var back = [UInt16](repeating: 0, count: steps * states * list)
        let branch = Self.branchOutputs
        for step in 0..<steps {
            let patternMetric = patternMetrics(soft, step: step)
            // The zero tail: no input 1 after the information bits.
            let targets = step >= inputBits ? states / 2 : states
            metric.withUnsafeBufferPointer { metric in
                next.withUnsafeMutableBufferPointer { next in
                    back.withUnsafeMutableBufferPointer { back in
                        for target in 0..<targets {
                            let first = (target << 1) & (states - 1), second = first | 1
                            nextCount[target] = Self.mergeLists(
                                metric.baseAddress! + first * list, count[first], patternMetric[branch[target * 2]],
                                metric.baseAddress! + second * list, count[second], patternMetric[branch[target * 2 + 1]],
                                from: (first, second), list: list, into: next.baseAddress! + target * list,
                                back: back.baseAddress! + (step * states + target) * list)
                        }
                    }
                }
            }
            for target in targets..<states { nextCount[target] = 0 }
            swap(&metric, &next)
            swap(&count, &nextCount)
        }
        return (back, count[0])
    }

    /// The signed sum of step `step`'s three soft values for each output pattern (bit 2 =
    /// first output); a non-finite value counts as an erasure (0).
    private func patternMetrics(_ soft: [Float], step: Int) -> [Float] {
        var values = (soft[3 * step], soft[3 * step + 1], soft[3 * step + 2])
        if !values.0.isFinite { values.0 = 0 }
        if !values.1.isFinite { values.1 = 0 }
        if !values.2.isFinite { values.2 = 0 }
        return (0..<8).map { pattern -> Float in
            (pattern & 4 != 0 ? values.0 : -values.0) + (pattern & 2 != 0 ? values.1 : -values.1)
                + (pattern & 1 != 0 ? values.2 : -values.2)
        }
    }

    /// Merges two predecessors' sorted lists (`c0` and `c1` paths, each path plus its
    /// branch metric `m0` or `m1`) into the `list` best, with their back pointers; returns
    /// how many were written.
    @inline(__always)
    private static func mergeLists(_ from0: UnsafePointer<Float>, _ c0: Int, _ m0: Float,
                                   _ from1: UnsafePointer<Float>, _ c1: Int, _ m1: Float,
                                   from states: (Int, Int), list: Int, into out: UnsafeMutablePointer<Float>,
                                   back backOut: UnsafeMutablePointer<UInt16>) -> Int {
        var i = 0, j = 0, k = 0
        while k < list && (i < c0 || j < c1) {
            // Ties go to the lower predecessor, as in `decode`.
            if i < c0 && (j >= c1 || from0[i] + m0 >= from1[j] + m1) {
                out[k] = from0[i] + m0
                backOut[k] = UInt16(truncatingIfNeeded: states.0 << 8 | i)
                i += 1
            } else {
                out[k] = from1[j] + m1
                backOut[k] = UInt16(truncatingIfNeeded: states.1 << 8 | j)
                j += 1
            }
            k += 1
        }
        return k
    }

    /// The information bits of the path of rank `rank` ending in state 0, followed back.
    private func listTraceback(_ back: [UInt16], rank: Int, list: Int) -> [UInt8] {
        let states = Self.stateCount, steps = inputBits + Self.constraintLength - 1
        var bits = [UInt8](repeating: 0, count: inputBits)
        var state = 0, r = rank
        for step in stride(from: steps - 1, through: 0, by: -1) {
            if step < inputBits { bits[step] = UInt8(state >> (Self.newest - 1)) }
            let entry = Int(back[(step * states + state) * list + r])
            state = entry >> 8
            r = entry & 255
        }
        return bits
    }
}
