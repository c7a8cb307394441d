/// The error-correcting code of a watermark format: payload bits to coded bits, and soft
/// decoding back to candidate payloads for the keyed check to choose from.
public protocol PayloadCode: Sendable {
    /// Information bits per block.
    var inputBits: Int { get }
    /// Coded bits per block.
    var codedBits: Int { get }
    /// Encodes `inputBits` bits (0/1).
    func encode(_ bits: [UInt8]) -> [UInt8]
    /// The code's plain decision for soft values (positive means bit 1): Viterbi's most
    /// likely path, polar successive cancellation.
    func decode(_ soft: [Float]) -> [UInt8]
    /// The most likely information bits, or a close approximation where exact maximum
    /// likelihood is dear: what a window's fit to some codeword is measured with.
    func mostLikely(_ soft: [Float]) -> [UInt8]
    /// The most likely information bits, then up to `alternatives` runners-up.
    func decode(_ soft: [Float], alternatives: Int) -> [[UInt8]]
    /// Up to `size` candidate blocks, most likely first.
    func listDecode(_ soft: [Float], size: Int) -> [[UInt8]]
}

extension ConvolutionalCode: PayloadCode {
    /// Viterbi's path is the most likely.
    public func mostLikely(_ soft: [Float]) -> [UInt8] { decode(soft) }
}

extension PolarCode: PayloadCode {
    /// Paths kept by `mostLikely`: ranking sync peaks by the best of 8 paths' fit instead
    /// of successive cancellation's decoded 10 more of 1 728 hard-cell excerpts.
    static let mostLikelyListSize = 8

    /// The best of a short list's paths.
    public func mostLikely(_ soft: [Float]) -> [UInt8] { listDecode(soft, size: Self.mostLikelyListSize)[0] }

    /// A list of `alternatives + 1` paths.
    public func decode(_ soft: [Float], alternatives: Int) -> [[UInt8]] {
        listDecode(soft, size: alternatives + 1)
    }
}
