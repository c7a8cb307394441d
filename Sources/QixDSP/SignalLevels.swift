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
        // Runs of 1024 go through a branch-free loop the compiler vectorises; a run whose
        // sum of squares is not finite (a NaN or an infinity in it) is redone sample by
        // sample to leave those out.
        var blockPeak = peak
        var blockSum: Double = 0
        var bad: Int64 = 0
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + 1024)
            var peaks = SIMD8<Float>(repeating: 0), sums = SIMD8<Float>(repeating: 0)
            var i = start
            if let base = samples.baseAddress {
                let raw = UnsafeRawPointer(base)
                while i + 8 <= end {
                    let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                    // |v| by clearing the sign bit: one AND instead of a compare and a select.
                    let magnitudes = unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
                    peaks.replace(with: magnitudes, where: magnitudes .> peaks)
                    sums += v * v
                    i += 8
                }
            }
            var runPeak = peaks.max(), runSum = sums.sum()
            while i < end {
                let magnitude = abs(samples[i])
                runPeak = magnitude > runPeak ? magnitude : runPeak
                runSum += magnitude * magnitude
                i += 1
            }
            if runSum.isFinite {
                if runPeak > blockPeak { blockPeak = runPeak }
                blockSum += Double(runSum)
            } else {
                for i in start..<end {
                    let x = samples[i]
                    guard x.isFinite else { bad += 1; continue }
                    let magnitude = abs(x)
                    if magnitude > blockPeak { blockPeak = magnitude }
                    blockSum += Double(x * x)
                }
            }
            start = end
        }
        peak = blockPeak
        sumOfSquares += blockSum
        count += Int64(samples.count)
        nonFiniteCount += bad
    }

    /// Sum of the squares of the finite samples seen (the signal's energy).
    public var energy: Double { sumOfSquares }

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
