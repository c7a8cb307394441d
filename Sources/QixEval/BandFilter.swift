import Foundation

/// Linear-phase FIR filters for the band-limit attacks: a Blackman-windowed sinc, whose
/// stop band lies 74 dB down, with a transition about 5.5 x rate / taps wide.
public enum BandFilter {
    /// Taps of a band-pass from `low` to `high` Hz at `rate` (`low` 0: a low-pass); the
    /// transition is under 90 Hz at 8 kHz and under 500 Hz at 48 kHz.
    public static func bandPass(from low: Double, to high: Double, rate: Int) -> [Float] {
        // Odd, so the filter has a centre tap; long enough for a steep edge at any rate.
        let taps = max(511, (rate / 90) | 1)
        let centre = Double(taps - 1) / 2
        let f1 = low / Double(rate), f2 = high / Double(rate)
        func sinc(_ x: Double) -> Double { x == 0 ? 1 : sin(.pi * x) / (.pi * x) }
        return (0..<taps).map { n in
            let t = Double(n) - centre
            let ideal = 2 * f2 * sinc(2 * f2 * t) - 2 * f1 * sinc(2 * f1 * t)
            let phase = 2 * Double.pi * Double(n) / Double(taps - 1)
            let window = 0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase)
            return Float(ideal * window)
        }
    }
}
