import QixMarkup
import QixScenes

/// The JSON of card events in trace lines.
public enum CardTrace {
    /// One card event as JSON, or nil for engine events (written by TraceLine).
    public static func event(_ e: CardEvent) -> String? {
        var o = JSONLine()
        switch e {
        case .physics: return nil
        case .pageShown(let page): o.add("type", "pageShown"); o.add("page", page)
        case .dragBegan(let card, let point):
            o.add("type", "dragBegan"); o.add("card", card); o.addRaw("point", TraceLine.vector(point))
        case .dragEnded(let card, let velocity):
            o.add("type", "dragEnded"); o.add("card", card); o.addRaw("velocity", TraceLine.vector(velocity))
        case .flung(let page, let card, let velocity):
            o.add("type", "flung"); o.add("page", page); o.add("card", card); o.addRaw("velocity", TraceLine.vector(velocity))
        case .settled(let page): o.add("type", "settled"); o.add("page", page)
        case .pageDismissed(let page): o.add("type", "pageDismissed"); o.add("page", page)
        case .deckFinished: o.add("type", "deckFinished")
        }
        return o.string
    }
}
