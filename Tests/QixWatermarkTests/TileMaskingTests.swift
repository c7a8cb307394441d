import Foundation
import Testing
import QixAudio
@testable import QixWatermark

/// The masking model: a cap per band from the ear's frequency resolution, lowered to the
/// format-1 cap where the host is tonal.
struct TileMaskingTests {
    typealias P = WatermarkParameters

    @Test("band caps rise with the auditory filters' width, from 0.25 at 500 Hz to at most 0.5")
    func bandCaps() {
        let caps = TileMasking.bandCaps
        #expect(caps.count == P.bandCount)
        #expect(caps.first == TileMasking.tonalCap)
        #expect(zip(caps, caps.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(caps.allSatisfy { $0 <= TileMasking.largestCap })
        #expect(caps[8] > 0.45 && caps[21] == TileMasking.largestCap)
    }

    @Test("a tile's cap falls from its band's cap over noise to 0.25 over a tonal host")
    func capFollowsTonality() {
        let band = 15
        #expect(abs(TileMasking.cap(band: band, flatness: -1) - TileMasking.bandCaps[band]) < 1e-6)
        #expect(abs(TileMasking.cap(band: band, flatness: -8) - TileMasking.tonalCap) < 1e-6)
        #expect(abs(TileMasking.cap(band: band, flatness: -25) - TileMasking.tonalCap) < 1e-6)
        let between = TileMasking.cap(band: band, flatness: -5)
        #expect(between > TileMasking.tonalCap && between < TileMasking.bandCaps[band])
        // The lowest band keeps the format-1 cap whatever the host.
        #expect(abs(TileMasking.cap(band: 0, flatness: -1) - TileMasking.tonalCap) < 1e-6)
    }

    @Test("white noise gets its bands' caps; a steady tone keeps 0.25 in its band; silence has no energy")
    func tilesFromSpectra() throws {
        let rate = 16_000
        let noise = TestSignals.noise(seconds: 2, rate: rate, level: 0.3).samples
        // 3125 Hz is bin 100, in band 10 (3 to 3.25 kHz), whose noise cap is 0.5.
        let tone = (0..<(2 * rate)).map { Float(0.5 * sin(2 * Double.pi * 3125 * Double($0) / Double(rate))) }
        let host = noise + [Float](repeating: 0, count: 2 * rate) + zip(tone, noise).map { $0 + 0.001 * $1 }
        let (energy, cap) = TileMasking.tiles(try SpectralFrontEnd.spectra(of: AudioBufferView.mono16k(host)))
        let slots = energy.count / P.bandCount
        let slotsPerPart = 2 * rate / P.hop / P.hopsPerSlot
        var ratios: [Float] = []
        for q in 2..<(slotsPerPart - 2) {
            for b in 0..<P.bandCount {
                ratios.append(cap[q * P.bandCount + b] / TileMasking.bandCaps[b])
                #expect(energy[(q + slotsPerPart) * P.bandCount + b] == 0, "silence")
            }
            #expect(cap[(q + 2 * slotsPerPart) * P.bandCount + 10] == TileMasking.tonalCap, "tone")
        }
        // Noise is not perfectly flat over 8 bins (per hop -2 dB on average, -3.5 to -0.7 for
        // 80 % of hops): most noise tiles get their band's cap, none much less.
        ratios.sort()
        #expect(ratios[ratios.count / 2] > 0.999 && ratios.last! < 1.0001 && ratios[0] > 0.85)
        #expect(slots >= 3 * slotsPerPart)
    }
}
