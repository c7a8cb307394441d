/// Where a recording joins the one before it on its channel: a recorder that cuts its
/// programme into hourly files cuts a spot on air at the hour into two pieces, and the
/// piece at the end of the earlier file can be too short to decode alone.
public struct RecordingJunction: Sendable, Equatable {
    /// The channel's recording before this one.
    public var predecessor: String
    /// Seconds from the predecessor's first sample to this recording's first sample, by
    /// their wall-clock starts: the predecessor's length when the two abut.
    public var offset: Double

    /// Makes a junction with the recording `predecessor` that started `offset` seconds earlier.
    public init(predecessor: String, offset: Double) {
        self.predecessor = predecessor
        self.offset = offset
    }
}
