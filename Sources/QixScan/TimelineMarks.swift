/// Where the airing marks of one lane go at one scale, so that every airing stays a mark of
/// its own.
///
/// At week scale a 30 s spot is a twentieth of a pixel, and three spots a quarter of an hour
/// apart fall on the same two pixels: drawn to scale they merged into one sliver, and a
/// person counted one airing where there were three. Each mark is therefore at least
/// `minimumWidth` pixels wide and `separation` pixels clear of the next; a mark that would
/// touch the one before first shortens that one (down to the minimum width), then moves right
/// of it. A mark keeps its place whenever the scale leaves room, so only crowded marks move,
/// by a few pixels, and their tooltips still give the exact time. The page's script places
/// marks the same way when it zooms or filters (`TimelineScript`).
enum TimelineMarks {
    /// Narrowest mark, pixels: visible, and wide enough to hover.
    static let minimumWidth = 3.0
    /// Clear pixels between neighbouring marks.
    static let separation = 1.0

    /// The drawn ranges of marks whose true ranges are `spans` (pixels, sorted by start),
    /// kept within `bounds`, in the same order.
    static func place(_ spans: [(x: Double, width: Double)], within bounds: ClosedRange<Double>) -> [(x: Double, width: Double)] {
        var placed: [(x: Double, width: Double)] = []
        for span in spans {
            var x = span.x
            if let last = placed.last {
                x = max(x, last.x + minimumWidth + separation)
                placed[placed.count - 1].width = min(last.width, x - separation - last.x)
            }
            placed.append((x, max(span.width, minimumWidth)))
        }
        // Marks pushed past the right edge move back left, each clear of the one after it.
        var limit = bounds.upperBound
        for index in placed.indices.reversed() {
            placed[index].x = max(bounds.lowerBound, min(placed[index].x, limit - placed[index].width))
            limit = placed[index].x - separation
        }
        return placed
    }
}
