/// Running peak and RMS of a signal, for `qix info` and level checks.
public struct SignalLevels: Sendable {
    /// Largest absolute sample value seen.
    public private(set) var peak: Float = 0
    /// Samples seen.
    public private(set) var count: Int64 = 0
    /// Samples that were NaN or infinite (left out of peak and RMS).
    public private(set) var nonFiniteCount: Int64 = 0
    private var sumOfSquares: Double = 0

    /// Starts with nothing seen.
    public init() {}

    /// Adds a block of samples (all channels alike).
    public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        var blockPeak = peak
        var blockSum: Double = 0
        var bad: Int64 = 0
        for x in samples {
            guard x.isFinite else { bad += 1; continue }
            let magnitude = abs(x)
            if magnitude > blockPeak { blockPeak = magnitude }
            blockSum += Double(x * x)
        }
        peak = blockPeak
        sumOfSquares += blockSum
        count += Int64(samples.count)
        nonFiniteCount += bad
    }

    /// Root mean square over the finite samples seen.
    public var rms: Double {
        let finite = count - nonFiniteCount
        return finite > 0 ? (sumOfSquares / Double(finite)).squareRoot() : 0
    }

    /// Peak in dB relative to full scale, or nil for digital silence.
    public var peakDBFS: Double? { Self.decibels(Double(peak)) }

    /// RMS in dB relative to full scale (a full-scale sine reads -3.01), or nil for silence.
    public var rmsDBFS: Double? { Self.decibels(rms) }

    /// 20 log10(amplitude), or nil for zero.
    public static func decibels(_ amplitude: Double) -> Double? {
        amplitude > 0 ? 20 * log10(amplitude) : nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
