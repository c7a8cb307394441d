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

    /// Maximum-likelihood decoding of soft values (`codedBits` of them; positive means
    /// bit 1, magnitude is confidence, 0 is an erasure). Returns the information bits.
    public func decode(_ soft: [Float]) -> [UInt8] {
        precondition(soft.count == codedBits, "wrong soft block length")
        let steps = inputBits + Self.constraintLength - 1
        let states = Self.stateCount
        // Branch outputs per (state, input) as signs, computed once.
        var branch = [Float](repeating: 0, count: states * 2 * 3)
        for state in 0..<states {
            for input in 0..<2 {
                let (a, b, c) = Self.outputs(input << Self.newest | state)
                let base = (state * 2 + input) * 3
                branch[base] = a == 1 ? 1 : -1
                branch[base + 1] = b == 1 ? 1 : -1
                branch[base + 2] = c == 1 ? 1 : -1
            }
        }
        let minusInfinity = -Float.greatestFiniteMagnitude
        var metric = [Float](repeating: minusInfinity, count: states)
        metric[0] = 0
        var next = [Float](repeating: minusInfinity, count: states)
        // decisions[step * states + newState] = previous state
        var decisions = [UInt16](repeating: 0, count: steps * states)
        branch.withUnsafeBufferPointer { branch in
            decisions.withUnsafeMutableBufferPointer { decisions in
                soft.withUnsafeBufferPointer { soft in
                    for step in 0..<steps {
                        let s0 = soft[3 * step], s1 = soft[3 * step + 1], s2 = soft[3 * step + 2]
                        let inputs = step < inputBits ? 2 : 1
                        metric.withUnsafeMutableBufferPointer { metric in
                            next.withUnsafeMutableBufferPointer { next in
                                for i in 0..<states { next[i] = minusInfinity }
                                for state in 0..<states {
                                    let current = metric[state]
                                    if current == minusInfinity { continue }
                                    for input in 0..<inputs {
                                        let base = (state * 2 + input) * 3
                                        let candidate = current + branch[base] * s0 + branch[base + 1] * s1 + branch[base + 2] * s2
                                        let target = (input << Self.newest | state) >> 1
                                        if candidate > next[target] {
                                            next[target] = candidate
                                            decisions[step * states + target] = UInt16(state)
                                        }
                                    }
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
            state = Int(decisions[step * states + state])
        }
        return Array(bits.prefix(inputBits))
    }
}
