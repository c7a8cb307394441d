import Foundation

/// How much the host audio's spectrum changes at each hop of a stretch, for `MarkLocator`:
/// a spot is spliced into the programme around it, and the splice is where the host's
/// band levels jump (vinyl ambience to a rock band, a voice to another voice).
///
/// The change at hop t is the RMS over bands of the difference, in dB, between the mean
/// band levels of the `windowHops` hops before t and of those from t on. Inside one
/// programme it stays under about 10 dB; at the spliced ends of the boundary study's spots
/// it reaches 12-50 dB.
struct HostChange {
    typealias P = WatermarkParameters
    /// Bands the level is measured in, spaced evenly in log frequency over the stored bins.
    static let bandCount = 22
    /// Hops on each side of a hop whose levels are compared (0.26 s).
    static let windowHops = 16
    /// Lowest bin measured (250 Hz at 16 kHz).
    static let firstBin = 16

    /// Band levels in dB, `bandCount` per hop, of the hops from global hop `lower` on.
    let levels: [Float]
    /// Hops measured.
    var count: Int { levels.count / Self.bandCount }

    /// Measures the band levels of global hops `hops` of `spectra`.
    init(_ spectra: HopSpectra, hops: Range<Int>) {
        let edges = Self.bandEdges()
        let width = HopSpectra.width, bands = Self.bandCount
        let rows = max(0, min(hops.upperBound, spectra.endHop) - max(hops.lowerBound, spectra.firstHop))
        var levels = [Float](repeating: 0, count: hops.count * bands)
        spectra.power.withUnsafeBufferPointer { power in
            for h in 0..<rows {
                let row = (hops.lowerBound - spectra.firstHop + h) * width - HopSpectra.lowBin
                for b in 0..<bands {
                    var energy: Float = 1e-12
                    for bin in edges[b]..<edges[b + 1] { energy += power[row + bin] }
                    levels[h * bands + b] = 10 * log10f(energy)
                }
            }
        }
        self.levels = levels
    }

    /// The change at hop `hop` (local, from the first measured hop) in dB; 0 where either
    /// window would leave the stretch.
    func change(at hop: Int) -> Float {
        let w = Self.windowHops
        guard hop >= w, hop + w <= count else { return 0 }
        return difference((hop - w)..<hop, hop..<(hop + w))
    }

    /// The RMS over bands of the difference, in dB, between the mean band levels of hops `a`
    /// and of hops `b` (local, non-empty, inside the stretch).
    func difference(_ a: Range<Int>, _ b: Range<Int>) -> Float {
        let bands = Self.bandCount
        var square: Float = 0
        for band in 0..<bands {
            var first: Float = 0, second: Float = 0
            for h in a { first += levels[h * bands + band] }
            for h in b { second += levels[h * bands + band] }
            let difference = second / Float(b.count) - first / Float(a.count)
            square += difference * difference
        }
        return (square / Float(bands)).squareRoot()
    }

    /// Hop `hop`'s mean band level, dB (local, inside the stretch).
    func hopLevel(_ hop: Int) -> Float {
        var sum: Float = 0
        for b in 0..<Self.bandCount { sum += levels[hop * Self.bandCount + b] }
        return sum / Float(Self.bandCount)
    }

    /// The median over the measured hops of `hopLevel`, dB; 0 when no hop is measured.
    func medianHopLevel() -> Float {
        var hopLevels = (0..<count).map(hopLevel)
        return Percentile.value(&hopLevels, at: 0.5)
    }

    /// The power mean of `hopLevel` over hops `hops` (local, non-empty), dB: a stretch of
    /// speech with a silent pause in it reads as loud as its speech, not as the mean of its dB.
    func powerLevel(_ hops: Range<Int>) -> Float {
        var power: Float = 0
        for h in hops { power += powf(10, hopLevel(h) / 10) }
        return 10 * log10f(power / Float(hops.count))
    }

    /// Band edges (stored bins), spaced by equal frequency ratios, each band at least a bin.
    static func bandEdges() -> [Int] {
        let low = Double(firstBin), high = Double(HopSpectra.highBin)
        var edges = [firstBin]
        for b in 1...bandCount {
            let edge = Int((low * pow(high / low, Double(b) / Double(bandCount))).rounded())
            edges.append(min(HopSpectra.highBin, max(edges[b - 1] + 1, edge)))
        }
        return edges
    }
}
