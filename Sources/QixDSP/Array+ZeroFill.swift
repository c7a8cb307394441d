/// Zeros to copy from: appending `repeatElement(0, count:)` goes value by value through
/// the generic sequence path, a copy from here runs at memcpy speed.
@usableFromInline let zeroFloats = [Float](repeating: 0, count: 16_384)

extension Array where Element == Float {
    /// Appends `count` zeros (buffers that are filled in place after growing).
    @inlinable
    public mutating func appendZeros(_ count: Int) {
        var left = count
        zeroFloats.withUnsafeBufferPointer { zeros in
            while left > 0 {
                let n = Swift.min(left, zeros.count)
                append(contentsOf: UnsafeBufferPointer(rebasing: zeros[0..<n]))
                left -= n
            }
        }
    }

    /// Grows the array to `count` (zero-filled) and hands out its storage.
    @inlinable
    public mutating func withUnsafeMutableBufferPointer<R>(
        growingTo count: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R
    ) rethrows -> R {
        if self.count < count { appendZeros(count - self.count) }
        return try withUnsafeMutableBufferPointer { try body(UnsafeMutableBufferPointer(rebasing: $0[0 ..< count])) }
    }
}
