/// Numbers as the pictures write them: rounded to a fixed number of decimals, whole numbers
/// without ".0", so the same state always gives the same bytes and the files stay small.
enum SVGNumber {
    /// `x` rounded to `decimals` places (at most 6).
    static func format(_ x: Double, decimals: Int = 2) -> String {
        let factor = [1.0, 10, 100, 1000, 10000, 100000, 1000000][max(0, min(decimals, 6))]
        var r = (x * factor).rounded() / factor
        if r == 0 { r = 0 }  // no "-0"
        // Whole numbers print without ".0"; beyond 1e15 (or not finite) `String` prints the
        // Double itself, since converting it to Int64 would trap past 9.2e18.
        return r == r.rounded() && abs(r) < 1e15 ? String(Int64(r)) : String(r)
    }
}
