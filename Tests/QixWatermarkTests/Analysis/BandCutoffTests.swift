import Foundation
import Testing
import QixAudio
@testable import QixWatermark

/// A steep low-pass inside the watermark band: found, and its dead bands left out of decoding.
struct BandCutoffTests {
    typealias P = WatermarkParameters
    let key = WatermarkKey.publicTestKey
    let message: UInt32 = 0x0c07_0ff5

    func cut(_ totals: [Double]) -> Int { totals.withUnsafeBufferPointer { BandCutoff.firstCutBand($0) } }

    /// A spectrum falling 2 dB per band, times `gain` from band `from` on.
    func falling(gainFrom from: Int = P.bandCount, gain: Double = 1) -> [Double] {
        (0..<P.bandCount).map { b in pow(10, -0.2 * Double(b)) * (b >= from ? gain : 1) }
    }

    @Test func findsASteepCutAndNothingElse() {
        #expect(cut(falling()) == P.bandCount)
        #expect(cut(falling(gainFrom: 12, gain: 1e-3)) == 12)
        // 15 dB is within what quiet recordings' own spectra do.
        #expect(cut(falling(gainFrom: 12, gain: pow(10, -1.5))) == P.bandCount)
        // Under 2.5 kHz a drop is left alone.
        #expect(cut(falling(gainFrom: 5, gain: 1e-4)) == P.bandCount)
        // A dip that recovers is not a cut.
        var dip = falling()
        dip[10] *= 1e-4
        #expect(cut(dip) == P.bandCount)
        // Two steps: the lower one is where the mark ends.
        var steps = falling(gainFrom: 10, gain: 1e-3)
        for b in 16..<P.bandCount { steps[b] *= 1e-3 }
        #expect(cut(steps) == 10)
    }

    @Test func judgesWholeBlocksAndJoinsShortEnds() {
        let block = BandCutoff.blockHops
        #expect(BandCutoff.groups(of: 10..<100) == [0..<1])
        #expect(BandCutoff.groups(of: 0..<(2 * block)) == [0..<1, 1..<2])
        // 16 hops of a third block join the second.
        #expect(BandCutoff.groups(of: 0..<(2 * block + 16)) == [0..<1, 1..<3])
        // 42 hops of the first block join the second; 24 of the fourth join the third.
        #expect(BandCutoff.groups(of: (block - 42)..<(3 * block + 24)) == [0..<2, 2..<4])
        #expect(BandCutoff.groups(of: 5..<5).isEmpty)
    }

    /// `audio` through an ideal low-pass at `hertz` (the whole signal in one FFT).
    func lowPassed(_ audio: AudioBuffer, below hertz: Double) -> AudioBuffer {
        var size = 1
        while size < audio.frameCount { size *= 2 }
        let fft = RealFFT(size: size)
        var output = audio.samples
        let lastBin = Int(hertz / Double(audio.sampleRate) * Double(size))
        for channel in 0..<audio.channels {
            for i in 0..<size {
                fft.input[i] = i < audio.frameCount ? audio.samples[i * audio.channels + channel] : 0
            }
            fft.forward()
            for k in (lastBin + 1)..<fft.binCount { fft.spectrum[2 * k] = 0; fft.spectrum[2 * k + 1] = 0 }
            fft.inverse()
            for i in 0..<audio.frameCount { output[i * audio.channels + channel] = fft.input[i] / Float(size) }
        }
        return AudioBuffer(samples: output, channels: audio.channels, sampleRate: audio.sampleRate)
    }

    @Test func leavesTheBandsAboveACutOutOfTheStatistics() throws {
        let audio = try TestSignals.corpus("a02", seconds: 6)
        let scale = SpeedScale(speed: 1)
        for (input, cutBand) in [(audio, P.bandCount), (lowPassed(audio, below: 3000), 11)] {
            let spectra = try SpectralFrontEnd.spectra(of: input)
            let hops = 0..<spectra.count
            let stats = scale.statistics(spectra, hops: hops, floors: scale.floors(spectra, hops: hops))
            for b in 0..<P.bandCount {
                let energy = stride(from: b, to: stats.count, by: P.bandCount).reduce(Float(0)) { $0 + stats[$1] * stats[$1] }
                #expect((energy == 0) == (b >= cutBand), "band \(b)")
            }
        }
    }

    /// A venue-level spot heard through a 3 kHz low-pass (a narrow-band phone or headset path)
    /// still gives its ID from 3 s: with the dead bands weighed in, most of these fail.
    @Test func decodesShortClipsThroughALowPass() throws {
        let marked = try WatermarkEmbedder(key: key, payload: WatermarkPayload(message: message), profile: .venue)
            .embed(TestSignals.corpus("a05", seconds: 15))
        let filtered = lowPassed(marked, below: 3000)
        let detector = WatermarkDetector(key: key)
        let rate = Double(filtered.sampleRate)
        var decoded = 0
        let starts = [0.4, 2.9, 5.3, 7.7, 10.1, 11.6]
        for start in starts {
            let clip = filtered.slice(frames: Int(start * rate)..<Int((start + 3) * rate))
            let found = try detector.detect(clip).map(\.message)
            #expect(found.allSatisfy { $0 == message }, "start \(start): \(found)")
            decoded += found.contains(message) ? 1 : 0
        }
        #expect(decoded >= starts.count - 1, "\(decoded) of \(starts.count) decoded")
    }
}
