import ArgumentParser
import QixMarkup
import QixDynamics
import QixScenes

/// `qix sim`: runs a physics scene headless and writes its trace, hash and film strip.
struct SimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Simulate a UIKit-Dynamics-style scene (JSON) deterministically.",
        discussion: """
            SCENE is a scene file (docs/dynamics.md): referenceBounds, frameRate, items, behaviors, \
            timeline. The world advances in fixed 1/120 s steps; one trace line is written per \
            displayed frame. --hash prints 'hash: <16 hex>' last: FNV-1a over the bit patterns of every \
            item's centre, angle, velocity and angular velocity at the last frame, in item order; \
            --frame-hashes writes that hash for every frame. The same scene gives the same trace and \
            hash on every run and build. A run that diverges (a non-finite state, or beyond 1e9) \
            stops with an error naming the item and the time.
            """)

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @Option(parsing: .unconditional, help: "Seconds to simulate (default: the scene's duration, else 5).")
    var duration: Double?

    @OptionGroup var output: RunOutputOptions

    @Option(help: "Draw a film strip to this SVG file: items with their ids, joints, ropes, anchors and snap points.")
    var render: String?

    @Option(parsing: .upToNextOption, help: "Draw the frames at these times (seconds) instead of spreading --render-frames.")
    var renderAt: [Double] = []

    @Option(help: "Write 'frame hash' lines (the --hash of every frame) to this file, to find where two runs diverge.")
    var frameHashes: String?

    @OptionGroup var statsOptions: RunStatsOptions

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        if let duration, !(duration > 0 && duration <= 3600) { throw ValidationError("--duration must be in (0, 3600] seconds") }
        if renderAt.contains(where: { !($0 >= 0 && $0 <= 3600) }) { throw ValidationError("--render-at times must be in [0, 3600] seconds") }
        if let render, !render.hasSuffix(".svg") { throw ValidationError("--render needs a .svg file (the film strip is SVG)") }
    }

    func run() throws {
        quietOption.apply()
        let bytes = try FileIO.read(scene, what: "cannot read scene")
        let world: Scene
        do {
            world = try SceneLoader.load(bytes)
        } catch {
            throw CommandFailure("invalid scene", "\(scene): \(error.path.isEmpty ? "top level" : error.path)", error.reason)
        }
        let seconds = duration ?? world.duration ?? 5
        let frames = max(1, Int((seconds * world.frameRate).rounded()))
        let writer = try output.trace.flatMap { $0 == "-" ? nil : try FileIO.AtomicWriter($0) }
        let hashWriter = try frameHashes.map { try FileIO.AtomicWriter($0) }
        var strip = FilmStrip(viewport: world.referenceBounds, segments: world.boundarySegments)
        var chosen = render == nil ? [] : FilmStrip.chosenFrames(count: output.renderFrames, of: frames)
        if render != nil, !renderAt.isEmpty {
            // The first frame whose time is at or after each requested time.
            chosen = Array(Set(renderAt.map { min(frames, max(1, Int(($0 * world.frameRate - 1e-9).rounded(.up)))) })).sorted()
        }
        var nextChosen = 0
        var cost = statsOptions.counter(frameRate: world.frameRate, seconds: Double(frames) / world.frameRate)
        for _ in 0..<frames {
            let events = world.advanceFrame()
            cost.frameDone(world.frame)
            if let divergence = world.animator.divergence { throw DivergenceFailure.error(divergence) }
            try hashWriter?.line("\(world.frame) \(StateHash.hex(StateHash.of(world.items)))")
            if output.trace != nil {
                let line = TraceLine.frame(world.frame, time: world.time(ofFrame: world.frame), items: world.items, events: events)
                if let writer { try writer.line(line) } else { print(line) }
            }
            if nextChosen < chosen.count, chosen[nextChosen] == world.frame {
                strip.capture(frame: world.frame, time: world.time(ofFrame: world.frame), items: world.items, behaviors: world.animator.behaviors)
                nextChosen += 1
            }
        }
        try writer?.commit()
        try hashWriter?.commit()
        if let render {
            let out = try FileIO.AtomicWriter(render)
            try out.write(strip.svg())
            try out.commit()
        }
        statsOptions.report(cost, frames: frames, items: world.items.count)
        StandardError.info("qix: simulated \(frames) frames (\(JSONLine.number(Double(frames) / world.frameRate)) s) of \(world.items.count) items")
        output.printHash(StateHash.of(world.items))
    }
}
