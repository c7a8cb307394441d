/// The rate-1/3, constraint-length-9 convolutional code (generators 557, 663, 711
/// octal, free distance 18) with zero-tail termination, and its soft-decision Viterbi
/// decoder.
public struct ConvolutionalCode: Sendable {
    /// Constraint length.
    public static let constraintLength = 9
    /// Generator polynomials; bit 8 taps the newest input bit.
    public static let generators: [Int] = [0o557, 0o663, 0o711]
    private static let newest = constraintLength - 1
    private static let stateCount = 1 << (constraintLength - 1)

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

    /// Index (0-7) of the three output bits of each 9-bit register: the branch metric
    /// of a step is one of only eight sums +-s0 +-s1 +-s2.
    private static let branchIndex: [UInt8] = (0..<(1 << constraintLength)).map { register in
        let (a, b, c) = outputs(register)
        return a << 2 | b << 1 | c
    }

    /// Maximum-likelihood decoding of soft values (`codedBits` of them; positive means
    /// bit 1, magnitude is confidence, 0 is an erasure). Returns the information bits.
    ///
    /// Butterfly form: the two predecessors of state t are 2t mod 256 and 2t + 1 mod 256,
    /// so every step is one branch-free pass over the 256 targets with the step's eight
    /// branch metrics (a detector runs this for every candidate of every window, unmarked
    /// audio included, so it is on the scan's hot path).
    public func decode(_ soft: [Float]) -> [UInt8] {
        precondition(soft.count == codedBits, "wrong soft block length")
        let steps = inputBits + Self.constraintLength - 1
        let states = Self.stateCount, half = states / 2
        let unreachable: Float = -1e30
        var metric = [Float](repeating: unreachable, count: states)
        metric[0] = 0
        var next = [Float](repeating: unreachable, count: states)
        // decisions[step * states + t]: which predecessor (0: 2t, 1: 2t + 1, mod 256) won.
        var decisions = [UInt8](repeating: 0, count: steps * states)
        var branchMetric = [Float](repeating: 0, count: 8)
        Self.branchIndex.withUnsafeBufferPointer { index in
            decisions.withUnsafeMutableBufferPointer { decisions in
                soft.withUnsafeBufferPointer { soft in
                    for step in 0..<steps {
                        let s0 = soft[3 * step], s1 = soft[3 * step + 1], s2 = soft[3 * step + 2]
                        for k in 0..<8 {
                            branchMetric[k] = (k & 4 != 0 ? s0 : -s0) + (k & 2 != 0 ? s1 : -s1) + (k & 1 != 0 ? s2 : -s2)
                        }
                        // The zero tail only ever shifts in 0: targets with the top bit set are unreachable.
                        let targets = step < inputBits ? states : half
                        metric.withUnsafeBufferPointer { metric in
                            next.withUnsafeMutableBufferPointer { next in
                                branchMetric.withUnsafeBufferPointer { bm in
                                    let row = step * states
                                    for t in 0..<targets {
                                        let p0 = (t & (half - 1)) << 1
                                        let register = (t >> (Self.newest - 1)) << Self.newest | p0
                                        let m0 = metric[p0] + bm[Int(index[register])]
                                        let m1 = metric[p0 | 1] + bm[Int(index[register | 1])]
                                        let second = m1 > m0
                                        next[t] = second ? m1 : m0
                                        decisions[row + t] = second ? 1 : 0
                                    }
                                    for t in targets..<states { next[t] = unreachable }
                                }
                            }
                        }
                        swap(&metric, &next)
                    }
                }
            }
        }
        var bits = [UInt8](repeating: 0, count: steps)
        var state = 0
        for step in stride(from: steps - 1, through: 0, by: -1) {
            bits[step] = UInt8(state >> (Self.newest - 1))   // the input that entered at this step
            state = ((state & (half - 1)) << 1) | Int(decisions[step * states + state])
        }
        return Array(bits.prefix(inputBits))
    }
}
