import Foundation

/// How far the masking model lets the mark go (`TileMasking`): the largest change of any
/// auditory filter's excitation a tile's mark may cause, and the deepest any tile may be.
///
/// The standard limits (1.9 dB, depth 0.5) change the ear's filter excitations as much as
/// format 1's single cap did, a level never tested by listening; higher limits make the
/// mark markedly more robust (docs/watermark.md, section 7) and are what a listening test
/// (`Benchmarks/quality/abx_kit.py`) has to clear before they could become the default.
public struct MaskingLimits: Sendable, Equatable {
    /// Largest change (dB) of any auditory filter's excitation that a tile's mark may cause.
    public let excitationChange: Float
    /// Deepest relative change of a tile's bins anywhere (0.5: at least 6 dB under the host).
    public let largestDepth: Float
    /// How far (dB) the mark's energy in a tile may rise above the host's masked threshold
    /// there (`MaskedThreshold`); nil leaves the threshold out (the excitation limit alone).
    public var maskMargin: Float?
    /// How far (dB) the mark's energy may rise above the host's masked threshold in a quiet
    /// slot, one `quietLevel` dB or more under the median slot of the stretch planned: speech
    /// pauses, quiet syllables, a note's decay. nil plans quiet slots as every other slot.
    public var quietMargin: Float?
    /// How far (dB) under the median slot's energy a slot counts as quiet.
    public static let quietLevel: Float = 3

    /// The tuned default: 1.9 dB, depth 0.5, quiet slots 12 dB under their masked threshold.
    public static let standard = MaskingLimits(uncheckedExcitationChange: 1.9, largestDepth: 0.5, quietMargin: -12)

    /// Limits for experiments and listening tests; `excitationChange` must be in (0, 6] dB
    /// and `largestDepth` in (0, 0.9] (the down half keeps a tenth of its amplitude).
    public init(excitationChange: Float, largestDepth: Float) throws {
        guard excitationChange.isFinite, excitationChange > 0, excitationChange <= 6 else {
            throw WatermarkError("invalid masking limit", parameter: "excitationLimit",
                                 "must be a number of dB in (0, 6], got \(excitationChange)")
        }
        guard largestDepth.isFinite, largestDepth > 0, largestDepth <= TileDepths.deepest else {
            throw WatermarkError("invalid masking limit", parameter: "largestDepth",
                                 "must be a number in (0, \(TileDepths.deepest)], got \(largestDepth)")
        }
        self.init(uncheckedExcitationChange: excitationChange, largestDepth: largestDepth,
                  quietMargin: Self.standard.quietMargin)
    }

    private init(uncheckedExcitationChange: Float, largestDepth: Float, maskMargin: Float? = nil, quietMargin: Float?) {
        excitationChange = uncheckedExcitationChange
        self.largestDepth = largestDepth
        self.maskMargin = maskMargin
        self.quietMargin = quietMargin
    }

    /// The same limits with quiet slots kept `margin` dB from the masked threshold (nil: planned
    /// as every other slot); `margin` must be in [-40, 20] dB.
    public func withQuietMargin(_ margin: Float?) throws -> MaskingLimits {
        var limits = self
        limits.quietMargin = try Self.checked(margin, parameter: "quietMargin", in: -40...20)
        return limits
    }

    /// The margin to the masked threshold for a slot of energy `energy` in a stretch whose
    /// median slot has `median`: the tighter of `maskMargin` and, in a quiet slot,
    /// `quietMargin`; nil where neither applies.
    func margin(slotEnergy energy: Float, median: Float) -> Float? {
        guard let quiet = quietMargin, energy < median * pow(10, -Self.quietLevel / 10) else { return maskMargin }
        return min(quiet, maskMargin ?? quiet)
    }

    /// The same limits with the mark kept `margin` dB from the masked threshold (nil: off).
    public func withMaskMargin(_ margin: Float?) throws -> MaskingLimits {
        var limits = self
        limits.maskMargin = try Self.checked(margin, parameter: "maskMargin", in: -20...20)
        return limits
    }

    /// `margin` when it is nil or a finite number of dB in `range`; otherwise the error that
    /// names `parameter`.
    private static func checked(_ margin: Float?, parameter: String, in range: ClosedRange<Float>) throws -> Float? {
        if let margin, !(margin.isFinite && range.contains(margin)) {
            throw WatermarkError("invalid masking limit", parameter: parameter,
                                 "must be a number of dB in [\(Int(range.lowerBound)), \(Int(range.upperBound))], got \(margin)")
        }
        return margin
    }
}
