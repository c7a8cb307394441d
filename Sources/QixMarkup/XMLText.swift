/// Text for the XML, SVG and HTML documents the toolkit writes (film strips, animation
/// pages, airing timelines): item IDs, channel names and paths come from users' files.
public enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped, safe in a text node or a quoted attribute.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
