/// One run of the successive cancellation list decoder of a `PolarCode`.
///
/// Successive cancellation visits u's positions in order, a depth-first walk of the
/// code's binary tree: a node of 2m values has LLRs from its parent's 2m (left child:
/// f(a, b) = sign(a) sign(b) min(|a|, |b|); right child: b + a or b - a by the left
/// child's partial sums), so each path keeps one array of 2^s LLRs and one of 2^s left
/// partial sums per level s (511 of each), and the channel's 512 LLRs are shared. A path
/// forks at every information bit; the `listSize` with the smallest metrics survive,
/// a surviving fork taking over the slot of a path that had none. All storage is
/// allocated once per run: the decoder runs for every sync candidate of hours of audio.
final class PolarListDecoder {
    private let code: PolarCode
    private let listSize: Int
    private static let perPath = PolarCode.length - 1
    /// Per path: LLRs of the current node at levels 0...8 (level s at offset 2^s - 1).
    private let llr: UnsafeMutablePointer<Float>
    /// Per path: partial sums of the last finished left child at each level.
    private let left: UnsafeMutablePointer<UInt8>
    /// Per path: the information bits decided so far.
    private let information: UnsafeMutablePointer<UInt8>
    private let metric: UnsafeMutablePointer<Float>
    private let active: UnsafeMutablePointer<Bool>
    private let channel: UnsafeMutablePointer<Float>
    /// Scratch: partial sums being combined up the tree (two halves of 512).
    private let sums: UnsafeMutablePointer<UInt8>
    /// Scratch for a fork: the 2 L continuations, survivors per path, free slots.
    private let optionMetric: UnsafeMutablePointer<Float>
    private let optionCode: UnsafeMutablePointer<Int>
    private let survivors: UnsafeMutablePointer<Int>
    private let slots: UnsafeMutablePointer<Int>

    init(code: PolarCode, listSize: Int) {
        self.code = code
        self.listSize = listSize
        llr = .allocate(capacity: listSize * Self.perPath)
        left = .allocate(capacity: listSize * Self.perPath)
        information = .allocate(capacity: listSize * code.inputBits)
        metric = .allocate(capacity: listSize)
        active = .allocate(capacity: listSize)
        channel = .allocate(capacity: PolarCode.length)
        sums = .allocate(capacity: 2 * PolarCode.length)
        optionMetric = .allocate(capacity: 2 * listSize)
        optionCode = .allocate(capacity: 2 * listSize)
        survivors = .allocate(capacity: listSize)
        slots = .allocate(capacity: 2 * listSize)
        left.initialize(repeating: 0, count: listSize * Self.perPath)
        information.initialize(repeating: 0, count: listSize * code.inputBits)
        metric.initialize(repeating: 0, count: listSize)
        active.initialize(repeating: false, count: listSize)
        channel.initialize(repeating: 0, count: PolarCode.length)
    }

    deinit {
        llr.deallocate(); left.deallocate(); information.deallocate(); metric.deallocate()
        active.deallocate(); channel.deallocate(); sums.deallocate(); optionMetric.deallocate()
        optionCode.deallocate(); survivors.deallocate(); slots.deallocate()
    }

    /// Decodes `soft` (positive means bit 1); returns the surviving paths' information
    /// bits, smallest metric first.
    func run(_ soft: [Float]) -> [[UInt8]] {
        for (k, position) in code.sentPositions.enumerated() {
            // LLR convention: positive favours bit 0. Non-finite values are erasures.
            channel[position] = soft[k].isFinite ? -soft[k] : 0
        }
        active[0] = true
        var informationIndex = 0
        code.frozenNodeLevel.withUnsafeBufferPointer { frozenNodeLevel in
            var phase = 0
            while phase < PolarCode.length {
                let frozenLevel = frozenNodeLevel[phase]
                if frozenLevel >= 0 {
                    // A node of known zeros: its LLRs alone give the paths' penalties
                    // (each negative LLR a decision against its sign), no descent needed.
                    let size = 1 << frozenLevel
                    for path in 0..<listSize where active[path] {
                        updateLLRs(path: path, phase: phase, downTo: frozenLevel)
                        let values = llr + path * Self.perPath + size - 1
                        var penalty: Float = 0
                        for j in 0..<size where values[j] < 0 { penalty -= values[j] }
                        metric[path] += penalty
                        updateSums(path: path, phase: phase, level: frozenLevel, zeros: true, bit: 0)
                    }
                    phase += size
                } else {
                    for path in 0..<listSize where active[path] { updateLLRs(path: path, phase: phase, downTo: 0) }
                    fork(phase: phase, informationIndex: informationIndex)
                    informationIndex += 1
                    phase += 1
                }
            }
        }
        let order = (0..<listSize).filter { active[$0] }.sorted { metric[$0] < metric[$1] || (metric[$0] == metric[$1] && $0 < $1) }
        return order.map { path in
            Array(UnsafeBufferPointer(start: information + path * code.inputBits, count: code.inputBits))
        }
    }

    /// Keeps the `listSize` best of every active path's two continuations (ties to the
    /// lower path, then bit 0), each fork of a path that keeps both taking a free slot.
    private func fork(phase: Int, informationIndex: Int) {
        if listSize == 1 {
            // Successive cancellation: the sign decides (0 on a tie, as the sorted list would).
            let value = llr[0]
            let bit: UInt8 = value < 0 ? 1 : 0
            if value < 0 { metric[0] -= value }
            information[informationIndex] = bit
            updateSums(path: 0, phase: phase, level: 0, zeros: false, bit: bit)
            return
        }
        var count = 0
        for path in 0..<listSize where active[path] {
            let value = llr[path * Self.perPath]
            optionMetric[count] = metric[path] + (value < 0 ? -value : 0)
            optionCode[count] = 2 * path
            optionMetric[count + 1] = metric[path] + (value > 0 ? value : 0)
            optionCode[count + 1] = 2 * path + 1
            count += 2
        }
        // Insertion sort of at most 2 L entries by (metric, path, bit).
        for i in 1..<max(1, count) {
            let m = optionMetric[i], c = optionCode[i]
            var j = i - 1
            while j >= 0 && (optionMetric[j] > m || (optionMetric[j] == m && optionCode[j] > c)) {
                optionMetric[j + 1] = optionMetric[j]
                optionCode[j + 1] = optionCode[j]
                j -= 1
            }
            optionMetric[j + 1] = m
            optionCode[j + 1] = c
        }
        let kept = min(count, listSize)
        for path in 0..<listSize { survivors[path] = 0 }
        for i in 0..<kept { survivors[optionCode[i] >> 1] += 1 }
        // Every fork gets its slot (copying its parent) before any path records its bit.
        var free = 0
        for i in 0..<kept {
            let path = optionCode[i] >> 1
            if survivors[path] == 2 {
                // The first of the pair stays, the second moves to a slot left empty.
                survivors[path] = -1
                slots[i] = path
            } else if survivors[path] == -1 {
                while survivors[free] != 0 { free += 1 }
                survivors[free] = -2
                copy(from: path, to: free)
                slots[i] = free
            } else {
                slots[i] = path
            }
        }
        for path in 0..<listSize { active[path] = survivors[path] != 0 }
        for i in 0..<kept {
            let slot = slots[i], bit = UInt8(optionCode[i] & 1)
            metric[slot] = optionMetric[i]
            information[slot * code.inputBits + informationIndex] = bit
            updateSums(path: slot, phase: phase, level: 0, zeros: false, bit: bit)
        }
    }

    private func copy(from source: Int, to target: Int) {
        let size = Self.perPath
        (llr + target * size).update(from: llr + source * size, count: size)
        (left + target * size).update(from: left + source * size, count: size)
        let bits = code.inputBits
        (information + target * bits).update(from: information + source * bits, count: bits)
    }

    /// Brings the path's LLRs down to the node of `phase` at level `lowest`: the right
    /// child at the level of the phase's lowest set bit, then left children.
    @inline(__always)
    private func updateLLRs(path: Int, phase: Int, downTo lowest: Int) {
        let top = PolarCode.lengthLog - 1
        let rightLevel = phase == 0 ? top + 1 : phase.trailingZeroBitCount
        let base = llr + path * Self.perPath
        var level = rightLevel
        if rightLevel <= top {
            let m = 1 << rightLevel
            let alpha = rightLevel == top ? UnsafePointer(channel) : UnsafePointer(base + 2 * m - 1)
            let out = base + m - 1, partial = left + path * Self.perPath + m - 1
            // g: b + a, or b - a where the left child decided 1 (its sign bit flipped, branch-free).
            for j in 0..<m {
                out[j] = alpha[j + m] + Float(bitPattern: alpha[j].bitPattern ^ (UInt32(partial[j]) << 31))
            }
        } else {
            level = top + 1
        }
        level -= 1
        while level >= lowest {
            let m = 1 << level
            let alpha = level == top ? UnsafePointer(channel) : UnsafePointer(base + 2 * m - 1)
            let out = base + m - 1
            // f: min(|a|, |b|) with the product's sign, branch-free so that it vectorises.
            for j in 0..<m {
                let a = alpha[j], b = alpha[j + m]
                let sign = (a.bitPattern ^ b.bitPattern) & 0x8000_0000
                out[j] = Float(bitPattern: min(abs(a), abs(b)).bitPattern | sign)
            }
            level -= 1
        }
    }

    /// Records the decisions of the node of `phase` at `level` (one bit at level 0, or
    /// all zeros) and combines finished right children upward until a left child is
    /// finished, whose partial sums are kept for its sibling.
    @inline(__always)
    private func updateSums(path: Int, phase: Int, level start: Int, zeros: Bool, bit: UInt8) {
        let partial = left + path * Self.perPath
        // Two buffers of 512 used in turn: the parent's sums are (left xor right, right).
        var current = sums, next = sums + PolarCode.length
        var level = start, node = phase >> start, count = 1 << start
        if zeros { current.update(repeating: 0, count: count) } else { current[0] = bit }
        while node & 1 == 1 {
            let sibling = partial + count - 1
            for j in 0..<count {
                let r = current[j]
                next[j] = sibling[j] ^ r
                next[j + count] = r
            }
            swap(&current, &next)
            count *= 2
            level += 1
            node >>= 1
            if level == PolarCode.lengthLog { return }
        }
        (partial + count - 1).update(from: current, count: count)
    }
}
