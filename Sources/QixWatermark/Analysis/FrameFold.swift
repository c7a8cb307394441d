/// Band statistics folded onto the watermark frame grid: hop u of the original timing
/// goes to row u mod 192 of chunk u / 192. Because the frame repeats through the file,
/// summing chunks adds up the repetitions of every tile (soft combining across frames),
/// and a window that starts anywhere still covers every tile once it spans a frame.
struct FrameFold {
    typealias P = WatermarkParameters
    /// Values per chunk: `bandCount * hopsPerFrame`, band-major.
    static var chunkSize: Int { P.bandCount * P.hopsPerFrame }
    /// Folded values, `chunkCount * chunkSize`, from chunk `firstChunk` on.
    var values: [Float] = []
    /// Absolute index of the first chunk held (non-zero for a stream's recent hops).
    var firstChunk = 0
    /// Number of chunks held.
    var chunkCount = 0
    /// Absolute index one past the last chunk held.
    var endChunk: Int { firstChunk + chunkCount }

    /// Folds `stats` (rows of `bandCount` values for global hops starting at `firstHop`)
    /// as played at `speed`: received hop m is original hop speed * m, split linearly
    /// between the two nearest original hops.
    mutating func fold(_ stats: [Float], firstHop: Int, speed: Double) {
        let bands = P.bandCount, period = P.hopsPerFrame
        let hops = stats.count / bands
        let lastU = speed * Double(firstHop + hops) + 2
        firstChunk = Int(speed * Double(firstHop)) / period
        chunkCount = max(1, Int(lastU / Double(period)) + 1 - firstChunk)
        values.removeAll(keepingCapacity: true)
        values.appendZeros(chunkCount * Self.chunkSize)
        stats.withUnsafeBufferPointer { s in
            values.withUnsafeMutableBufferPointer { v in
                for h in 0..<hops {
                    let u = speed * Double(firstHop + h)
                    let base = Int(u)
                    let frac = Float(u - Double(base))
                    for side in 0..<2 {
                        let target = base + side
                        let weight = side == 0 ? 1 - frac : frac
                        let absolute = target / period, row = target - absolute * period
                        let chunk = absolute - firstChunk
                        guard weight > 0, chunk >= 0, chunk < chunkCount else { continue }
                        let rows = v.baseAddress! + (chunk * Self.chunkSize + row), source = s.baseAddress! + h * bands
                        for b in 0..<bands { rows[b * period] += weight * source[b] }
                    }
                }
            }
        }
    }

    /// Sums chunks `range` (absolute indices) into `window` (one frame, band-major) and scales each band
    /// to unit RMS, so that every band weighs the same whatever its host level.
    func window(_ range: Range<Int>, into window: inout [Float]) {
        let size = Self.chunkSize, period = P.hopsPerFrame
        window.removeAll(keepingCapacity: true)
        window.appendZeros(size)
        values.withUnsafeBufferPointer { v in
            window.withUnsafeMutableBufferPointer { w in
                for absolute in range where absolute >= firstChunk && absolute < endChunk {
                    // From base pointers: no checked index sum per value, so the adds vectorise.
                    let chunk = v.baseAddress! + (absolute - firstChunk) * size, sum = w.baseAddress!
                    for i in 0..<size { sum[i] += chunk[i] }
                }
                for b in 0..<P.bandCount {
                    var energy: Float = 0
                    for r in 0..<period { energy += w[b * period + r] * w[b * period + r] }
                    let scale: Float = energy > 1e-20 ? 1 / (energy / Float(period)).squareRoot() : 0
                    for r in 0..<period { w[b * period + r] *= scale }
                }
            }
        }
    }
}
