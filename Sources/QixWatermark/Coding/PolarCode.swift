/// A polar code of length 512 punctured to the frame's data tiles, with a successive
/// cancellation list decoder (Tal and Vardy) whose candidates a keyed check picks from.
///
/// Construction: the codeword is x = u F^(x9) (F = [1 0; 1 1], natural order, so x is
/// (a xor b, b) for the encodings a, b of u's two halves). Quasi-uniform puncturing
/// drops the positions bit-reverse(0 ..< 512 - codedBits), which the decoder reads as
/// erasures. The information positions are the `inputBits` synthetic channels with the
/// smallest Bhattacharyya parameters for a design z (tiles at amplitude rho give
/// z = exp(-rho^2 / 2): 0.88 at rho = 0.5; format 2 uses 0.93) and punctured positions at
/// z = 1. On the frame's Gaussian tile channel this list-decoded code needs about 0.6 dB
/// less than format 1's convolutional code with an equal list
/// (`Benchmarks/codes/code_comparison.c`, docs/watermark.md section 1).
public struct PolarCode: Sendable {
    /// log2 of the mother code length.
    public static let lengthLog = 9
    /// Mother code length.
    public static let length = 1 << lengthLog
    /// Information bits per block.
    public let inputBits: Int
    /// Coded bits per block, after puncturing.
    public let codedBits: Int
    /// Positions of u carrying information bits, ascending.
    let informationPositions: [Int]
    /// Whether each position of u is frozen to 0.
    let frozen: [Bool]
    /// Positions of x that are sent, ascending (one per coded bit).
    let sentPositions: [Int]
    /// For each position of u: the level of the largest node starting there whose
    /// positions are all frozen (its decisions are known zeros), or -1.
    let frozenNodeLevel: [Int]
    /// Each information bit's codeword (its row of F^(x9) at the sent positions), packed
    /// `rowWords` 64-bit words per row: encoding XORs the rows of the bits set, about 30
    /// rows of 7 words instead of the 4 608-step butterfly.
    let generatorRows: [UInt64]
    /// Words per packed row.
    let rowWords: Int

    /// A code carrying `inputBits` bits in `codedBits` coded bits (at most 512).
    public init(inputBits: Int, codedBits: Int, designZ: Double = 0.88) {
        precondition(inputBits > 0 && inputBits <= codedBits && codedBits <= Self.length, "bad polar code size")
        self.inputBits = inputBits
        self.codedBits = codedBits
        let n = Self.length
        var punctured = [Bool](repeating: false, count: n)
        for i in 0..<(n - codedBits) { punctured[Self.bitReverse(i)] = true }
        var z = (0..<n).map { punctured[$0] ? 1.0 : designZ }
        // Channel combining from the top stage down: the upper channel of a pair degrades
        // (z_a + z_b - z_a z_b), the lower one improves (z_a z_b).
        var half = n / 2
        while half >= 1 {
            for block in stride(from: 0, to: n, by: 2 * half) {
                for j in block..<(block + half) {
                    let a = z[j], b = z[j + half]
                    z[j] = a + b - a * b
                    z[j + half] = a * b
                }
            }
            half /= 2
        }
        let best = (0..<n).sorted { z[$0] < z[$1] || (z[$0] == z[$1] && $0 < $1) }.prefix(inputBits)
        informationPositions = best.sorted()
        var frozen = [Bool](repeating: true, count: n)
        for position in informationPositions { frozen[position] = false }
        self.frozen = frozen
        sentPositions = (0..<n).filter { !punctured[$0] }
        frozenNodeLevel = (0..<n).map { position in
            var level = -1
            for s in 0...Self.lengthLog where position % (1 << s) == 0 && position + (1 << s) <= n {
                if (position..<(position + (1 << s))).allSatisfy({ frozen[$0] }) { level = s }
            }
            return level
        }
        let words = (codedBits + 63) / 64
        var rows = [UInt64](repeating: 0, count: inputBits * words)
        for k in 0..<inputBits {
            var unit = [UInt8](repeating: 0, count: n)
            unit[informationPositions[k]] = 1
            let row = Self.transform(unit)
            for (bit, position) in sentPositions.enumerated() where row[position] == 1 {
                rows[k * words + bit / 64] |= 1 << UInt64(bit % 64)
            }
        }
        generatorRows = rows
        rowWords = words
    }

    /// x = u F^(x9) by the butterfly: the definition, used to build the generator rows.
    static func transform(_ u: [UInt8]) -> [UInt8] {
        var x = u
        x.withUnsafeMutableBufferPointer { x in
            var half = 1
            while half < length {
                for block in stride(from: 0, to: length, by: 2 * half) {
                    for j in block..<(block + half) { x[j] ^= x[j + half] }
                }
                half *= 2
            }
        }
        return x
    }

    /// `value`'s 9 bits in reverse order (quasi-uniform puncturing drops these positions).
    static func bitReverse(_ value: Int) -> Int {
        var value = value, result = 0
        for _ in 0..<lengthLog {
            result = result << 1 | (value & 1)
            value >>= 1
        }
        return result
    }

    /// Encodes `bits` (0/1, `inputBits` of them) into `codedBits` coded bits.
    public func encode(_ bits: [UInt8]) -> [UInt8] {
        precondition(bits.count == inputBits, "wrong block length")
        let words = rowWords
        var packed = [UInt64](repeating: 0, count: words)
        generatorRows.withUnsafeBufferPointer { rows in
            packed.withUnsafeMutableBufferPointer { packed in
                for k in 0..<inputBits where bits[k] != 0 {
                    let row = rows.baseAddress! + k * words
                    for w in 0..<words { packed[w] ^= row[w] }
                }
            }
        }
        return [UInt8](unsafeUninitializedCapacity: codedBits) { coded, count in
            for k in 0..<codedBits { coded[k] = UInt8(truncatingIfNeeded: packed[k >> 6] >> UInt64(k & 63)) & 1 }
            count = codedBits
        }
    }

    /// The successive cancellation decision (a list of one) for soft values
    /// (`codedBits` of them; positive means bit 1, magnitude is confidence, 0 an erasure).
    public func decode(_ soft: [Float]) -> [UInt8] {
        listDecode(soft, size: 1)[0]
    }

    /// Up to `size` candidate information blocks, most likely first: successive
    /// cancellation keeping the `size` best paths at every information bit (min-sum
    /// LLRs; path metrics add |LLR| for each decision against its sign).
    public func listDecode(_ soft: [Float], size: Int) -> [[UInt8]] {
        precondition(soft.count == codedBits, "wrong soft block length")
        let decoder = PolarListDecoder(code: self, listSize: max(1, size))
        return decoder.run(soft)
    }
}
