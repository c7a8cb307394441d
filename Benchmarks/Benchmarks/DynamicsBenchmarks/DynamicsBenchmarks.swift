import Benchmark
import Foundation
import QixCards
import QixDynamics

/// QixDynamics and QixCards speed: world steps per second for Box2D's large pyramid and a
/// 10-card scene, and display frames per second for a scripted 3-page card deck.
///
/// Each iteration advances a fixed number of world steps (1/120 s each) or display frames;
/// ms/step = wall-clock per iteration / steps per iteration.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .instructions, .mallocCountTotal]

    // (b) 5050 boxes (base 100) on a ground segment, one thread: 20 steps per iteration, after
    // one warm-up frame. Box2D v3 reference: about 2.5 ms per step.
    Benchmark("pyramid 5050 boxes, 20 steps", configuration: .init(metrics: metrics, maxDuration: .seconds(20), maxIterations: 10)) { benchmark in
        let scene = try SceneLoader.load(try scenes("pyramid-5050.json"))
        _ = scene.advanceFrame()
        benchmark.startMeasurement()
        for _ in 0..<10 { _ = scene.advanceFrame() }  // 60 fps frames: 2 steps each
        benchmark.stopMeasurement()
        blackHole(StateHash.of(scene.items))
    }

    // (a) 10 cards with rest springs, ropes, collisions and a drag: 4 s = 480 steps per iteration.
    Benchmark("cards10 scene, 480 steps", configuration: .init(metrics: metrics, maxDuration: .seconds(10), maxIterations: 50)) { benchmark in
        let scene = try SceneLoader.load(try scenes("cards10.json"))
        benchmark.startMeasurement()
        for _ in 0..<240 { _ = scene.advanceFrame() }
        benchmark.stopMeasurement()
        blackHole(StateHash.of(scene.items))
    }

    // The card-deck workload: a 3-page, 4-card deck with a scripted fling per page (445 frames to deckFinished).
    Benchmark("card deck 3x4 fling sequence", configuration: .init(metrics: metrics, maxDuration: .seconds(10), maxIterations: 100)) { benchmark in
        let deck = try Deck.load(try scenes("cards/three-pages.deck.json"))
        let gestures = try GestureScript.load(try scenes("cards/fling-sequence.gestures.json"), deck: deck)
        let cards = try CardDeck(deck: deck, gestures: gestures)
        benchmark.startMeasurement()
        cards.run(duration: nil) { _ in }
        benchmark.stopMeasurement()
        blackHole(cards.frame)
    }
}

/// Bytes of a file under corpus/scenes.
func scenes(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return [UInt8](try Data(contentsOf: root.appendingPathComponent("corpus/scenes/" + name)))
}
