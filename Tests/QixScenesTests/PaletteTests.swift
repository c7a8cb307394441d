import Testing
@testable import QixScenes

/// The item colours: many distinct ones, and neighbours far apart in hue.
@Suite struct PaletteTests {
    /// The hue (degrees) of a `#rrggbb` colour.
    static func hue(_ hex: String) -> Double {
        let v = Array(hex.dropFirst()).chunks().map { Double(Int($0, radix: 16) ?? 0) / 255 }
        let hi = v.max()!, lo = v.min()!, d = hi - lo
        if d == 0 { return 0 }
        var h: Double
        if hi == v[0] { h = (v[1] - v[2]) / d } else if hi == v[1] { h = 2 + (v[2] - v[0]) / d } else { h = 4 + (v[0] - v[1]) / d }
        h *= 60
        return h < 0 ? h + 360 : h
    }

    @Test func thirtyTwoItemsGetThirtyTwoColours() {
        let colors = (0..<32).map(Palette.color)
        #expect(Set(colors).count == 32)
        #expect(colors.allSatisfy { $0.count == 7 && $0.hasPrefix("#") })
    }

    @Test func neighboursDifferByMoreThanNinetyDegreesOfHue() {
        for k in 0..<31 {
            let d = abs(Self.hue(Palette.color(k)) - Self.hue(Palette.color(k + 1)))
            #expect(min(d, 360 - d) > 90, "items \(k) and \(k + 1)")
        }
    }
}

private extension Array where Element == Character {
    /// Pairs of hex digits.
    func chunks() -> [String] { stride(from: 0, to: count - 1, by: 2).map { String(self[$0..<$0 + 2]) } }
}
