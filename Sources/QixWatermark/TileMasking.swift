import Foundation

/// The masking model: how deep the mark may go in each tile (band x slot) before the ear
/// can tell, from the band's place on the ear's frequency scale and the host's tonality there.
///
/// The mark scales a band's lower 125 Hz half by 1 + d and its upper half by 1 - d (or the
/// reverse). What the ear hears of that is the change of excitation in its auditory filters.
/// Where a filter is narrower than a half (under about 1 kHz, ERB 80-130 Hz) it sees one half
/// alone, a change of 20 log10(1 +- d) dB; where it is wider (ERB 240 Hz at 2 kHz, 660 Hz at
/// 6 kHz) it spans halves changed both ways, which largely cancel. `bandCaps` holds, per band,
/// the depth whose worst excitation change (Patterson's roex(p) filters centred anywhere in
/// the band, flat host spectrum, neighbouring bands' chips the worst way round) equals that of
/// depth 0.25 in the lowest band, 2.3 dB: format 1's one cap, 12 dB under the host, kept as
/// the limit everywhere, and capped at 0.5 (6 dB under the host).
///
/// That cancelling needs host energy spread over the band. Resolved partials (a tone, or
/// harmonics further apart than a filter) are heard one by one, each changed by the full
/// 20 log10(1 +- d); so are bands whose energy sits in one half. Both show as low spectral
/// flatness over the band's 8 bins (one steady tone: about -25 dB; two partials: about
/// -15 dB; noise: about -2 dB). A tile's cap falls from its band's cap at a flatness of
/// `noiseFlatness` to `tonalCap` at `tonalFlatness` (log-linear between).
///
/// Measured against the single cap 0.25, same SNR (20.2 dB), same eval excerpts (108 per cell,
/// 3 / 5 s, `--skip-false-positives`; docs/watermark.md, section 2): pink noise 65 / 83 ->
/// 94 / 93, room 50 / 61 -> 68 / 97, hall_ir 63 / 84 -> 86 / 104, cheering 33 / 50 -> 53 / 65
/// excerpts decoded; PESQ-WB on the speech hosts 4.55 -> 4.49 mean, 4.44 -> 4.34 minimum.
enum TileMasking {
    typealias P = WatermarkParameters

    /// Largest depth where the host is tonal (and in the lowest band): 12 dB under the host.
    static let tonalCap: Float = 0.25
    /// Largest depth anywhere: 6 dB under the host.
    static let largestCap: Float = 0.5
    /// Largest depth per band (500 Hz up, 250 Hz each) over a noise-like host, from the
    /// auditory-filter model above (`Benchmarks/quality/erb_caps.py` computes it), capped at
    /// `largestCap`.
    static let bandCaps: [Float] = [0.250, 0.279, 0.326, 0.354, 0.380, 0.407, 0.434, 0.460, 0.484, 0.5, 0.5,
                                    0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    /// Spectral flatness (dB) from which a tile counts as noise-like: white noise gives -2 dB
    /// per hop on average, -3.5 to -0.7 for 80 % of hops.
    static let noiseFlatness: Float = -3
    /// Spectral flatness (dB) at and below which a tile counts as tonal.
    static let tonalFlatness: Float = -8

    /// The cap of a tile in `band` whose host has spectral flatness `flatness` dB.
    static func cap(band: Int, flatness: Float) -> Float {
        let tonality = min(1, max(0, (noiseFlatness - flatness) / (noiseFlatness - tonalFlatness)))
        return exp((1 - tonality) * log(bandCaps[band]) + tonality * log(tonalCap))
    }

    /// Energy and cap of each (global slot, band) tile of a 16 kHz analysis: the power of the
    /// band's bins summed over the slot's hops, and the cap from the band and the tile's
    /// spectral flatness (per hop, geometric over arithmetic mean of the band's bin powers;
    /// averaged over the slot's hops weighted by their energy).
    static func tiles(_ spectra: HopSpectra) -> (energy: [Float], cap: [Float]) {
        let bands = P.bandCount, width = HopSpectra.width, bins = 2 * P.binsPerHalfBand
        let hops = spectra.count
        let slots = (hops + P.hopsPerSlot - 1) / P.hopsPerSlot
        var energy = [Float](repeating: 0, count: slots * bands)
        var weightedFlatness = [Float](repeating: 0, count: slots * bands)
        let decibelsPerNeper = 10 / log(Float(10))
        spectra.power.withUnsafeBufferPointer { power in
            for m in 0..<hops {
                let q = m / P.hopsPerSlot
                for b in 0..<bands {
                    let first = m * width + P.firstBin + 2 * P.binsPerHalfBand * b - HopSpectra.lowBin
                    var total: Float = 0, logs: Float = 0
                    for k in 0..<bins {
                        total += power[first + k]
                        logs += log(max(power[first + k], .leastNormalMagnitude))
                    }
                    energy[q * bands + b] += total
                    guard total > 0 else { continue }
                    let flatness = decibelsPerNeper * (logs / Float(bins) - log(total / Float(bins)))
                    weightedFlatness[q * bands + b] += flatness * total
                }
            }
        }
        var cap = [Float](repeating: tonalCap, count: slots * bands)
        for t in cap.indices where energy[t] > 0 {
            cap[t] = Self.cap(band: t % bands, flatness: weightedFlatness[t] / energy[t])
        }
        return (energy, cap)
    }
}
