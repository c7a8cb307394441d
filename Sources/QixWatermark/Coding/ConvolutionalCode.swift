/// The rate-1/3, constraint-length-9 convolutional code (generators 557, 663, 711
/// octal, free distance 18) with zero-tail termination, and its soft-decision Viterbi
/// decoder.
public struct ConvolutionalCode: Sendable {
    /// Constraint length.
    public static let constraintLength = 9
    /// Generator polynomials; bit 8 taps the newest input bit.
    public static let generators: [Int] = [0o557, 0o663, 0o711]
    static let newest = constraintLength - 1
    static let stateCount = 1 << (constraintLength - 1)

    /// Information bits per block.
    public let inputBits: Int

    /// A code for blocks of `inputBits` bits.
    public init(inputBits: Int) { self.inputBits = inputBits }

    /// Coded bits per block, tail included: 3 x (inputBits + 8).
    public var codedBits: Int { 3 * (inputBits + Self.constraintLength - 1) }

    /// The three output bits for shift register `register` (9 bits, newest at bit 8).
    @inline(__always)
    private static func outputs(_ register: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8((register & generators[0]).nonzeroBitCount & 1),
         UInt8((register & generators[1]).nonzeroBitCount & 1),
         UInt8((register & generators[2]).nonzeroBitCount & 1))
    }

    /// Encodes `bits` (0/1, `inputBits` of them) followed by the zero tail.
    public func encode(_ bits: [UInt8]) -> [UInt8] {
        precondition(bits.count == inputBits, "wrong block length")
        var state = 0
        var coded: [UInt8] = []
        coded.reserveCapacity(codedBits)
        for bit in bits + [UInt8](repeating: 0, count: Self.constraintLength - 1) {
            let register = Int(bit) << Self.newest | state
            let (a, b, c) = Self.outputs(register)
            coded.append(a); coded.append(b); coded.append(c)
            state = register >> 1
        }
        return coded
    }

    /// Maximum-likelihood decoding of soft values (`codedBits` of them; positive means
    /// bit 1, magnitude is confidence, 0 is an erasure). Returns the information bits.
    ///
    /// Organised by target state: new state t = input << 7 | (state >> 1) has exactly
    /// two predecessors, 2 (t & 127) and 2 (t & 127) + 1, so each step is one pass of
    /// two candidates per state over contiguous metrics, with no scattered writes.
    /// Sums and tie-breaking (the lower predecessor wins ties, unreachable states stay
    /// unreachable) are exactly those of the textbook state-by-state loop.
    public func decode(_ soft: [Float]) -> [UInt8] {
        decode(soft, alternatives: 0)[0]
    }

    /// The most likely information bits first, then up to `alternatives` runners-up (the
    /// cheapest single detours from the most likely path, `detours`), for a caller whose
    /// keyed check can tell the right one.
    public func decode(_ soft: [Float], alternatives: Int) -> [[UInt8]] {
        precondition(soft.count == codedBits, "wrong soft block length")
        let steps = inputBits + Self.constraintLength - 1, states = Self.stateCount
        // Non-finite soft values need the careful path's comparisons throughout.
        var finite = true
        for value in soft where !value.isFinite || abs(value) > 1e30 { finite = false }
        // decisions[step * states + newState] = previous state. With finite values every
        // reachable target gets its decision, and the traceback from state 0 visits only
        // reachable ones, so the table needs no zeroing; non-finite values can leave a
        // reachable target undecided, which then reads as state 0, as it always has.
        var decisions = finite
            ? [UInt16](unsafeUninitializedCapacity: steps * states) { _, initialized in initialized = steps * states }
            : [UInt16](repeating: 0, count: steps * states)
        let history = forwardPass(soft, finite: finite, keepHistory: alternatives > 0, decisions: &decisions)
        // The most likely path's states, from state 0 after the tail back to the start.
        var path = [Int](repeating: 0, count: steps + 1)
        for step in stride(from: steps - 1, through: 0, by: -1) {
            path[step] = Int(decisions[step * states + path[step + 1]])
        }
        var decoded = [bits(along: path)]
        if alternatives > 0 {
            decoded += detours(from: path, history: history, decisions: decisions, soft: soft, count: alternatives)
        }
        return decoded
    }

    /// The Viterbi recursion over every step, filling `decisions`; returns every step's
    /// metrics (row 0: before the first step) when `keepHistory`, for the detours.
    private func forwardPass(_ soft: [Float], finite: Bool, keepHistory: Bool, decisions: inout [UInt16]) -> [Float] {
        let steps = inputBits + Self.constraintLength - 1
        let states = Self.stateCount
        let minusInfinity = -Float.greatestFiniteMagnitude
        var metric = [Float](repeating: minusInfinity, count: states)
        metric[0] = 0
        var next = [Float](repeating: minusInfinity, count: states)
        // The signed soft values of one step for each of the 8 output patterns.
        var signed = [Float](repeating: 0, count: 8 * 3)
        var history = keepHistory ? metric : []
        if keepHistory { history.reserveCapacity((steps + 1) * states) }
        Self.branchOutputs.withUnsafeBufferPointer { branch in
            decisions.withUnsafeMutableBufferPointer { decisions in
                signed.withUnsafeMutableBufferPointer { signed in
                    for step in 0..<steps {
                        let values = (soft[3 * step], soft[3 * step + 1], soft[3 * step + 2])
                        // The zero tail: only input 0, so targets with input 1 are unreachable.
                        let targets = step < inputBits ? states : states / 2
                        metric.withUnsafeBufferPointer { metric in
                            next.withUnsafeMutableBufferPointer { next in
                                // Butterflies in SIMD: the same sums and ties. An unreachable state
                                // holds the sentinel, and finite soft values of at most 1e30 are below
                                // half its ulp (1e31), so it stays the sentinel and loses to every
                                // reachable one, as the careful loop's skip has it; the decisions it
                                // leaves for unreachable targets are never traced.
                                if finite && Self.butterflies {
                                    Self.butterflyStep(metric: metric, next: next, decisions: decisions, row: step * states,
                                                       soft: values)
                                } else {
                                    Self.carefulStep(metric: metric, next: next, decisions: decisions, row: step * states,
                                                     targets: targets, soft: values, signed: signed, branch: branch)
                                }
                                for target in targets..<states { next[target] = minusInfinity }
                            }
                        }
                        swap(&metric, &next)
                        if keepHistory { history.append(contentsOf: metric) }
                    }
                }
            }
        }
        return history
    }

    /// One step of the textbook state-by-state loop, for targets `0..<targets`: each takes
    /// the better of its two reachable predecessors (the lower on a tie), and a target with
    /// none stays unreachable and undecided. `signed` is scratch space of 8 x 3 values.
    @inline(__always)
    private static func carefulStep(metric: UnsafeBufferPointer<Float>, next: UnsafeMutableBufferPointer<Float>,
                                    decisions: UnsafeMutableBufferPointer<UInt16>, row: Int, targets: Int,
                                    soft: (Float, Float, Float), signed: UnsafeMutableBufferPointer<Float>,
                                    branch: UnsafeBufferPointer<Int>) {
        let halfStates = stateCount / 2
        let minusInfinity = -Float.greatestFiniteMagnitude
        for pattern in 0..<8 {
            signed[3 * pattern] = pattern & 4 != 0 ? soft.0 : -soft.0
            signed[3 * pattern + 1] = pattern & 2 != 0 ? soft.1 : -soft.1
            signed[3 * pattern + 2] = pattern & 1 != 0 ? soft.2 : -soft.2
        }
        for target in 0..<targets {
            let first = (target & (halfStates - 1)) << 1
            var best = minusInfinity
            var from = -1
            for low in 0..<2 {
                let current = metric[first + low]
                if current == minusInfinity { continue }
                let p = 3 * branch[target * 2 + low]
                let candidate = current + signed[p] + signed[p + 1] + signed[p + 2]
                if candidate > best { best = candidate; from = first + low }
            }
            next[target] = best
            if from >= 0 { decisions[row + target] = UInt16(from) }
        }
    }

    /// The information bits along a path of states: each step's input is the newest bit
    /// of the state it leads to.
    func bits(along path: [Int]) -> [UInt8] {
        (0..<inputBits).map { UInt8(path[$0 + 1] >> (Self.newest - 1)) }
    }

    /// Branch output bits (3 bits, first generator highest) per (target state, the
    /// predecessor's low bit): the trellis is the same for every block.
    static let branchOutputs: [Int] = {
        let halfStates = stateCount / 2
        var branch = [Int](repeating: 0, count: stateCount * 2)
        for target in 0..<stateCount {
            for low in 0..<2 {
                let state = (target & (halfStates - 1)) << 1 | low
                let (a, b, c) = outputs((target >> (newest - 1)) << newest | state)
                branch[target * 2 + low] = Int(a) << 2 | Int(b) << 1 | Int(c)
            }
        }
        return branch
    }()

    /// Whether every generator taps both the newest and the oldest bit: then the two
    /// branches leaving a state, and the two entering a target, differ in every output
    /// bit, and a step is 128 butterflies that share one signed branch value.
    static let butterflies = generators.allSatisfy { $0 & 1 != 0 && $0 & (1 << newest) != 0 }

    /// Output signs (+1 for bit 1) of the branch from state 2 j with input 0, generator
    /// after generator (`stateCount / 2` values each).
    static let butterflySigns: [Float] = {
        let half = stateCount / 2
        var signs = [Float](repeating: 0, count: 3 * half)
        for j in 0..<half {
            let (a, b, c) = outputs(2 * j)
            signs[j] = a == 1 ? 1 : -1
            signs[half + j] = b == 1 ? 1 : -1
            signs[2 * half + j] = c == 1 ? 1 : -1
        }
        return signs
    }()

    /// One step over all-reachable metrics, eight butterflies at a time: target j takes
    /// state 2 j (+x) or 2 j + 1 (-x), target j + 128 state 2 j (-x) or 2 j + 1 (+x), with
    /// the three signed soft values added one by one in the scalar loop's order and ties
    /// going to the lower state, so the metrics and decisions are bit for bit the same.
    @inline(__always)
    private static func butterflyStep(metric: UnsafeBufferPointer<Float>, next: UnsafeMutableBufferPointer<Float>,
                                      decisions: UnsafeMutableBufferPointer<UInt16>, row: Int,
                                      soft: (Float, Float, Float)) {
        let half = stateCount / 2
        butterflySigns.withUnsafeBufferPointer { signs in
            let signRaw = UnsafeRawPointer(signs.baseAddress!)
            let metricRaw = UnsafeRawPointer(metric.baseAddress!)
            let nextRaw = UnsafeMutableRawPointer(next.baseAddress!)
            let decisionRaw = UnsafeMutableRawPointer(decisions.baseAddress! + row)
            let lanes = SIMD8<Int32>(0, 2, 4, 6, 8, 10, 12, 14)
            var j = 0
            while j < half {
                let pair = metricRaw.loadUnaligned(fromByteOffset: 2 * j * 4, as: SIMD16<Float>.self)
                let even = pair.evenHalf, odd = pair.oddHalf
                let x0 = signRaw.loadUnaligned(fromByteOffset: j * 4, as: SIMD8<Float>.self) * soft.0
                let x1 = signRaw.loadUnaligned(fromByteOffset: (half + j) * 4, as: SIMD8<Float>.self) * soft.1
                let x2 = signRaw.loadUnaligned(fromByteOffset: (2 * half + j) * 4, as: SIMD8<Float>.self) * soft.2
                let up0 = ((even + x0) + x1) + x2, up1 = ((odd - x0) - x1) - x2
                let down0 = ((even - x0) - x1) - x2, down1 = ((odd + x0) + x1) + x2
                let takeUp = up1 .> up0, takeDown = down1 .> down0
                nextRaw.storeBytes(of: up0.replacing(with: up1, where: takeUp), toByteOffset: j * 4, as: SIMD8<Float>.self)
                nextRaw.storeBytes(of: down0.replacing(with: down1, where: takeDown), toByteOffset: (half + j) * 4,
                                   as: SIMD8<Float>.self)
                let first = lanes &+ Int32(2 * j)
                let one = SIMD8<Int32>(repeating: 1), zero = SIMD8<Int32>(repeating: 0)
                decisionRaw.storeBytes(of: SIMD8<UInt16>(truncatingIfNeeded: first &+ zero.replacing(with: one, where: takeUp)),
                                       toByteOffset: j * 2, as: SIMD8<UInt16>.self)
                decisionRaw.storeBytes(of: SIMD8<UInt16>(truncatingIfNeeded: first &+ zero.replacing(with: one, where: takeDown)),
                                       toByteOffset: (half + j) * 2, as: SIMD8<UInt16>.self)
                j += 8
            }
        }
    }
}
