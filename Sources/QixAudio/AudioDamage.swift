/// What a damaged input lost: audio that stops short of the length its header declares,
/// a last frame cut in the middle, or packets that could not be decoded. The reader keeps
/// going with what is there; a front end reports this once, as a warning.
public struct AudioDamage: Sendable, Equatable, CustomStringConvertible {
    /// The path the input was opened with.
    public var path: String
    /// Seconds of audio delivered before the input ended.
    public var end: Double
    /// Seconds the header or index declares, when it declares more than was there.
    public var declaredEnd: Double?
    /// True when the input stops in the middle of a coded frame.
    public var endsMidFrame: Bool
    /// Packets inside the input that could not be decoded and were skipped.
    public var skippedPackets: Int

    /// Makes a report from its parts.
    public init(path: String, end: Double, declaredEnd: Double? = nil, endsMidFrame: Bool = false, skippedPackets: Int = 0) {
        self.path = path
        self.end = end
        self.declaredEnd = declaredEnd
        self.endsMidFrame = endsMidFrame
        self.skippedPackets = skippedPackets
    }

    /// One line: `<path>: <what was lost>`.
    public var description: String {
        var parts: [String] = []
        if let declaredEnd {
            parts.append("truncated input: audio from \(Self.seconds(end)) to \(Self.seconds(declaredEnd)) is missing"
                         + " (\(Self.seconds(declaredEnd - end)) lost); read up to the cut")
        } else if endsMidFrame {
            parts.append("truncated input: the stream ends in the middle of a frame at \(Self.seconds(end));"
                         + " whatever followed is lost; read up to the cut")
        }
        if skippedPackets > 0 {
            parts.append("\(skippedPackets) damaged packet\(skippedPackets == 1 ? "" : "s") skipped")
        }
        return "\(path): " + (parts.isEmpty ? "damaged input" : parts.joined(separator: "; "))
    }

    /// Seconds with millisecond resolution, the way the detector reports positions.
    static func seconds(_ value: Double) -> String {
        let millis = Int64((max(0, value) * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }
}
