import QixDynamics
import QixMarkup

/// The JSON of one trace line (CONTRACTS.md), shared by scene runs and card decks.
public enum TraceLine {
    /// `{"frame": n, "time": t, "items": [...], "events": [...]}` with extra card events appended.
    public static func frame(_ n: Int, time: Double, items: [DynamicItem], events: [AnimatorEvent], extra: [String] = []) -> String {
        var line = JSONLine()
        line.add("frame", n)
        line.add("time", time)
        line.addRaw("items", JSONLine.array(items.map(item)))
        line.addRaw("events", JSONLine.array(events.map(event) + extra))
        return line.string
    }

    /// A vector as a two-number JSON array.
    public static func vector(_ v: Vector2) -> String { "[\(JSONLine.number(v.x)), \(JSONLine.number(v.y))]" }

    /// One item's state as a JSON object.
    public static func item(_ item: DynamicItem) -> String {
        var o = JSONLine()
        o.add("id", item.identifier)
        o.addRaw("center", vector(item.center))
        o.add("angle", item.angle)
        o.addRaw("velocity", vector(item.velocity))
        o.add("angularVelocity", item.angularVelocity)
        return o.string
    }

    /// One engine event as a JSON object.
    public static func event(_ e: AnimatorEvent) -> String {
        var o = JSONLine()
        switch e {
        case .paused: o.add("type", "paused")
        case .resumed: o.add("type", "resumed")
        case .contactBegan(let c), .contactEnded(let c):
            if case .contactBegan = e { o.add("type", "contactBegan") } else { o.add("type", "contactEnded") }
            if let other = c.otherItem {
                o.addRaw("items", JSONLine.array([JSONLine.quoted(c.item.identifier), JSONLine.quoted(other.identifier)]))
            } else {
                o.addRaw("items", JSONLine.array([JSONLine.quoted(c.item.identifier)]))
                o.add("boundary", c.boundaryIdentifier)
            }
            if let point = c.point, let normal = c.normal {
                o.addRaw("point", vector(point))
                o.addRaw("normal", vector(normal))
            }
        case .diverged(let d):
            o.add("type", "diverged")
            o.addRaw("items", JSONLine.array([JSONLine.quoted(d.item.identifier)]))
            o.add("time", d.time)
            o.add("reason", d.reason)
        }
        return o.string
    }
}
