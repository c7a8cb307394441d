/// Multiplies a run of samples by a window into an FFT input and says whether anything
/// is there: the analysis front end and the delta synthesis both skip silent frames.
enum FrameWindow {
    /// Writes `samples[i] * window[i]` to `output[i]` for `count` values and returns their
    /// sum of squares: eight lanes and then the tail, so no multiply waits on a chain of
    /// adds. Callers only ask whether it is zero, which holds in any order exactly when
    /// every product is zero (and NaN stays NaN).
    @inline(__always)
    static func apply(_ samples: UnsafePointer<Float>, _ window: UnsafePointer<Float>,
                      into output: UnsafeMutablePointer<Float>, count: Int) -> Float {
        let source = UnsafeRawPointer(samples), taper = UnsafeRawPointer(window)
        let target = UnsafeMutableRawPointer(output)
        var lanes = SIMD8<Float>()
        var i = 0
        while i + 8 <= count {
            let v = source.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self)
                * taper.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self)
            target.storeBytes(of: v, toByteOffset: 4 * i, as: SIMD8<Float>.self)
            lanes += v * v
            i += 8
        }
        var energy = lanes.sum()
        while i < count {
            let v = samples[i] * window[i]
            output[i] = v
            energy += v * v
            i += 1
        }
        return energy
    }
}
