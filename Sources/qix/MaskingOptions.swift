import ArgumentParser
import QixWatermark

/// The masking model's limits, for robustness experiments and listening tests: `qix embed`
/// and `qix eval` share them (docs/watermark.md, section 7).
struct MaskingOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Experimental: the largest change (dB) of any auditory filter's excitation a tile's mark may cause; (0, 6], default 1.9. Higher is more robust and may be heard.")
    var excitationLimit: Float?

    @Option(parsing: .unconditional, help: "Experimental: the deepest relative change of any tile's bins; (0, 0.9], default 0.5 (6 dB under the host). Only matters with a higher --excitation-limit.")
    var largestDepth: Float?

    @Option(parsing: .unconditional, help: "Experimental: how far (dB) the mark may rise above the host's masked threshold in a tile; [-20, 20]. Without it the excitation limit alone caps the mark.")
    var maskMargin: Float?

    /// The limits asked for, checked; the standard ones when no option is given.
    func limits() throws -> MaskingLimits {
        guard excitationLimit != nil || largestDepth != nil || maskMargin != nil else { return .standard }
        let limits = try MaskingLimits(excitationChange: excitationLimit ?? MaskingLimits.standard.excitationChange,
                                       largestDepth: largestDepth ?? MaskingLimits.standard.largestDepth)
        return try limits.withMaskMargin(maskMargin ?? MaskingLimits.standard.maskMargin)
    }
}
