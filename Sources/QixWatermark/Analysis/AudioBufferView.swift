import QixDSP

/// Wraps internal-rate signals as `AudioBuffer`s for the shared analysis code.
enum AudioBufferView {
    /// A mono buffer at the watermark's internal rate.
    static func mono16k(_ samples: [Float]) -> AudioBuffer {
        AudioBuffer(samples: samples, channels: 1, sampleRate: WatermarkParameters.sampleRate)
    }
}
