/// One ID found in audio: where it was heard and how strongly.
public struct WatermarkDetection: Sendable, Equatable {
    /// The 32-bit ID.
    public var message: UInt32
    /// Start of the stretch that carried it, seconds from the start of the input.
    public var start: Double
    /// End of that stretch, in seconds.
    public var end: Double
    /// Normalised correlation of the audio with the decoded pattern (about N(0, 1)
    /// without the mark; a solid detection scores well above 10).
    public var score: Double
    /// Estimated playback speed relative to the marked original (1.03 = 3 % fast).
    public var speed: Double
    /// The format the mark was embedded in.
    public var format: WatermarkFormat
    /// Frame offset (in original hops) of the window that decoded it, for localisation.
    var frameOffset: Int?

    /// Makes a detection.
    public init(message: UInt32, start: Double, end: Double, score: Double, speed: Double,
                format: WatermarkFormat = .current) {
        self.message = message
        self.start = start
        self.end = end
        self.score = score
        self.speed = speed
        self.format = format
    }

    /// The ID as 8 lowercase hex digits.
    public var hex: String { WatermarkPayload.hex(message) }
}
