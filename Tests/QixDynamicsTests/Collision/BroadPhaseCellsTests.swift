import Testing
import QixTestSupport
@testable import QixDynamics

/// The C builds of the broad phase's boxes and cells (`BroadPhaseCells`) must give the Swift
/// loop's (`BroadPhase.fillCells` with `.swift`) exactly: for boxes on cell edges, on both
/// sides of zero, past the +-1e9 clamp, inverted, infinite and NaN.
@Suite struct BroadPhaseCellsTests {
    /// Bodies whose boxes run through the hard cases, and every one of them as an item.
    static func bodies() -> [Body] {
        var random = SplitMix64(seed: 7)
        let special: [Double] = [0, -0.0, 100, -100, 99.99999999999999, -1e-300, 1e11, -1e11, .infinity, -.infinity, .nan]
        return (0..<403).map { k in
            var b = Body(origin: .zero, angle: 0, q: .identity, localCenter: .zero, center: .zero)
            func coordinate() -> Double {
                let r = random.next()
                return r % 5 == 0 ? special[Int(r >> 8) % special.count] : (Double(r >> 11) * 0x1p-53 - 0.5) * 4000
            }
            b.lower = Vector2(coordinate(), coordinate())
            b.upper = k % 7 == 0 ? Vector2(coordinate(), coordinate()) : b.lower + Vector2(150, 35)
            return b
        }
    }

    /// The boxes and cells of every body with `kernel`, as bit patterns.
    static func cells(_ bodies: [Body], kernel: ContactKernel) -> [UInt64] {
        var bodies = bodies
        let n = bodies.count, items = (0..<n).map(Int32.init)
        var lower = [Vector2](repeating: .zero, count: n), upper = lower
        var low = [SIMD2<Int32>](repeating: .zero, count: n), high = low
        bodies.withUnsafeMutableBufferPointer { bp in items.withUnsafeBufferPointer { ip in
            lower.withUnsafeMutableBufferPointer { lp in upper.withUnsafeMutableBufferPointer { up in
                low.withUnsafeMutableBufferPointer { cl in high.withUnsafeMutableBufferPointer { ch in
                    BroadPhase.fillCells(kernel: kernel, bodies: bp.baseAddress!, items: ip, invCell: 1 / 130.0,
                                         into: (lp.baseAddress!, up.baseAddress!, cl.baseAddress!, ch.baseAddress!))
                } }
            } }
        } }
        return (0..<n).flatMap { k in
            [lower[k].x, lower[k].y, upper[k].x, upper[k].y].map(\.bitPattern)
                + [low[k].x, low[k].y, high[k].x, high[k].y].map { UInt64(UInt32(bitPattern: $0)) }
        }
    }

    @Test func everyBuildGivesTheSwiftCells() {
        let bodies = Self.bodies()
        let reference = Self.cells(bodies, kernel: .swift)
        for kernel in ContactKernelTests.cKernels {
            #expect(Self.cells(bodies, kernel: kernel) == reference, "\(kernel) differs from the Swift cells")
        }
    }
}
