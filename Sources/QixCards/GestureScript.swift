import QixDynamics
import QixScenes

/// One finger on one card: down at the first point, up at the last.
public struct Touch: Equatable, Sendable {
    /// The card touched.
    public var card: String
    /// Times (s) and positions (points), strictly increasing in time.
    public var times: [Double]
    /// Finger positions.
    public var points: [Vector2]

    /// A touch from matching lists of times and points (at least one, times increasing).
    public init(card: String, times: [Double], points: [Vector2]) {
        precondition(!times.isEmpty && times.count == points.count, "a touch needs matching, non-empty times and points")
        self.card = card
        self.times = times
        self.points = points
    }

    /// When the finger goes down.
    public var start: Double { times[0] }
    /// When it lifts.
    public var end: Double { times[times.count - 1] }

    /// The finger position at time `t` (linear between points, held outside).
    public func position(at t: Double) -> Vector2 {
        if t <= times[0] { return points[0] }
        for k in 1..<times.count where t <= times[k] {
            let u = (t - times[k - 1]) / (times[k] - times[k - 1])
            return points[k - 1] + u * (points[k] - points[k - 1])
        }
        return points[points.count - 1]
    }

    /// The release velocity: the finger's mean velocity over its last 50 ms (or its whole life if shorter).
    public var releaseVelocity: Vector2 {
        let span = min(0.05, end - start)
        if span <= 0 { return .zero }
        return (1 / span) * (position(at: end) - position(at: end - span))
    }
}

/// A gesture file: touches in time order.
public struct GestureScript: Sendable {
    /// The touches, ordered by start time.
    public var touches: [Touch]

    /// An empty script.
    public init(touches: [Touch] = []) { self.touches = touches }

    /// Reads and checks a gesture file against the deck's card ids.
    public static func load(_ bytes: [UInt8], deck: Deck) throws(JSONPathError) -> GestureScript {
        let root = try JSONValue.parse(bytes)
        guard case .array(let raw) = root else { throw JSONPathError("", "expected a list of touches, found \(root.typeName)") }
        let ids = Set(deck.pages.flatMap { $0.map(\.id) })  // membership only
        var touches: [Touch] = []
        for (k, rawTouch) in raw.enumerated() {
            let r = try JSONObjectReader(rawTouch, path: "[\(k)]")
            try r.allowOnly(["card", "points"])
            let card = try r.requiredString("card")
            if !ids.contains(card) { throw JSONPathError(r.path("card"), "unknown card id \"\(card)\"") }
            guard let rawPoints = try r.array("points"), !rawPoints.isEmpty else {
                throw JSONPathError(r.path("points"), "a touch needs at least one [t, x, y] point")
            }
            var times: [Double] = [], points: [Vector2] = []
            for (j, p) in rawPoints.enumerated() {
                let path = "\(r.path("points"))[\(j)]"
                guard case .array(let a) = p, a.count == 3 else { throw JSONPathError(path, "expected [t, x, y]") }
                let t = try JSONObjectReader.number(a[0], path: "\(path)[0]")
                let x = try JSONObjectReader.number(a[1], path: "\(path)[1]")
                let y = try JSONObjectReader.number(a[2], path: "\(path)[2]")
                if t < 0 { throw JSONPathError("\(path)[0]", "time must not be negative") }
                // A finger is on the screen; a screen's size of slack on every side still refuses
                // the far-away points that would only stretch a drag spring to overflow.
                guard x >= -deck.screen.x && x <= 2 * deck.screen.x else {
                    throw JSONPathError("\(path)[1]", "x must be within one screen width of the screen")
                }
                guard y >= -deck.screen.y && y <= 2 * deck.screen.y else {
                    throw JSONPathError("\(path)[2]", "y must be within one screen height of the screen")
                }
                if let last = times.last, t <= last { throw JSONPathError("\(path)[0]", "times must increase within a touch") }
                times.append(t)
                points.append(Vector2(x, y))
            }
            if let previous = touches.last, times[0] < previous.start {
                throw JSONPathError("\(r.path("points"))[0][0]", "touches are out of time order (starts before touch [\(k - 1)])")
            }
            touches.append(Touch(card: card, times: times, points: points))
        }
        return GestureScript(touches: touches)
    }

    /// When the last touch lifts (0 without touches).
    public var lastEnd: Double { touches.map(\.end).max() ?? 0 }
}
