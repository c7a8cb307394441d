import Testing
@testable import QixWatermark

/// `MarkLocator.splicedEnd`: an end that stops short of a splice is carried to it when the mark
/// holds up to it, when the stretch is the spot's quiet tail, or when the mark is there, if
/// weak, before a strong splice up into a louder programme; farther, only when the mark proves
/// the longer stretch; and not to a pause in the next programme's speech.
@Suite struct SpliceTests {
    /// Hop spectra whose hop h has power `level(h, bin)` in every stored bin.
    static func spectra(hops: Int, level: (Int, Int) -> Float) -> HopSpectra {
        var spectra = HopSpectra()
        for h in 0..<hops {
            for bin in HopSpectra.lowBin..<HopSpectra.highBin { spectra.power.append(level(h, bin)) }
        }
        return spectra
    }

    /// Scores whose data tiles score `mark(h)` at hop h and whose shifted patterns score +1
    /// and -1 in turn, so that a block of hops that all score m has z = m.
    static func scores(hops: Int, mark: (Int) -> Float) -> LocatorScores {
        let data = (0..<hops).map(mark)
        let shifted = (0..<(hops * LocatorScores.shifts)).map { $0 % LocatorScores.shifts % 2 == 0 ? Float(1) : -1 }
        return LocatorScores(total: data, data: data, shifted: shifted)
    }

    @Test func carriesAWeakTailToTheSplice() {
        // Quiet hiss up to hop 140, then a programme loud in its low bands; the mark holds to
        // the splice at z 1.75, too weak for the half-second blocks, and the end stopped at 100.
        let spectra = Self.spectra(hops: 240) { h, bin in h < 140 ? 1e-4 : bin < 80 ? 1e-1 : 1e-3 }
        let scores = Self.scores(hops: 240) { h in h < 140 ? 1.75 : 0 }
        #expect(MarkLocator.splicedEnd(100, after: 0, scores, spectra, lower: 0) == 140)
    }

    @Test func staysBeforeAPauseInTheNextProgrammesSpeech() {
        // The spot ends at hop 100 into speech that pauses for 8 hops (0.13 s) at 130: over
        // 0.26 s windows the pause is a change of 20 dB, larger than a splice, but the speech
        // before it is the speech after it. The speech scores z 3 by chance: still not carried.
        let spectra = Self.spectra(hops: 240) { h, _ in h < 100 ? 1e-4 : (130..<138).contains(h) ? 1e-6 : 1e-2 }
        let host = HostChange(spectra, hops: 100..<240)
        #expect(host.largestChange(in: 16...120).change >= MarkLocator.spliceChange)
        let scores = Self.scores(hops: 240) { _ in 3 }
        #expect(scores.block(100..<130).z == 3)
        #expect(MarkLocator.splicedEnd(100, after: 0, scores, spectra, lower: 0) == 100)
    }

    @Test func passesOverALargerPauseAfterTheSplice() {
        // Hiss to the splice at hop 140, then speech with a deep 8-hop pause at 190: the pause
        // is the largest change (25 dB against 20), but the stretch before it holds the hiss
        // and the speech alike. The end is carried to the splice, the mark holding at z 1.75.
        let spectra = Self.spectra(hops: 260) { h, _ in h < 140 ? 1e-4 : (190..<198).contains(h) ? 1e-7 : 1e-2 }
        let host = HostChange(spectra, hops: 100..<260)
        #expect(host.largestChange(in: 16...120).hop >= 80, "the pause, not the splice at 40")
        let scores = Self.scores(hops: 260) { h in h < 140 ? 1.75 : 0 }
        #expect(MarkLocator.splicedEnd(100, after: 0, scores, spectra, lower: 0) == 140)
    }

    @Test func carriesAQuietTailThatKeptNoMark() {
        // A spot at 1e-2 fades to 1e-5 (30 dB under) from hop 100, where its mark stops
        // scoring (z 0, as after MP3), and the next programme starts loud at 140: the tail is
        // the spot's own, so the end goes to the splice. 10 dB under is not quiet enough.
        let scores = Self.scores(hops: 240) { h in h < 100 ? 3 : 0 }
        for (tail, end) in [(Float(1e-5), 140), (1e-3, 100)] {
            let spectra = Self.spectra(hops: 240) { h, _ in h < 100 ? 1e-2 : h < 140 ? tail : 1 }
            #expect(MarkLocator.splicedEnd(100, after: 0, scores, spectra, lower: 0) == end, "tail \(tail)")
        }
    }

    @Test func doesNotCarryIntoSpeechWithASilentPause() {
        // After the end at 100 the next programme starts at once: speech 6 dB under the spot,
        // silent (1e-9) for 24 hops from 110, then loud from 140 on. The mean of the stretch's dB
        // is 34 dB under the spot, its power only 7: the speech is heard, so no carry.
        let scores = Self.scores(hops: 240) { h in h < 100 ? 3 : 0 }
        let spectra = Self.spectra(hops: 240) { h, _ in
            h < 100 ? 1e-2 : (110..<134).contains(h) ? 1e-9 : h < 140 ? 2.5e-3 : 1 }
        #expect(MarkLocator.splicedEnd(100, after: 0, scores, spectra, lower: 0) == 100)
    }

    @Test func doesNotCarryIntoQuieterSpeechToAPauseInIt() {
        // A loud spot ends at 100 into speech 20 dB under it, which pauses (1e-7) from 140 for
        // 0.64 s: the speech reads as a quiet tail and the pause as a lasting splice, but the
        // splice goes down, into a pause, where a spot's tail gives way to a louder programme.
        let scores = Self.scores(hops: 260) { h in h < 100 ? 3 : 0 }
        let spectra = Self.spectra(hops: 260) { h, _ in h < 100 ? 1e-2 : (140..<180).contains(h) ? 1e-7 : 1e-4 }
        #expect(MarkLocator.splicedEnd(100, after: 0, scores, spectra, lower: 0) == 100)
    }

    @Test func carriesAWeakMarkToAStrongSpliceUp() {
        // The spot ends in a passage 10 dB under it (not a quiet tail) where MP3 left the mark
        // z 0.8, and a programme 30 dB louder starts at 140: carried. A stretch that scores z
        // 0.3, or a programme only 3 dB louder, is not.
        for (mark, next, end) in [(Float(0.8), Float(1), 140), (0.3, 1, 100), (0.8, 2e-3, 100)] {
            let scores = Self.scores(hops: 240) { h in h < 100 ? 3 : h < 140 ? mark : 0 }
            let spectra = Self.spectra(hops: 240) { h, _ in h < 100 ? 1e-2 : h < 140 ? 1e-3 : next }
            #expect(MarkLocator.splicedEnd(100, after: 0, scores, spectra, lower: 0) == end, "z \(mark), next \(next)")
        }
    }

    @Test func carriesAProvenLongTailToAFarSplice() {
        // Quiet ambience holds a weak mark up to the splice at hop 260, 2.56 s past the end at
        // 100 and beyond the near reach: carried when the stretch scores z 2.6, not at z 2.2,
        // which unmarked audio reaches 1.4 % of the time.
        let spectra = Self.spectra(hops: 400) { h, bin in h < 260 ? 1e-4 : bin < 80 ? 1e-1 : 1e-3 }
        for (mark, end) in [(Float(2.6), 260), (2.2, 100)] {
            let scores = Self.scores(hops: 400) { h in h < 260 ? mark : 0 }
            #expect(MarkLocator.nearSplicedEnd(100, after: 0, scores, spectra, lower: 0) == 100)
            #expect(MarkLocator.splicedEnd(100, after: 0, scores, spectra, lower: 0) == end, "z \(mark)")
        }
    }

    @Test func hopLevelsReadTheBandLevels() {
        let spectra = Self.spectra(hops: 30) { h, _ in h < 20 ? 1e-2 : 1e-4 }
        let host = HostChange(spectra, hops: 0..<30)
        #expect(abs(host.hopLevel(0) - host.hopLevel(29) - 20) < 0.01)
        #expect(host.medianHopLevel() == host.hopLevel(0))
        // Two thirds at +20 dB: the power mean is 20 + 10 log10(2/3 + 1/300).
        #expect(abs(host.powerLevel(0..<30) - host.hopLevel(29) - 18.26) < 0.01)
    }
}
