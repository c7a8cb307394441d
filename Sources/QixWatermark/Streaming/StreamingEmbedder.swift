import Foundation
import QixDSP

/// Marks audio of any length fed in blocks, in bounded memory (about 40 MB for 44.1 kHz
/// stereo, whatever the length): the host goes once to 16 kHz (all channels in one
/// resampler), every `segmentFrames` watermark frames (30.72 s) the tiles' depths are
/// planned from the mono mix with their own energy budget, each channel's delta is
/// synthesised, brought back to the host rate and added to the held-back host frames,
/// which then leave through `output` in order.
///
/// A segment's planning sees one watermark frame of audio before it and half a second
/// after it, so tiles at its edges are judged as in a whole-file pass; the synthesis is
/// frame for frame the whole-file one. A host shorter than a segment is planned exactly
/// as one piece, which is what the evaluation's clips are.
public final class StreamingEmbedder {
    typealias P = WatermarkParameters
    /// Watermark frames per planning segment (10 x 3.072 s): the span over which the
    /// watermark energy is held `targetSNR` dB under the host's.
    public static let segmentFrames = 10
    /// Host frames per second.
    public let sampleRate: Int
    /// Interleaved host channels.
    public let channels: Int
    /// Peak, RMS and non-finite count of the input seen so far.
    public private(set) var levels = SignalLevels()
    /// Input frames fed so far.
    public private(set) var framesRead: Int64 = 0
    /// Peak and RMS of the watermark sent out so far (output minus input, before the
    /// output's own quantisation); callers read it through `report`.
    private var watermarkLevels = SignalLevels()

    /// The input's and the watermark's levels so far; complete after `finish`.
    public var report: EmbeddingReport {
        EmbeddingReport(input: levels, watermark: watermarkLevels, frames: framesRead)
    }

    private static let samplesPerSlot = P.hopsPerSlot * P.hop
    private static let samplesPerFrame = P.hopsPerFrame * P.hop
    private static let segment = segmentFrames * samplesPerFrame
    /// Audio the planning sees before a segment: one frame, which keeps the chip grid aligned.
    private static let context = samplesPerFrame
    /// Audio the planning sees after a segment: 4 slots, more than the detrending radius.
    private static let lookahead = 4 * samplesPerSlot
    /// 16 kHz frames handed to the up-sampler at once.
    private static let releaseBlock = 16_384
    /// Where the delta's spectrum ends at 16 kHz, with margin: the top band's last bin is at
    /// 6.22 kHz, and the synthesis window's leakage beyond it is far under the mark.
    static let deltaBandEnd = 6400.0

    private let chips: [Float]
    /// How the mark's format divides each band into up and down halves.
    private let layout: BandLayout
    private let targetSNR: Double
    /// Factor on every tile's masking cap: the embedder's scale (profile level times strength).
    private let capScale: Float
    /// The masking model's limits: the embedder's.
    private let masking: MaskingLimits
    private let down: SampleRateConverter?
    private let up: SampleRateConverter?
    /// 16 kHz mono mix, and each channel when there are several, from global sample `base16`.
    private var mix16: [Float] = []
    private var channel16: [[Float]]
    private var base16 = 0
    /// Each channel's 16 kHz delta, from global sample `deltaBase`; what lies before the
    /// current segment's first frame is final.
    private var delta16: [[Float]]
    private var deltaBase = 0
    private var segmentIndex = 0
    /// Host frames fed but not yet sent out (interleaved), from `hostHead`.
    private var hostQueue: [Float] = []
    private var hostHead = 0
    private var converted: [Float] = []
    private var interleaved: [Float] = []
    private var finished = false

    /// A stream that marks `channels`-channel audio at `sampleRate` Hz with `embedder`'s key and ID.
    public init(embedder: WatermarkEmbedder, sampleRate: Int, channels: Int) throws {
        guard sampleRate >= WatermarkEmbedder.minimumSampleRate else {
            throw WatermarkError("cannot embed", "\(sampleRate) Hz",
                                 "the watermark band reaches 6 kHz, so the audio needs a sample rate of at least \(WatermarkEmbedder.minimumSampleRate) Hz")
        }
        guard channels > 0 else { throw WatermarkError("cannot embed", "channels", "needs at least one channel") }
        self.sampleRate = sampleRate
        self.channels = channels
        chips = embedder.chips
        layout = embedder.format.bandLayout
        targetSNR = embedder.targetSNR
        capScale = Float(embedder.scale)
        masking = embedder.masking
        // From a higher rate, both ways may use cheaper filters than listening needs: the plan
        // reads the band to 6 kHz (down: the detector's decimator, flat to 6.3 kHz), the delta
        // holds nothing above 6.25 kHz (up: a polyphase filter flat to 6.4 kHz whose stopband,
        // 72 dB, starts at the band's first image, 9.6 kHz), and folded host energy only raises
        // the file's full-band SNR above what the 16 kHz hold targets.
        down = try AnalysisConversion.converter(from: sampleRate, to: P.sampleRate, channels: channels,
                                                readBandEnd: SpectralFrontEnd.readBandEnd)
        up = try AnalysisConversion.bandLimitedConverter(from: P.sampleRate, to: sampleRate, channels: channels,
                                                         bandEnd: Self.deltaBandEnd)
        channel16 = [[Float]](repeating: [], count: channels > 1 ? channels : 0)
        delta16 = [[Float]](repeating: [], count: channels)
    }

    /// Feeds interleaved host samples; marked frames of earlier input go to `output`.
    public func feed(_ block: UnsafeBufferPointer<Float>, output: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        precondition(!finished, "embedder stream already finished")
        let frames = block.count / channels
        guard frames > 0 else { return }
        let bad = levels.nonFiniteCount
        levels.add(UnsafeBufferPointer(rebasing: block[0..<(frames * channels)]))
        framesRead += Int64(frames)
        let start = hostQueue.count
        hostQueue.append(contentsOf: UnsafeBufferPointer(rebasing: block[0..<(frames * channels)]))
        if levels.nonFiniteCount > bad {
            // Refused at the end; meanwhile keep the filters finite.
            for i in start..<hostQueue.count where !hostQueue[i].isFinite { hostQueue[i] = 0 }
        }
        hostQueue.withUnsafeBufferPointer { queue in
            let fresh = UnsafeBufferPointer(rebasing: queue[start...])
            if let down {
                converted.removeAll(keepingCapacity: true)
                down.process(fresh, into: &converted)
                converted.withUnsafeBufferPointer { receive16($0) }
            } else {
                receive16(fresh)
            }
        }
        try plan(final: false, output: output)
    }

    /// Ends the input: checks it, marks and sends out everything still held back.
    /// Throws (and sends nothing more) for non-finite samples or audio shorter than one slot.
    public func finish(output: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        precondition(!finished, "embedder stream already finished")
        finished = true
        try Self.check(frames: Int(framesRead), sampleRate: sampleRate, nonFinite: Int(levels.nonFiniteCount),
                       peak: levels.peak)
        if let down {
            converted.removeAll(keepingCapacity: true)
            down.flush(into: &converted)
            converted.withUnsafeBufferPointer { receive16($0) }
        }
        try plan(final: true, output: output)
        if let up {
            converted.removeAll(keepingCapacity: true)
            up.flush(into: &converted)
            try send(delta: converted, output: output)
        }
        // Frames the resampler's rounding left without a delta go out unchanged.
        try hostQueue.withUnsafeBufferPointer { queue in
            if hostHead < queue.count { try output(UnsafeBufferPointer(rebasing: queue[hostHead...])) }
        }
        hostQueue = []
        hostHead = 0
    }

    /// Refuses input the watermark cannot be put into.
    /// The loudest float input a mark is made for: 60 dB over full scale. Beyond it the
    /// masking model's energies leave Float's range (a peak near 1e19 squares past 3.4e38)
    /// and the mark would be NaN, so such audio is refused rather than "marked".
    static let peakLimit: Float = 1000

    static func check(frames: Int, sampleRate: Int, nonFinite: Int, peak: Float) throws {
        let slotSeconds = Double(samplesPerSlot) / Double(P.sampleRate)
        let duration = Double(frames) / Double(sampleRate)
        guard duration >= slotSeconds else {
            throw WatermarkError("cannot embed", "audio",
                                 "\(duration) s is shorter than one watermark symbol (\(slotSeconds) s)")
        }
        guard nonFinite == 0 else {
            throw WatermarkError("cannot embed", "audio", "\(nonFinite) samples are NaN or infinite")
        }
        guard peak <= peakLimit else {
            let level = String(format: "%+.0f", 20 * log10(Double(peak)))
            throw WatermarkError("cannot embed", "audio",
                                 "samples reach \(peak) (\(level) dBFS), more than 60 dB over full scale; normalise the audio first")
        }
    }

    /// Appends interleaved 16 kHz frames to the per-channel history and the mono mix.
    private func receive16(_ samples: UnsafeBufferPointer<Float>) {
        let frames = samples.count / channels
        guard frames > 0 else { return }
        if channels == 1 {
            mix16.append(contentsOf: samples)
            return
        }
        let start = mix16.count
        mix16.appendZeros(frames)
        let scale = 1 / Float(channels)
        if channels == 2 {
            receiveStereo16(samples, frames: frames, scale: scale, mixFrom: start)
            return
        }
        mix16.withUnsafeMutableBufferPointer { mix in
            for c in 0..<channels {
                let first = channel16[c].count
                channel16[c].appendZeros(frames)
                channel16[c].withUnsafeMutableBufferPointer { channel in
                    for i in 0..<frames {
                        let v = samples[i * channels + c]
                        channel[first + i] = v
                        mix[start + i] += v * scale
                    }
                }
            }
        }
    }

    /// `receive16` for stereo, four frames at a time: each lane does the general loop's
    /// operations in its order (mix = (0 + left x scale) + right x scale), so the same bits.
    private func receiveStereo16(_ samples: UnsafeBufferPointer<Float>, frames: Int, scale: Float, mixFrom start: Int) {
        // Both channels out of the array while they are written: two writes into one array
        // property at once would be overlapping access.
        var leftChannel: [Float] = [], rightChannel: [Float] = []
        swap(&leftChannel, &channel16[0])
        swap(&rightChannel, &channel16[1])
        defer {
            swap(&leftChannel, &channel16[0])
            swap(&rightChannel, &channel16[1])
        }
        let first = leftChannel.count
        leftChannel.appendZeros(frames)
        rightChannel.appendZeros(frames)
        let input = UnsafeRawPointer(samples.baseAddress!)
        mix16.withUnsafeMutableBufferPointer { mix in
            leftChannel.withUnsafeMutableBufferPointer { left in
                rightChannel.withUnsafeMutableBufferPointer { right in
                    var i = 0
                    while i + 4 <= frames {
                        let pairs = input.loadUnaligned(fromByteOffset: i * 8, as: SIMD8<Float>.self)
                        let l = SIMD4<Float>(pairs[0], pairs[2], pairs[4], pairs[6])
                        let r = SIMD4<Float>(pairs[1], pairs[3], pairs[5], pairs[7])
                        UnsafeMutableRawPointer(left.baseAddress! + first + i).storeBytes(of: l, as: SIMD4<Float>.self)
                        UnsafeMutableRawPointer(right.baseAddress! + first + i).storeBytes(of: r, as: SIMD4<Float>.self)
                        let m = (SIMD4<Float>(repeating: 0) + l * scale) + r * scale
                        UnsafeMutableRawPointer(mix.baseAddress! + start + i).storeBytes(of: m, as: SIMD4<Float>.self)
                        i += 4
                    }
                    while i < frames {
                        let l = samples[2 * i], r = samples[2 * i + 1]
                        left[first + i] = l
                        right[first + i] = r
                        mix[start + i] = (0 + l * scale) + r * scale
                        i += 1
                    }
                }
            }
        }
    }

    /// Plans and synthesises every segment whose audio (and lookahead) has arrived; with
    /// `final`, also the last, shorter one.
    private func plan(final: Bool, output: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        while true {
            let total = base16 + mix16.count
            let start = segmentIndex * Self.segment
            let last = final && start + Self.segment + Self.lookahead > total
            if !final && total < start + Self.segment + Self.lookahead { return }
            if last && start >= total && segmentIndex > 0 { return }
            let end = last ? total : start + Self.segment
            try mark(segment: start..<end, last: last, total: total)
            segmentIndex += 1
            // The next frames overlap this segment's last hop, so that much stays open.
            try release(upTo: last ? total : end - P.hop, output: output)
            // Compacted once per segment, when what is left is short (the lookahead and
            // the resampler's delay), not per block.
            hostQueue.removeFirst(hostHead)
            hostHead = 0
            let keep = end - Self.context
            if keep > base16 {
                mix16.removeFirst(keep - base16)
                for c in channel16.indices { channel16[c].removeFirst(keep - base16) }
                base16 = keep
            }
            if last { return }
        }
    }

    /// Plans the depths of one segment's tiles from the mix around it and adds each
    /// channel's delta for the segment's frames.
    private func mark(segment: Range<Int>, last: Bool, total: Int) throws {
        let planStart = max(0, segment.lowerBound - Self.context)
        let planEnd = last ? total : min(total, segment.upperBound + Self.lookahead)
        let host = Array(mix16[(planStart - base16)..<(planEnd - base16)])
        let chips = self.chips, layout = self.layout
        let gains = try TileDepths.depths(host: host, targetSNR: targetSNR, capScale: capScale, limits: masking) { probe in
            DeltaSynthesizer(chips: chips, gains: probe, layout: layout).delta(for: host)
        }
        let synthesis = DeltaSynthesizer(chips: chips, gains: gains, firstSlot: planStart / Self.samplesPerSlot, layout: layout)
        let frames = (segment.lowerBound / P.hop)..<(last ? (total + P.hop - 1) / P.hop + 1 : segment.upperBound / P.hop)
        let deltaEnd = last ? total : segment.upperBound + P.hop
        for c in 0..<channels {
            if delta16[c].count < deltaEnd - deltaBase {
                delta16[c].appendZeros(deltaEnd - deltaBase - delta16[c].count)
            }
            let signal = channels == 1 ? mix16 : channel16[c]
            signal.withUnsafeBufferPointer { x in
                delta16[c].withUnsafeMutableBufferPointer { y in
                    synthesis.add(frames: frames, of: x, startingAt: base16, into: y, startingAt: deltaBase)
                }
            }
        }
        holdSNR(over: segment.lowerBound..<min(deltaEnd, segment.upperBound))
    }

    /// Largest factor the closed loop may raise a segment's delta by: the plan's per-tile
    /// cap stays within 10 % of itself.
    static let maximumCorrection: Float = 1.1

    /// Scales the segment's delta so that, over all channels at 16 kHz, the watermark is
    /// exactly `targetSNR` dB under the host. The plan's budget is the mono mix's; channels
    /// that differ (wide stereo) or tonal hosts whose tiles hit the cap land 0.5-2 dB away
    /// from it, and that margin is robustness given away. Above 8 kHz the host only adds
    /// energy, so the file's full-band SNR is at least the target.
    private func holdSNR(over range: Range<Int>) {
        guard !range.isEmpty else { return }
        var host = SignalLevels(), watermark = SignalLevels()
        let hostSpan = (range.lowerBound - base16)..<(range.upperBound - base16)
        let deltaSpan = (range.lowerBound - deltaBase)..<(range.upperBound - deltaBase)
        for c in 0..<channels {
            let signal = channels == 1 ? mix16 : channel16[c]
            signal.withUnsafeBufferPointer { host.add(UnsafeBufferPointer(rebasing: $0[hostSpan])) }
            delta16[c].withUnsafeBufferPointer { watermark.add(UnsafeBufferPointer(rebasing: $0[deltaSpan])) }
        }
        let hostEnergy = host.energy, deltaEnergy = watermark.energy
        guard hostEnergy > 0, deltaEnergy > 0 else { return }
        let k = min(Self.maximumCorrection, Float((hostEnergy * pow(10, -targetSNR / 10) / deltaEnergy).squareRoot()))
        for c in 0..<channels {
            delta16[c].withUnsafeMutableBufferPointer { d in
                let segment = d.baseAddress! + (range.lowerBound - deltaBase)
                for i in 0..<range.count { segment[i] *= k }
            }
        }
    }

    /// Sends the final delta before global 16 kHz sample `end` to the host rate and out.
    private func release(upTo end: Int, output: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        var from = deltaBase
        while from < end {
            let count = min(Self.releaseBlock, end - from)
            let offset = from - deltaBase
            if let up {
                converted.removeAll(keepingCapacity: true)
                PlanarChannels.withBuffers(delta16, range: offset..<(offset + count)) { up.process(planar: $0, into: &converted) }
                try send(delta: converted, output: output)
            } else {
                // Every value is written below: resize only when the block size changes.
                if interleaved.count != count * channels { interleaved = [Float](repeating: 0, count: count * channels) }
                interleaved.withUnsafeMutableBufferPointer { out in
                    if channels == 2 {
                        delta16[0].withUnsafeBufferPointer { left in
                            delta16[1].withUnsafeBufferPointer { right in
                                PlanarChannels.interleave(left.baseAddress! + offset, right.baseAddress! + offset,
                                                count: count, into: out.baseAddress!)
                            }
                        }
                        return
                    }
                    for c in 0..<channels {
                        delta16[c].withUnsafeBufferPointer { d in
                            for i in 0..<count { out[i * channels + c] = d[offset + i] }
                        }
                    }
                }
                try send(delta: interleaved, output: output)
            }
            from += count
        }
        let done = end - deltaBase
        if done > 0 {
            for c in 0..<channels { delta16[c].removeFirst(min(done, delta16[c].count)) }
            deltaBase = end
        }
    }

    /// Adds a host-rate delta to the oldest held-back frames and sends them out.
    private func send(delta: [Float], output: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        let count = min(delta.count, hostQueue.count - hostHead)
        guard count > 0 else { return }
        let head = hostHead
        try hostQueue.withUnsafeMutableBufferPointer { queue in
            delta.withUnsafeBufferPointer { d in
                // From one base pointer: no checked index sum per sample, so the loop vectorises.
                let target = queue.baseAddress! + head, source = d.baseAddress!
                for i in 0..<count { target[i] += source[i] }
                watermarkLevels.add(UnsafeBufferPointer(start: source, count: count))
            }
            try output(UnsafeBufferPointer(rebasing: queue[head..<(head + count)]))
        }
        hostHead += count
    }
}
