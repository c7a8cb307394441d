/// Mixes interleaved multichannel audio down to mono by averaging the channels.
public enum ChannelMixer {
    /// Writes the per-frame average of `input`'s `channels` into `output`, which must
    /// hold `input.count / channels` samples.
    @inlinable
    public static func mixDown(_ input: UnsafeBufferPointer<Float>, channels: Int,
                               into output: UnsafeMutableBufferPointer<Float>) {
        let frames = input.count / channels
        precondition(output.count >= frames, "output too small for the mix")
        guard frames > 0 else { return }   // an empty buffer may have no base address
        if channels == 1 {
            for i in 0..<frames { output[i] = input[i] }
            return
        }
        if channels == 2 {
            // Four frames per SIMD load, each lane the scalar formula (so the same values).
            let pairs = UnsafeRawPointer(input.baseAddress!), mono = UnsafeMutableRawPointer(output.baseAddress!)
            var i = 0
            while i + 4 <= frames {
                let v = pairs.loadUnaligned(fromByteOffset: 8 * i, as: SIMD8<Float>.self)
                mono.storeBytes(of: 0.5 * (v.evenHalf + v.oddHalf), toByteOffset: 4 * i, as: SIMD4<Float>.self)
                i += 4
            }
            while i < frames {
                output[i] = 0.5 * (input[2 * i] + input[2 * i + 1])
                i += 1
            }
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
