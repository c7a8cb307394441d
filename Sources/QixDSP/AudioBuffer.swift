/// Interleaved `Float` audio held in memory, with its rate and channel count.
///
/// Used for clips, test signals and in-process processing chains; long recordings are
/// read in blocks through `AudioFileReader` instead.
public struct AudioBuffer: Sendable, Equatable {
    /// Interleaved samples, nominally in [-1, 1].
    public var samples: [Float]
    /// Interleaved channels per frame.
    public var channels: Int
    /// Frames per second.
    public var sampleRate: Int

    /// Makes a buffer; `samples.count` must be a multiple of `channels`.
    public init(samples: [Float], channels: Int, sampleRate: Int) {
        precondition(channels > 0 && samples.count % channels == 0, "samples must hold whole frames")
        self.samples = samples
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// Number of frames.
    public var frameCount: Int { samples.count / channels }

    /// Length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    /// The channels averaged into one.
    public func mixedToMono() -> AudioBuffer {
        guard channels > 1 else { return self }
        var mono = [Float](repeating: 0, count: frameCount)
        samples.withUnsafeBufferPointer { input in
            mono.withUnsafeMutableBufferPointer { output in
                ChannelMixer.mixDown(input, channels: channels, into: output)
            }
        }
        return AudioBuffer(samples: mono, channels: 1, sampleRate: sampleRate)
    }

    /// One channel's samples, de-interleaved.
    public func channel(_ index: Int) -> [Float] {
        precondition(index >= 0 && index < channels, "channel out of range")
        return stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }

    /// Frames `range` as a new buffer.
    public func slice(frames range: Range<Int>) -> AudioBuffer {
        let lower = max(0, range.lowerBound), upper = min(frameCount, range.upperBound)
        guard lower < upper else { return AudioBuffer(samples: [], channels: channels, sampleRate: sampleRate) }
        return AudioBuffer(samples: Array(samples[lower * channels ..< upper * channels]),
                           channels: channels, sampleRate: sampleRate)
    }
}
