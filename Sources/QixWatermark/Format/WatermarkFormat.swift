/// The versions of the watermark's payload coding and band layout. All share the geometry,
/// keys, sync tiles and depths (`WatermarkParameters`); the detector reads all of them,
/// telling formats 1 and 2 apart by the sign of the sync pattern and format 3 by its band
/// layout, so marks embedded by earlier releases keep reading.
public enum WatermarkFormat: Int, Sendable, CaseIterable {
    /// Format 1: convolutional code, rate 1/3, K = 9, zero tail; 192 coded bits, each on
    /// two or three data tiles; sync tiles carry their keyed signs.
    case convolutional = 1
    /// Format 2: polar code, length 512 punctured to the 432 data tiles (one coded bit
    /// each), list-decoded; sync tiles carry their keyed signs negated. About 0.6 dB
    /// stronger than format 1 on the frame's tile channel (docs/watermark.md, section 1).
    case polar = 2
    /// Format 3: format 2's code and sync, with each band's up and down halves interleaved
    /// in 2-bin groups (`BandLayout.interleaved`): the same detection, heard less.
    case interleaved = 3

    /// What `qix embed` writes.
    public static let current = WatermarkFormat.interleaved

    /// Factor on the sync tiles' keyed signs: the sign of the sync correlation peak says
    /// whether a frame on the side-by-side layout carries format 1 or 2.
    public var syncPolarity: Float { self == .convolutional ? 1 : -1 }

    /// How this format's bands divide into up and down halves.
    public var bandLayout: BandLayout { self == .interleaved ? .interleaved : .halves }

    /// Design Bhattacharyya parameter of format 2's polar code: z = exp(-rho^2 / 2) for
    /// tiles at rho = 0.38, about where the hard eval cells fail. Chosen over 0.8, 0.88,
    /// 0.91, 0.95 and 0.97 on the eval's hard cells (docs/watermark.md, section 1).
    static let polarDesignZ = 0.93

    /// The code that protects the payload in this format.
    var code: any PayloadCode {
        switch self {
        case .convolutional: ConvolutionalCode(inputBits: WatermarkParameters.payloadBits)
        case .polar, .interleaved: Self.polarCode
        }
    }

    /// Format 2's code, built once: its construction (reliabilities, frozen nodes) is the
    /// same for every key, embedder and detector.
    private static let polarCode: PolarCode = {
        typealias P = WatermarkParameters
        return PolarCode(inputBits: P.payloadBits, codedBits: P.tileCount - P.syncTilesPerSlot * P.slotsPerFrame,
                         designZ: polarDesignZ)
    }()
}
