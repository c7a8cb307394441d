import Testing
@testable import QixWatermark

/// How each layout divides a band: what the embedder's synthesis and the detector's
/// statistics both rely on.
@Suite struct BandLayoutTests {
    typealias P = WatermarkParameters

    /// Every band of every layout has as many up bins as down bins, in whole groups.
    @Test(arguments: BandLayout.allCases)
    func everyBandIsBalancedInWholeGroups(_ layout: BandLayout) {
        let bins = 2 * P.binsPerHalfBand
        #expect(bins % layout.binsPerGroup == 0 && layout.groupsPerBand * layout.binsPerGroup == bins)
        for band in 0..<P.bandCount {
            let up = (0..<bins).filter { layout.isUpBin(band: band, bin: $0) }
            #expect(up.count == P.binsPerHalfBand, "band \(band)")
            for bin in 0..<bins {
                #expect(layout.isUpBin(band: band, bin: bin) == layout.isUpBin(band: band, bin: bin / layout.binsPerGroup * layout.binsPerGroup))
            }
        }
    }

    /// Formats 1 and 2 keep their side-by-side halves: the lower 125 Hz up, the upper down.
    @Test func halvesAreSideBySide() {
        for band in 0..<P.bandCount {
            #expect((0..<8).map { BandLayout.halves.isUpBin(band: band, bin: $0) } == [true, true, true, true, false, false, false, false])
        }
    }

    /// The interleaved layout changes sign within every 125 Hz half-width and uses both the
    /// alternating and the nested order, so its ripple has no single period.
    @Test func interleavedGroupsAlternateAndVaryAcrossBands() {
        var shapes = Set<[Bool]>()
        for band in 0..<P.bandCount {
            let order = (0..<4).map { BandLayout.interleaved.isUp(band: band, group: $0) }
            #expect(order != [true, true, false, false] && order != [false, false, true, true], "band \(band)")
            // A chip flips the sign, so an order and its negation are one shape.
            shapes.insert(order[0] ? order : order.map { !$0 })
        }
        #expect(shapes == [[true, false, true, false], [true, false, false, true]])
    }

    /// The detector reads a band's statistic from the same bins the embedder marks up.
    @Test(arguments: BandLayout.allCases)
    func speedScaleGroupsMatchTheLayout(_ layout: BandLayout) {
        let scale = SpeedScale(speed: 1, layout: layout)
        #expect(scale.groupCount == P.bandCount * layout.groupsPerBand)
        for (g, half) in scale.groupHalves.enumerated() {
            let band = g / layout.groupsPerBand
            #expect(half / 2 == band)
            #expect((half % 2 == 0) == layout.isUp(band: band, group: g % layout.groupsPerBand))
        }
    }
}
