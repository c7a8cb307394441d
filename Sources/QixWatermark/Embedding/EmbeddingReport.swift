import Foundation
import QixDSP

/// What one embedding pass read and added: what a producer checks before a spot goes to air.
public struct EmbeddingReport: Sendable {
    /// Peak, RMS and non-finite count of the input.
    public let input: SignalLevels
    /// Peak and RMS of the watermark added (output minus input, before the output's own
    /// quantisation).
    public let watermark: SignalLevels
    /// Input frames read.
    public let frames: Int64

    /// Input over watermark energy in dB, all channels at the input's rate (the figure
    /// `qix eval` reports per clip); nil when nothing was added, as over silence.
    public var watermarkSNR: Double? {
        guard watermark.rms > 0, input.rms > 0 else { return nil }
        return 20 * log10(input.rms / watermark.rms)
    }
}
