/// A file reader is a block source: the codec marks and reads files through the protocol
/// alone, so `QixWatermark` needs no file code.
extension AudioFileReader: AudioBlockSource {
    /// The file's sample rate.
    public var sampleRate: Int { info.sampleRate }
    /// The file's channel count.
    public var channels: Int { info.channels }
    /// Hands out the rest of the file in blocks of the default size.
    public func forEachBlock(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        try forEachBlock(blockFrames: 65_536, body)
    }
}
