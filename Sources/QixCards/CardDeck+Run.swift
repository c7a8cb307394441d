import QixDynamics
import QixScenes

/// Running a deck for the contract's length of time.
extension CardDeck {
    /// Longest run without `--duration` (seconds).
    public static let maximumDuration = 60.0

    /// Runs exactly `duration` seconds, or (nil) until the deck finishes or the last gesture has
    /// ended and every card rests, capped at 60 s. Calls `each` after every frame with its events.
    /// Stops after the frame whose physics diverged (`animator.divergence`).
    public func run(duration: Double?, each: ([CardEvent]) throws -> Void) rethrows {
        // At most an hour (`Int` of an unchecked product would trap on a huge or NaN duration).
        let wanted = duration ?? Self.maximumDuration
        let seconds = wanted >= 0 ? (wanted <= 3600 ? wanted : 3600) : 0
        let limit = Int((seconds * deck.frameRate).rounded())
        while frame < max(limit, 1) {
            let events = advanceFrame()
            try each(events)
            if animator.divergence != nil { break }
            if duration == nil {
                if isFinished { break }
                if time >= gestures.lastEnd && isAtRest { break }
            }
        }
    }

    /// The `--hash` state: every card of every page, in deck order.
    public var allCards: [DynamicItem] { pages.flatMap { $0 } }
}
