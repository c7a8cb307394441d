import QixDSP
import QixMarkup
import QixDynamics

/// The CLI's error for a run the engine stopped because it diverged:
/// `simulation diverged (item a, t = 1.25 s): velocity nan is not finite`.
enum DivergenceFailure {
    /// The one-line error for `divergence`.
    static func error(_ divergence: Divergence) -> CommandFailure {
        // The time is a sum of 1/120 s steps: shown to the microsecond (1.525, not 1.524999999999997).
        let time = (divergence.time * 1e6).rounded() / 1e6
        return CommandFailure("simulation diverged", "item \(divergence.item.identifier), t = \(JSONLine.number(time)) s",
                              divergence.reason)
    }
}
