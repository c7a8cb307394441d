/// A low-pass cut inside the watermark band: where a steep filter (a narrow-band codec,
/// a phone's or a Bluetooth headset's band limit, a sinc filter) has removed every band
/// above some frequency, those bands hold only what the analysis window leaks into them
/// from below, or the output's dither. Their chip statistics are then noise, and since
/// every band is scaled to unit RMS before decoding (`FrameFold`), noise with the weight
/// of a band that carries the mark: with half the bands cut, a third of the decoder's
/// input. The detector finds such a cut in each block of hops and gives the bands above
/// it no weight (docs/watermark.md, section 3).
///
/// A cut starts at band c when every band from c up lies at least `minimumDrop` under
/// band c - 2, the band c - 1 between them being the filter's transition and the reach
/// of the window's main lobe. On the corpus hosts, over every 3 s stretch, the largest
/// such drop from 2.5 kHz up is 20 dB (a09, a quiet ambience whose upper bands fall to
/// its recording's hiss; a05's speech 18 dB, the others under 9 dB); behind a steep
/// filter at 3.4 or 4 kHz it is 40 to 67 dB. A filter gentle enough to leave less keeps
/// the mark in the bands it attenuates, since scaling a band scales both its halves.
enum BandCutoff {
    typealias P = WatermarkParameters

    /// Energy ratio of the band two under a cut to the loudest band above it (30 dB).
    static let minimumDrop = 1000.0
    /// The lowest band a cut may start at (band 8 spans 2.5-2.75 kHz): under it, quiet
    /// recordings' spectra fall as steeply as filters do.
    static let lowestBand = 8
    /// Hops per block judged on its own: one frame (3.07 s), long enough for a stable
    /// spectrum, short enough to follow a recording from one programme to the next.
    static let blockHops = P.hopsPerFrame

    /// Doubles kept per band and block: the sum of its hops' energies and the three largest.
    static let slotSize = 4

    /// Adds one hop's band energy to a band's slot (`slotSize` values, zeroed to start).
    @inline(__always)
    static func add(_ energy: Double, to slot: UnsafeMutablePointer<Double>) {
        slot[0] += energy
        guard energy > slot[3] else { return }
        if energy > slot[1] {
            slot[3] = slot[2]; slot[2] = slot[1]; slot[1] = energy
        } else if energy > slot[2] {
            slot[3] = slot[2]; slot[2] = energy
        } else {
            slot[3] = energy
        }
    }

    /// A band's energy over a block without its three loudest hops: an input's first and
    /// last hops hold the click of its abrupt start and end (a clip cut from a recording),
    /// whose broad spectrum would fill the bands above a cut and hide it.
    @inline(__always)
    static func typicalTotal(_ slot: UnsafePointer<Double>) -> Double {
        max(0, slot[0] - slot[1] - slot[2] - slot[3])
    }

    /// The first band of a cut in `totals` (one energy per band, summed over a block),
    /// or `totals.count` when there is none.
    static func firstCutBand(_ totals: UnsafeBufferPointer<Double>) -> Int {
        var loudestAbove = 0.0
        var cut = totals.count
        var band = totals.count - 1
        while band >= max(2, lowestBand) {
            loudestAbove = max(loudestAbove, totals[band])
            // The lowest qualifying band wins: scanning down, a later match overrides.
            if totals[band - 2] > loudestAbove * minimumDrop { cut = band }
            band -= 1
        }
        return cut
    }

    /// The blocks of `hops` (global hop indices) judged together, as ranges of block
    /// numbers counted from the block holding `hops.lowerBound`: blocks on the global
    /// grid of `blockHops`, an end block with under half a block in `hops` joined to its
    /// neighbour.
    static func groups(of hops: Range<Int>) -> [Range<Int>] {
        guard !hops.isEmpty else { return [] }
        let first = hops.lowerBound / blockHops, count = (hops.upperBound - 1) / blockHops - first + 1
        guard count > 1 else { return [0..<1] }
        let headShort = (first + 1) * blockHops - hops.lowerBound < blockHops / 2
        let tailShort = hops.upperBound - (first + count - 1) * blockHops < blockHops / 2
        var groups = (0..<count).map { $0..<($0 + 1) }
        if tailShort { groups[count - 2] = (count - 2)..<count; groups.removeLast() }
        if headShort, groups.count > 1 { groups[1] = 0..<groups[1].upperBound; groups.removeFirst() }
        return groups
    }
}
