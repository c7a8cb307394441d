/// Per-channel (planar) sample arrays, as the embedder keeps its 16 kHz deltas: handed to
/// code that takes buffers, and interleaved for output.
enum PlanarChannels {
    /// Calls `body` with `range` of every array, as buffers (the arrays stay put meanwhile).
    static func withBuffers(_ arrays: [[Float]], range: Range<Int>,
                            _ body: ([UnsafeBufferPointer<Float>]) -> Void) {
        func nest(_ c: Int, _ buffers: inout [UnsafeBufferPointer<Float>]) {
            if c == arrays.count { body(buffers); return }
            arrays[c].withUnsafeBufferPointer { whole in
                buffers.append(UnsafeBufferPointer(rebasing: whole[range]))
                nest(c + 1, &buffers)
            }
        }
        var buffers: [UnsafeBufferPointer<Float>] = []
        buffers.reserveCapacity(arrays.count)
        nest(0, &buffers)
    }

    /// Writes two channels as L R L R, four frames at a time.
    static func interleave(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, count: Int,
                           into output: UnsafeMutablePointer<Float>) {
        let l = UnsafeRawPointer(left), r = UnsafeRawPointer(right), out = UnsafeMutableRawPointer(output)
        var i = 0
        while i + 4 <= count {
            let a = l.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self)
            let b = r.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self)
            out.storeBytes(of: SIMD8<Float>(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]), toByteOffset: i * 8, as: SIMD8<Float>.self)
            i += 4
        }
        while i < count {
            output[2 * i] = left[i]
            output[2 * i + 1] = right[i]
            i += 1
        }
    }
}
