import CFilterKernel
import Foundation

/// Streaming sample-rate conversion of mono `Float` audio by a rational ratio through one
/// Kaiser-windowed sinc filter in polyphase form, for signals whose band of interest ends
/// well below both Nyquists: the watermark detector's analysis down to 16 kHz, and the
/// embedder's delta (nothing above 6.3 kHz) up to the host's rate.
///
/// Why not libsoxr here: soxr's filters are built for listening (at least 15 bits, about
/// 90 dB of stopband, flat nearly to Nyquist). An analysis that reads 0.5-6.3 kHz of a
/// 16 kHz signal and looks for a mark 20 dB under the host needs less (the watermark
/// detector asks 60 dB), and then one short filter per output phase (48 taps for 44.1 ->
/// 16 kHz) takes 0.8x soxr's instructions, where soxr was a seventh of a scan's time
/// (docs/watermark.md). Between `passbandEnd` and `stopbandBegin` (Hz) the gain rolls off.
/// Down, what lies between the output's Nyquist and `stopbandBegin` folds onto the band
/// above `passbandEnd`, which the analysis must not read. Up, the images of the band start
/// at `inputRate - passbandEnd`, so `stopbandBegin` may lie up to there, above the input's
/// Nyquist: a wide transition and a short filter (24 taps for 16 -> 44.1 kHz).
///
/// Feed blocks of any size with `process`, then `flush` once: the output then holds
/// `round(inputFrames * outputRate / inputRate)` samples, output sample n standing at
/// input time n * inputRate / outputRate (no delay), as `Resampler`'s does.
public final class PolyphaseResampler: SampleRateConverter {
    /// Input samples per second.
    public let inputRate: Int
    /// Output samples per second.
    public let outputRate: Int
    /// Filter taps per output sample (a multiple of 8).
    public let taps: Int

    /// Output phases (L) and input samples per L outputs (M): outputRate / inputRate = L / M.
    private let phases: Int, step: Int
    /// `phases` rows of `taps` coefficients: row p is the filter for an output p / L of an
    /// input sample past the last whole one.
    private var coefficients: [Float]
    /// The input not yet consumed, from absolute input index `heldStart` on; starts with
    /// `taps / 2 - 1` zeros standing for the silence before the first sample.
    private var held: [Float]
    private var heldStart: Int
    /// Which build of the filter loop runs (CFilterKernel): both give the same samples.
    enum Kernel { case portable, avx2 }
    /// The loop this instance runs; tests switch it to compare the two.
    var kernel: Kernel = PolyphaseResampler.bestKernel
    static let bestKernel: Kernel = qix_filter_avx2_supported() != 0 ? .avx2 : .portable

    /// Outputs produced and input samples taken so far.
    private var outputs = 0, inputs = 0

    /// Phases above this make the table larger than the filter is worth (an odd rate such
    /// as 44 056 Hz would need 2 000); callers fall back to `Resampler`.
    public static let maximumPhases = 640

    /// A converter from `inputRate` to `outputRate`, flat to `passbandEnd` and about
    /// `attenuation` dB down from `stopbandBegin` on (Kaiser's design formulas: the worst
    /// stopband lobe lands within about 2 dB of it, e.g. 60.2 dB for 60 from 44.1 kHz, 59.3
    /// from 48 kHz, 47.9 for 50 from 44.1 kHz); nil when the ratio needs more than
    /// `maximumPhases` phases or the rates or band edges make no sense. Down, the stopband
    /// must begin under the input's Nyquist; up, at or under the first image of the
    /// passband (`inputRate - passbandEnd`) and under the output's Nyquist.
    public init?(inputRate: Int, outputRate: Int, passbandEnd: Double, stopbandBegin: Double,
                 attenuation: Double = 60) {
        guard inputRate != outputRate, inputRate > 0, outputRate > 0, passbandEnd > 0, stopbandBegin > passbandEnd,
              attenuation >= 21 else { return nil }
        if inputRate > outputRate {
            guard stopbandBegin < Double(inputRate) / 2 else { return nil }
        } else {
            guard stopbandBegin <= Double(inputRate) - passbandEnd, stopbandBegin < Double(outputRate) / 2 else { return nil }
        }
        let divisor = Self.greatestCommonDivisor(inputRate, outputRate)
        phases = outputRate / divisor
        step = inputRate / divisor
        guard phases <= Self.maximumPhases else { return nil }
        self.inputRate = inputRate
        self.outputRate = outputRate
        // Kaiser's estimates: length from the attenuation and the transition width.
        let rate = Double(inputRate)
        let transition = 2 * Double.pi * (stopbandBegin - passbandEnd) / rate
        let length = Int(((attenuation - 8) / (2.285 * transition)).rounded(.up)) + 1
        taps = (length + 7) / 8 * 8
        let beta = attenuation > 50 ? 0.1102 * (attenuation - 8.7)
            : 0.5842 * pow(attenuation - 21, 0.4) + 0.07886 * (attenuation - 21)
        coefficients = Self.design(taps: taps, phases: phases, cutoff: (passbandEnd + stopbandBegin) / 2 / rate, beta: beta)
        held = [Float](repeating: 0, count: taps / 2 - 1)
        heldStart = -(taps / 2 - 1)
    }

    /// The filter rows, `taps` per phase (for tests).
    var coefficientTable: [Float] { coefficients }

    /// Converts one block, appending the samples produced to `output`.
    public func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) {
        Self.process(lockstep: [self], [input], into: &output)
    }

    /// Converts an array block; see `process(_:into:)`.
    public func process(_ input: [Float], into output: inout [Float]) {
        input.withUnsafeBufferPointer { process($0, into: &output) }
    }

    /// Ends the stream: the last outputs see zeros after the final sample.
    public func flush(into output: inout [Float]) {
        Self.flush(lockstep: [self], into: &output)
    }

    /// Converts one block of each of one or two channels, appending their outputs interleaved
    /// (L R L R for two). The converters must be alike (same rates and edges) and have been
    /// fed blocks of the same lengths, so their states match: two then share one pass of the
    /// filter loop (`qix_polyphase_run2`), which loads each coefficient row once for both
    /// channels and gives each the samples it would give alone.
    static func process(lockstep group: [PolyphaseResampler], _ blocks: [UnsafeBufferPointer<Float>],
                        into output: inout [Float]) {
        precondition((1...2).contains(group.count) && blocks.count == group.count, "one or two channels")
        let lead = group[0], count = blocks[0].count
        guard count > 0 else { return }
        precondition(blocks.allSatisfy { $0.count == count }, "blocks of one length")
        for converter in group { converter.inputs += count }
        let heldStart = lead.heldStart, blockStart = lead.heldStart + lead.held.count
        // Outputs whose window reaches back into the held samples: from held + the
        // block's first taps samples, joined (a few dozen samples).
        let joinCount = min(count, lead.taps)
        for (converter, block) in zip(group, blocks) {
            converter.held.append(contentsOf: UnsafeBufferPointer(rebasing: block[0..<joinCount]))
        }
        withHeld(group) { joined in
            run(group, joined, start: heldStart, end: heldStart + lead.held.count, until: blockStart, limit: Int.max,
                into: &output)
        }
        for converter in group { converter.held.removeLast(joinCount) }
        // The rest straight from the blocks.
        run(group, blocks.map { $0.baseAddress! }, start: blockStart, end: blockStart + count, until: Int.max,
            limit: Int.max, into: &output)
        // Keep what the next outputs still need.
        let keepFrom = max(heldStart, lead.outputs * lead.step / lead.phases - (lead.taps / 2 - 1))
        for (converter, block) in zip(group, blocks) {
            if keepFrom >= blockStart {
                converter.held.removeAll(keepingCapacity: true)
                converter.held.append(contentsOf: UnsafeBufferPointer(rebasing: block[(keepFrom - blockStart)...]))
            } else {
                converter.held.removeFirst(keepFrom - heldStart)
                converter.held.append(contentsOf: block)
            }
            converter.heldStart = keepFrom
            precondition(converter.heldStart + converter.held.count == blockStart + count)
        }
    }

    /// Ends the streams of one or two converters in lockstep (see `process(lockstep:_:into:)`).
    static func flush(lockstep group: [PolyphaseResampler], into output: inout [Float]) {
        precondition((1...2).contains(group.count), "one or two channels")
        let lead = group[0]
        let total = Int((Double(lead.inputs) * Double(lead.phases) / Double(lead.step)).rounded())
        let zeros = [Float](repeating: 0, count: lead.taps)
        for converter in group { converter.held.append(contentsOf: zeros) }
        withHeld(group) { joined in
            run(group, joined, start: lead.heldStart, end: lead.heldStart + lead.held.count, until: Int.max,
                limit: total, into: &output)
        }
        for converter in group { converter.held.removeAll() }
    }

    /// Calls `body` with the held samples of every converter in `group` (one or two).
    private static func withHeld(_ group: [PolyphaseResampler], _ body: ([UnsafePointer<Float>]) -> Void) {
        group[0].held.withUnsafeBufferPointer { first in
            guard group.count == 2 else { return body([first.baseAddress!]) }
            group[1].held.withUnsafeBufferPointer { second in body([first.baseAddress!, second.baseAddress!]) }
        }
    }

    /// Produces outputs while their whole window lies in `[start, end)` of the input
    /// (`samples` hold index `start`, one pointer per channel), their window starts before
    /// `until`, and fewer than `limit` have been produced in all. Output n's window is centred
    /// on input n * M / L, so how many fit is a division, not a search.
    private static func run(_ group: [PolyphaseResampler], _ samples: [UnsafePointer<Float>], start: Int, end: Int,
                            until: Int, limit: Int, into output: inout [Float]) {
        let lead = group[0]
        let half = lead.taps / 2
        // Outputs n with whole(n) + half < end, and whole(n) - (half - 1) < until.
        let phases = lead.phases, step = lead.step
        func firstBeyond(_ wholeLimit: Int) -> Int {
            wholeLimit <= 0 ? 0 : (wholeLimit * phases - 1) / step + 1
        }
        var stop = min(limit, firstBeyond(end - half))
        if until != Int.max { stop = min(stop, firstBeyond(until + half - 1)) }
        let count = stop - lead.outputs
        guard count > 0 else { return }
        let first = output.count
        output.appendZeros(count * group.count)
        let whole = lead.outputs * step / phases, phase = lead.outputs * step % phases
        precondition(whole - (half - 1) >= start)
        let offset = Int64(whole - (half - 1) - start)
        lead.coefficients.withUnsafeBufferPointer { table in
            output.withUnsafeMutableBufferPointer { out in
                let arguments = (Int64(phase), table.baseAddress!, Int64(lead.taps), Int64(phases),
                                 Int64(step / phases), Int64(step % phases), out.baseAddress! + first, Int64(count))
                if group.count == 2 {
                    let run2 = lead.kernel == .avx2 ? qix_polyphase_run2_avx2 : qix_polyphase_run2_portable
                    run2(samples[0], samples[1], offset, arguments.0, arguments.1, arguments.2, arguments.3,
                         arguments.4, arguments.5, arguments.6, arguments.7)
                } else {
                    let run1 = lead.kernel == .avx2 ? qix_polyphase_run_avx2 : qix_polyphase_run_portable
                    run1(samples[0], offset, arguments.0, arguments.1, arguments.2, arguments.3,
                         arguments.4, arguments.5, arguments.6, arguments.7)
                }
            }
        }
        for converter in group { converter.outputs = stop }
    }

    /// The windowed-sinc filter: row p holds taps k = 0..<taps at distances
    /// k - (taps/2 - 1) - p/phases input samples from the output's position, each row
    /// scaled to unit gain at 0 Hz. `cutoff` is in cycles per input sample.
    private static func design(taps: Int, phases: Int, cutoff: Double, beta: Double) -> [Float] {
        var table = [Float](repeating: 0, count: taps * phases)
        let half = Double(taps) / 2, norm = besselI0(beta)
        var row = [Double](repeating: 0, count: taps)
        for p in 0..<phases {
            let fraction = Double(p) / Double(phases)
            var sum = 0.0
            for k in 0..<taps {
                let t = Double(k - (taps / 2 - 1)) - fraction
                let x = 2 * cutoff * t
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let r = t / half
                let window = abs(r) < 1 ? besselI0(beta * (1 - r * r).squareRoot()) / norm : 0
                row[k] = sinc * window
                sum += row[k]
            }
            for k in 0..<taps { table[p * taps + k] = Float(row[k] / sum) }
        }
        return table
    }

    /// The modified Bessel function of the first kind, order 0 (Kaiser's window), by its series.
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        let quarter = x * x / 4
        while term > sum * 1e-17 {
            term *= quarter / (k * k)
            sum += term
            k += 1
        }
        return sum
    }

    /// Euclid's algorithm: the ratio's phases and step are the rates over this.
    static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
