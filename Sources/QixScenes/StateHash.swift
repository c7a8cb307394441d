import QixDynamics
import QixMarkup

/// The `--hash` of a run: 64-bit FNV-1a over the IEEE bit patterns (little-endian) of every item's
/// centre, angle, velocity and angular velocity, in item order.
public enum StateHash {
    /// The hash of the items' current state.
    public static func of(_ items: [DynamicItem]) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for item in items {
            for x in [item.center.x, item.center.y, item.angle, item.velocity.x, item.velocity.y, item.angularVelocity] {
                var bits = x.bitPattern
                for _ in 0..<8 {
                    h ^= bits & 0xFF
                    h = h &* 0x0000_0100_0000_01B3
                    bits >>= 8
                }
            }
        }
        return h
    }

    /// The hash as 16 lowercase hex digits.
    public static func hex(_ h: UInt64) -> String {
        String(h, radix: 16).leftPadded(16)
    }
}
