import Foundation
import QixDSP

/// Builds the watermark signal (the delta) for a 16 kHz signal: sqrt-Hann STFT at 50 %
/// overlap, each band bin scaled by +-depth per its tile's chip and half band (as the
/// format's `BandLayout` divides the band), inverse
/// STFT with overlap-add (sqrt-Hann twice sums to one, so where the chip is constant the
/// delta is exactly +-depth times the host's band component).
///
/// Frame m (hop index) covers 16 kHz samples [(m - 1) 256, (m + 1) 256) and belongs to
/// slot m / 8, so a stream cut into slot-aligned segments gets, frame for frame, the same
/// delta as the whole signal would (`add(frames:...)`).
struct DeltaSynthesizer {
    typealias P = WatermarkParameters
    let chips: [Float]
    /// Depth per (slot, band) from `TileDepths`, starting at global slot `firstSlot`.
    let gains: [Float]
    /// Global slot of `gains`' first row; a multiple of `slotsPerFrame`.
    var firstSlot = 0
    /// Which bins of a band are its up half.
    var layout = BandLayout.halves

    /// The delta of a whole signal (frames up to the one centred past its last sample).
    func delta(for signal: [Float]) -> [Float] {
        let count = signal.count
        var output = [Float](repeating: 0, count: count)
        signal.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                add(frames: 0..<((count + P.hop - 1) / P.hop + 1), of: x, startingAt: 0, into: y, startingAt: 0)
            }
        }
        return output
    }

    /// Adds the delta of `frames` (global hop indices) into `output`, whose first value is
    /// global sample `outputStart`; the signal is `signal` from global sample
    /// `signalStart`, zero outside it. Output samples outside `output` are dropped.
    func add(frames: Range<Int>, of signal: UnsafeBufferPointer<Float>, startingAt signalStart: Int,
             into output: UnsafeMutableBufferPointer<Float>, startingAt outputStart: Int) {
        let n = P.fftSize, hop = P.hop
        let fft = RealFFT(size: n)
        var window = [Float](repeating: 0, count: n)
        for i in 0..<n { window[i] = Float(sin(Double.pi * Double(i) / Double(n))) }
        let scale = 1 / Float(n)
        let slotCount = gains.count / P.bandCount
        guard slotCount > 0 else { return }
        // Per-bin gain pattern of one slot, rebuilt only when the slot changes.
        var gain = [Float](repeating: 0, count: P.endBin)
        var currentSlot = -1
        let input = fft.input, spectrum = fft.spectrum
        window.withUnsafeBufferPointer { window in
            for m in frames {
                let globalSlot = min(m / P.hopsPerSlot, firstSlot + slotCount - 1)
                let row = max(0, globalSlot - firstSlot)
                if globalSlot != currentSlot {
                    currentSlot = globalSlot
                    let slot = globalSlot % P.slotsPerFrame
                    for band in 0..<P.bandCount {
                        let chip = chips[slot * P.bandCount + band] * scale * gains[row * P.bandCount + band]
                        let first = P.firstBin + 2 * P.binsPerHalfBand * band
                        for k in 0..<(2 * P.binsPerHalfBand) {
                            gain[first + k] = layout.isUpBin(band: band, bin: k) ? chip : -chip
                        }
                    }
                }
                // Frame samples that lie inside `signal`; the rest are zero.
                let start = m * hop - hop
                let lower = max(0, signalStart - start), upper = min(n, signalStart + signal.count - start)
                guard lower < upper else { continue }
                for i in 0..<lower { input[i] = 0 }
                // From the frame's first sample inside the signal (index `lower`).
                let energy = FrameWindow.apply(signal.baseAddress! + (start - signalStart + lower), window.baseAddress! + lower,
                                               into: input.baseAddress! + lower, count: upper - lower)
                for i in upper..<n { input[i] = 0 }
                if energy == 0 { continue }
                fft.forward()
                for k in 0..<P.firstBin { spectrum[2 * k] = 0; spectrum[2 * k + 1] = 0 }
                for k in P.firstBin..<P.endBin {
                    spectrum[2 * k] *= gain[k]
                    spectrum[2 * k + 1] *= gain[k]
                }
                for k in P.endBin..<fft.binCount { spectrum[2 * k] = 0; spectrum[2 * k + 1] = 0 }
                fft.inverse()
                let outLower = max(0, outputStart - start), outUpper = min(n, outputStart + output.count - start)
                guard outLower < outUpper else { continue }
                // From pointers at the first sample inside `output`: no checked index sums, so it vectorises.
                let target = output.baseAddress! + (start - outputStart + outLower)
                let synthesized = input.baseAddress! + outLower, fade = window.baseAddress! + outLower
                for j in 0..<(outUpper - outLower) { target[j] += synthesized[j] * fade[j] }
            }
        }
    }
}
