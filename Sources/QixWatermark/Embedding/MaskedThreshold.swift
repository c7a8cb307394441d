import Foundation

/// The host's masked threshold in each watermark band of one slot (128 ms), computed as a
/// perceptual audio coder does (Johnston 1988; MPEG-1 psychoacoustic model 2), and the
/// depth at which the mark's energy in a band reaches it.
///
/// The mark changes a tile's bins by a factor 1 +- d, so it adds d^2 times the band's
/// energy E_b as noise (what PEAQ measures: (|X_ref| - |X_test|)^2 per bin). Each band j
/// of the slot masks with its energy spread over the Bark scale (Schroeder's function) and
/// lowered by an offset that depends on how tonal it is: a tone masks noise only
/// 14.5 + z dB under itself, noise 5.5 dB under itself. The threshold of band b is the sum
/// of all bands' spread, offset energies, so the depth allowed is sqrt(T_b / E_b), raised by
/// the margin (dB). Tonality is the band's spectral flatness over its 8 bins (250 Hz), summed
/// over the slot's 8 hops: about -0.3 dB for noise, -10 dB and less for a resolved partial.
enum MaskedThreshold {
    typealias P = WatermarkParameters

    /// Spectral flatness (dB) at or above which a band counts as noise.
    static let noiseFlatness: Float = -1
    /// Spectral flatness (dB) at or below which a band counts as a tone.
    static let toneFlatness: Float = -10

    /// Bark (Zwicker & Terhardt) of each band's centre.
    static let bandBark: [Double] = (0..<P.bandCount).map { b in
        let hz = (Double(P.firstBin + 2 * P.binsPerHalfBand * b) + Double(P.binsPerHalfBand)) * Double(P.sampleRate) / Double(P.fftSize)
        let khz = hz / 1000
        return 13 * atan(0.76 * khz) + 3.5 * atan((khz / 7.5) * (khz / 7.5))
    }

    /// Schroeder's spreading, as a power ratio, from masker band j (column) to maskee band
    /// b (row): 15.81 + 7.5 (dz + 0.474) - 17.5 sqrt(1 + (dz + 0.474)^2) dB, dz = z_b - z_j.
    static let spreading: [Float] = {
        let n = P.bandCount
        var table = [Float](repeating: 0, count: n * n)
        for b in 0..<n {
            for j in 0..<n {
                let x = bandBark[b] - bandBark[j] + 0.474
                table[b * n + j] = Float(pow(10, (15.81 + 7.5 * x - 17.5 * (1 + x * x).squareRoot()) / 10))
            }
        }
        return table
    }()

    /// Writes each band's masked depth for one slot's bin powers (`HopSpectra.width` of
    /// them, summed over the slot's hops) into `depths` (`bandCount` values); `scratch`
    /// holds two values per band. Bands without energy get depth 0.
    static func depths(_ power: UnsafeBufferPointer<Float>, margin: Float, scratch: inout [Float], into depths: inout [Float]) {
        let n = P.bandCount
        // scratch[j]: band j's energy; scratch[n + j]: its masking energy after the offset.
        for j in 0..<n {
            let first = TileMasking.bandStart(j)
            var sum: Float = 0, logSum: Float = 0
            for k in first..<(first + 2 * P.binsPerHalfBand) {
                sum += power[k]
                logSum += log(max(power[k], Float.leastNormalMagnitude))
            }
            scratch[j] = sum
            guard sum > 0 else { scratch[n + j] = 0; continue }
            let bins = Float(2 * P.binsPerHalfBand)
            let flatness = 10 * (logSum / bins - log(sum / bins)) / Float(M_LN10)
            let tonality = min(1, max(0, (noiseFlatness - flatness) / (noiseFlatness - toneFlatness)))
            let offset = tonality * (14.5 + Float(bandBark[j])) + (1 - tonality) * 5.5
            scratch[n + j] = sum * pow(10, -offset / 10)
        }
        let gain = pow(10, margin / 10)
        for b in 0..<n {
            guard scratch[b] > 0 else { depths[b] = 0; continue }
            var threshold: Float = 0
            for j in 0..<n { threshold += spreading[b * n + j] * scratch[n + j] }
            depths[b] = (gain * threshold / scratch[b]).squareRoot()
        }
    }
}
