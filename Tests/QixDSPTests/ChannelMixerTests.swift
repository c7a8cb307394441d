import Testing
import QixDSP

/// The channel mix detection reads: stereo takes a four-frames-at-a-time path, which must
/// give the scalar formula's values for every length.
struct ChannelMixerTests {
    @Test func stereoMixIsTheAverageOfEachFrame() {
        var state: UInt32 = 12_345
        func next() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: state)) / Float(Int32.max)
        }
        for frames in [0, 1, 3, 4, 5, 17, 1_000, 1_003] {
            let input = (0..<(2 * frames)).map { _ in next() }
            var output = [Float](repeating: .nan, count: frames)
            input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { ChannelMixer.mixDown(i, channels: 2, into: $0) }
            }
            var expected: [Float] = []
            for i in 0..<frames {
                let left: Float = input[2 * i], right: Float = input[2 * i + 1]
                expected.append(0.5 * (left + right))
            }
            let got: [UInt32] = output.map { $0.bitPattern }, want: [UInt32] = expected.map { $0.bitPattern }
            #expect(got == want, "\(frames) frames")
        }
        // Empty buffers without storage (no base address) mix to nothing.
        ChannelMixer.mixDown(UnsafeBufferPointer(start: nil, count: 0), channels: 2,
                             into: UnsafeMutableBufferPointer(start: nil, count: 0))
    }
}
