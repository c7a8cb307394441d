extension ConvolutionalCode {
    /// Runner-up paths for list decoding: each leaves the most likely path at one step,
    /// taking the other predecessor of that step's state (and that predecessor's own
    /// survivor before it), and rejoins it there. Ranked by what the detour costs in path
    /// metric, cheapest first, ties by step; `count` of them at most. A block whose most
    /// likely path fails its check is usually wrong in one short stretch, which one such
    /// detour undoes (docs/watermark.md, section 4, for what it costs in false positives).
    ///
    /// `history` holds the metrics of every state after each step (row 0 before the first),
    /// `decisions` each step's survivor predecessors, `path` the most likely states.
    func detours(from path: [Int], history: [Float], decisions: [UInt16], soft: [Float], count: Int) -> [[UInt8]] {
        let states = Self.stateCount, steps = path.count - 1
        let minusInfinity = -Float.greatestFiniteMagnitude
        var costs: [(cost: Float, step: Int, from: Int)] = []
        for step in 0..<steps {
            let target = path[step + 1]
            // The two states that lead to `target`: its low bits shifted up, either oldest bit.
            let first = (target << 1) & (states - 1)
            for low in 0..<2 where first | low != path[step] {
                let from = first | low
                let metric = history[step * states + from]
                guard metric > minusInfinity, metric.isFinite else { continue }
                // The branch's output bits from the trellis table the decoder uses.
                let pattern = Self.branchOutputs[target * 2 + low]
                let branch = (pattern & 4 != 0 ? soft[3 * step] : -soft[3 * step])
                    + (pattern & 2 != 0 ? soft[3 * step + 1] : -soft[3 * step + 1])
                    + (pattern & 1 != 0 ? soft[3 * step + 2] : -soft[3 * step + 2])
                let cost = history[(step + 1) * states + target] - (metric + branch)
                if cost.isFinite { costs.append((cost, step, from)) }
            }
        }
        costs.sort { ($0.cost, $0.step) < ($1.cost, $1.step) }
        return costs.prefix(count).map { detour in
            var detourPath = path
            detourPath[detour.step] = detour.from
            for step in stride(from: detour.step - 1, through: 0, by: -1) {
                detourPath[step] = Int(decisions[step * states + detourPath[step + 1]])
            }
            return bits(along: detourPath)
        }
    }
}
