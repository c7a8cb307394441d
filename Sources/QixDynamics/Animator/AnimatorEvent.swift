/// Something that happened during a display frame, reported by `DynamicAnimator.advance(by:)`.
public enum AnimatorEvent: Equatable {
    /// Two items, or an item and a boundary, started touching.
    case contactBegan(Contact)
    /// They stopped touching.
    case contactEnded(Contact)
    /// Every item came to rest; the animator stopped stepping (UIKit's `dynamicAnimatorDidPause`).
    case paused
    /// Something changed and the animator runs again (UIKit's `dynamicAnimatorWillResume`).
    case resumed
    /// An item's state became non-finite or passed its bound; the animator stopped for good.
    case diverged(Divergence)
}
