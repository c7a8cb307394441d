import Testing
@testable import QixWatermark

/// The host change that `MarkLocator` carries a spot's end to: found at a splice, and small
/// inside one programme.
@Suite struct HostChangeTests {
    /// Hop spectra whose hops before `splice` have power `before(bin)` and from it on `after(bin)`.
    static func spectra(hops: Int, splice: Int, before: (Int) -> Float, after: (Int) -> Float) -> HopSpectra {
        var spectra = HopSpectra()
        for h in 0..<hops {
            for bin in HopSpectra.lowBin..<HopSpectra.highBin {
                spectra.power.append(h < splice ? before(bin) : after(bin))
            }
        }
        return spectra
    }

    @Test func findsTheSpliceFromQuietAmbienceToALoudProgramme() {
        // -40 dB flat hiss, then a programme loud in its low bands: the vinyl-to-rock splice.
        let spectra = Self.spectra(hops: 100, splice: 57, before: { _ in 1e-4 }, after: { $0 < 80 ? 1e-1 : 1e-3 })
        let change = HostChange(spectra, hops: 0..<100)
        let found = change.largestChange(in: 16...84)
        #expect(found.hop == 57)
        #expect(found.change > MarkLocator.spliceChange, "measured \(found.change) dB")
    }

    @Test func staysUnderASpliceInsideOneProgramme() {
        // The same hiss with a level that wanders by 3 dB from hop to hop.
        var state: UInt32 = 12345
        let spectra = Self.spectra(hops: 100, splice: 100, before: { _ in
            state = state &* 1_103_515_245 &+ 12345
            return 1e-4 * (1 + Float(state >> 16 & 0xFF) / 255)
        }, after: { _ in 0 })
        let change = HostChange(spectra, hops: 0..<100)
        #expect(change.largestChange(in: 16...84).change < 10)
    }

    @Test func aHopWhoseWindowsLeaveTheStretchScoresNothing() {
        let spectra = Self.spectra(hops: 40, splice: 5, before: { _ in 1e-4 }, after: { _ in 1 })
        let change = HostChange(spectra, hops: 0..<40)
        #expect(change.change(at: 5) == 0)
        #expect(change.change(at: 30) == 0)
    }

    @Test func differenceIsTheRMSOverBandsOfTheMeanLevels() {
        let spectra = Self.spectra(hops: 40, splice: 20, before: { _ in 1e-4 }, after: { _ in 1e-2 })
        let host = HostChange(spectra, hops: 0..<40)
        #expect(abs(host.difference(0..<20, 20..<40) - 20) < 0.01)
        #expect(abs(host.difference(10..<30, 20..<40) - 10) < 0.01)
        #expect(host.difference(0..<10, 10..<20) < 0.01)
    }

    @Test func bandEdgesRiseAndStayInsideTheStoredBins() {
        let edges = HostChange.bandEdges()
        #expect(edges.count == HostChange.bandCount + 1)
        #expect(zip(edges, edges.dropFirst()).allSatisfy { $0 < $1 })
        #expect(edges.first == HostChange.firstBin && edges.last == HopSpectra.highBin)
    }
}

extension HostChange {
    /// The hop of `hops` (local) where the change is largest, with that change: what the tests
    /// read of a stretch (`MarkLocator.splice` asks more of a splice than the largest change).
    func largestChange(in hops: ClosedRange<Int>) -> (hop: Int, change: Float) {
        var best = (hop: hops.lowerBound, change: Float(0))
        for hop in hops {
            let value = change(at: hop)
            if value > best.change { best = (hop, value) }
        }
        return best
    }
}
