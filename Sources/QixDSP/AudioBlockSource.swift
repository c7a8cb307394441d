/// Interleaved audio handed out block by block, so that the codec can mark or analyse a
/// source of any length (a file, a pipe, a generator) without knowing where it comes from.
public protocol AudioBlockSource {
    /// Frames per second.
    var sampleRate: Int { get }
    /// Interleaved channels per frame.
    var channels: Int { get }
    /// Calls `body` with successive interleaved blocks until the source ends; a block's
    /// storage may be reused after the call returns.
    func forEachBlock(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws
}
