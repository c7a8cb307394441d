import Foundation

/// Informed embedding: chooses the watermark depth of every tile from the host itself.
///
/// The detector reads a tile as the sum over its 8 hops of (U - D) / (U + D), minus the
/// band's local mean. The host alone already gives each tile some value h (its own
/// random up/down imbalance), which a fixed depth leaves as noise that is several times
/// the mark. Knowing h, the embedder gives each tile just the depth that moves
/// chip x value to a common margin: little where the host already agrees with the chip,
/// more (up to a cap) where it disagrees. How much a tile's value moves per unit depth
/// is measured, not modelled: one probe pass at a fixed depth through the detector's own
/// analysis. The margin is the largest whose total watermark energy stays `targetSNR`
/// dB under the host's, and no tile goes deeper than `cap`.
struct InformedGains {
    typealias P = WatermarkParameters
    /// Tile values as the detector computes them at speed 1 and offset 0, per global
    /// slot and band, plus each tile's band energy.
    static func tiles(_ spectra: HopSpectra) -> (values: [Float], energy: [Float]) {
        let bands = P.bandCount
        var stats: [Float] = []
        SpeedScale(speed: 1).statistics(spectra, hops: spectra.firstHop..<spectra.endHop, into: &stats)
        let hops = stats.count / bands
        let slots = (hops + P.hopsPerSlot - 1) / P.hopsPerSlot
        var values = [Float](repeating: 0, count: slots * bands)
        var energy = [Float](repeating: 0, count: slots * bands)
        let width = HopSpectra.width
        spectra.power.withUnsafeBufferPointer { power in
            for m in 0..<hops {
                let q = m / P.hopsPerSlot
                for b in 0..<bands {
                    values[q * bands + b] += stats[m * bands + b]
                    let first = (m * width) + P.firstBin + 2 * P.binsPerHalfBand * b - HopSpectra.lowBin
                    var total: Float = 0
                    for k in 0..<(2 * P.binsPerHalfBand) { total += power[first + k] }
                    energy[q * bands + b] += total
                }
            }
        }
        return (values, energy)
    }

    /// Largest depth of any tile: the mark stays at least 12 dB under the host in every tile.
    static let cap: Float = 0.25
    /// Smallest depth of a tile that has energy: every tile keeps some mark.
    static let floor: Float = 0.03

    /// Depth per (global slot, band) for a 16 kHz mono host, given the frame's `chips`,
    /// so that the watermark energy is `targetSNR` dB under the host's; `synthesis`
    /// builds a delta for given gains.
    static func gains(host: [Float], chips: [Float], targetSNR: Double,
                      synthesis: ([Float]) -> [Float]) throws -> [Float] {
        let bands = P.bandCount
        let analyse = { (signal: [Float]) throws -> HopSpectra in
            try SpectralFrontEnd.spectra(of: AudioBufferView.mono16k(signal))
        }
        let (hostValues, energy) = tiles(try analyse(host))
        let count = hostValues.count
        let chip = { (t: Int) -> Float in chips[((t / bands) % P.slotsPerFrame) * bands + t % bands] }
        // Probe: the response of every tile to a uniform depth, and what a unit of
        // depth squared costs in delta energy.
        let probe: Float = 0.1
        let probeDelta = synthesis([Float](repeating: probe, count: count))
        var probed = host
        var hostEnergy = 0.0, probeEnergy = 0.0, tileEnergy = 0.0
        for i in 0..<probed.count {
            hostEnergy += Double(host[i] * host[i])
            probeEnergy += Double(probeDelta[i] * probeDelta[i])
            probed[i] += probeDelta[i]
        }
        for e in energy { tileEnergy += Double(e) }
        var result = [Float](repeating: 0, count: count)
        guard hostEnergy > 0, probeEnergy > 0, tileEnergy > 0 else { return result }
        let costPerUnit = probeEnergy / (Double(probe * probe) * tileEnergy)
        let budget = hostEnergy * pow(10, -targetSNR / 10) / costPerUnit
        let plain = Float(min(Double(cap), (budget / tileEnergy).squareRoot()))
        let probeValues = tiles(try analyse(probed)).values
        var response = [Float](repeating: 0, count: count)
        var agreement = [Float](repeating: 0, count: count)
        var sorted: [Float] = []
        for t in 0..<count {
            agreement[t] = chip(t) * hostValues[t]
            response[t] = t < probeValues.count ? chip(t) * (probeValues[t] - hostValues[t]) / probe : 0
            if energy[t] > 0 { sorted.append(response[t]) }
        }
        sorted.sort()
        let typical = sorted.isEmpty ? 1 : max(sorted[sorted.count / 2], 1e-3)
        for t in 0..<count { response[t] = max(response[t], 0.2 * typical) }
        func depths(margin: Float) -> Double {
            var used: Double = 0
            for t in 0..<count {
                // A tile the cap cannot bring to the margin gets the plain depth: spending
                // the cap on it would starve every other tile.
                let needed = (margin - agreement[t]) / response[t]
                let d = energy[t] == 0 ? 0 : needed > cap ? plain : max(floor, needed)
                result[t] = d
                used += Double(d * d * energy[t])
            }
            return used
        }
        // Bisect the margin: the energy used grows with it.
        var low: Float = 0, high: Float = 64
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if depths(margin: mid) > budget { high = mid } else { low = mid }
        }
        _ = depths(margin: low)
        return result
    }
}
