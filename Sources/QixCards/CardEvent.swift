import QixDynamics
import QixScenes

/// Something the card deck reports, in time order (pages are numbered from 1).
public enum CardEvent: Equatable {
    /// A page's cards started entering.
    case pageShown(page: Int)
    /// A finger started dragging a card at a point.
    case dragBegan(card: String, point: Vector2)
    /// The finger lifted with this release velocity (points/s).
    case dragEnded(card: String, velocity: Vector2)
    /// The release was above the fling threshold: the page falls.
    case flung(page: Int, card: String, velocity: Vector2)
    /// Every card of the page rests at its rest point.
    case settled(page: Int)
    /// Every card of a flung page left the screen.
    case pageDismissed(page: Int)
    /// The last page was dismissed.
    case deckFinished
    /// An engine event (contacts, pause, resume).
    case physics(AnimatorEvent)
}
