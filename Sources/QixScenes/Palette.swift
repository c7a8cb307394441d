/// Item colours for the pictures: hues a golden-ratio turn apart, so neighbouring items (by
/// index) always differ by about 137.5 degrees of hue however many there are, where a fixed
/// list of eight repeats and makes the ninth card look like the first.
public enum Palette {
    /// The golden-ratio conjugate: successive multiples spread evenly around the hue circle.
    static let step = 0.618033988749895

    /// The colour of item `index` as `#rrggbb` (saturation 65 %, lightness 42 %: dark enough for
    /// outlines on white, light enough for a translucent fill).
    public static func color(_ index: Int) -> String {
        let turns = 0.07 + Double(index) * step
        let hue = (turns - turns.rounded(.down)) * 360
        return hex(hue: hue, saturation: 0.65, lightness: 0.42)
    }

    /// HSL to `#rrggbb` (CSS Color 4's formula, rounded to the nearest 8-bit level).
    static func hex(hue: Double, saturation: Double, lightness: Double) -> String {
        let a = saturation * min(lightness, 1 - lightness)
        func channel(_ n: Double) -> Int {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let value = lightness - a * max(-1, min(k - 3, 9 - k, 1))
            return Int((value * 255).rounded())
        }
        let digits = Array("0123456789abcdef")
        var out = "#"
        for v in [channel(0), channel(8), channel(4)] {
            out.append(digits[v / 16])
            out.append(digits[v % 16])
        }
        return out
    }
}
