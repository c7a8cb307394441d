/// Mixes interleaved multichannel audio down to mono by averaging the channels.
public enum ChannelMixer {
    /// Writes the per-frame average of `input`'s `channels` into `output`, which must
    /// hold `input.count / channels` samples.
    @inlinable
    public static func mixDown(_ input: UnsafeBufferPointer<Float>, channels: Int,
                               into output: UnsafeMutableBufferPointer<Float>) {
        let frames = input.count / channels
        precondition(output.count >= frames, "output too small for the mix")
        if channels == 1 {
            for i in 0..<frames { output[i] = input[i] }
            return
        }
        if channels == 2 {
            for i in 0..<frames { output[i] = 0.5 * (input[2 * i] + input[2 * i + 1]) }
            return
        }
        let scale = 1 / Float(channels)
        for i in 0..<frames {
            var sum: Float = 0
            let base = i * channels
            for c in 0..<channels { sum += input[base + c] }
            output[i] = sum * scale
        }
    }
}
