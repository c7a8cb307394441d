import ArgumentParser
import QixMarkup
import QixCards
import QixDynamics
import QixScenes

/// `qix cards`: plays the app's card-deck animation headless against a gesture script.
struct CardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cards",
        abstract: "Run a card deck (JSON) with scripted gestures, deterministically.",
        discussion: """
            DECK holds screen, flingThreshold, gravity and pages of cards; GESTURES is a list of \
            touches {"card": id, "points": [[t, x, y], ...]} (docs/cards.md). Without --duration the \
            run ends when the deck finishes, or when the last gesture has ended and every card rests \
            (at most 60 s). Trace lines list the cards on screen; events add pageShown, dragBegan, \
            dragEnded, flung, settled, pageDismissed, deckFinished. --hash covers every card of the deck. \
            --render writes a film strip (.svg) or a self-contained player page (.html: play, pause, scrubber, time).
            """)

    @Argument(help: "The deck file (JSON).")
    var deck: String

    @Option(help: "The gesture file (JSON).")
    var gestures: String?

    @Option(parsing: .unconditional, help: "Seconds to run (default: until finished or at rest, at most 60).")
    var duration: Double?

    @OptionGroup var output: RunOutputOptions

    @Option(help: "Draw the run: OUT.svg (film strip with ids, ropes, springs, snap points and the finger) or OUT.html (player).")
    var render: String?

    @Option(help: "Write 'frame hash' lines (the --hash of every frame) to this file, to find where two runs diverge.")
    var frameHashes: String?

    @OptionGroup var statsOptions: RunStatsOptions

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        if let duration, !(duration > 0 && duration <= 3600) { throw ValidationError("--duration must be in (0, 3600] seconds") }
        if let render, !(render.hasSuffix(".svg") || render.hasSuffix(".html")) { throw ValidationError("--render needs a .svg or .html file") }
    }

    func run() throws {
        quietOption.apply()
        let parsedDeck: Deck
        do {
            parsedDeck = try Deck.load(try FileIO.read(deck, what: "cannot read deck"))
        } catch let error as JSONPathError {
            throw CommandFailure("invalid deck", "\(deck): \(error.path.isEmpty ? "top level" : error.path)", error.reason)
        }
        var script = GestureScript()
        if let gestures {
            do {
                script = try GestureScript.load(try FileIO.read(gestures, what: "cannot read gestures"), deck: parsedDeck)
            } catch let error as JSONPathError {
                throw CommandFailure("invalid gestures", "\(gestures): \(error.path.isEmpty ? "top level" : error.path)", error.reason)
            }
        }
        let cards = try CardDeck(deck: parsedDeck, gestures: script)
        let writer = try output.trace.flatMap { $0 == "-" ? nil : try FileIO.AtomicWriter($0) }
        let hashWriter = try frameHashes.map { try FileIO.AtomicWriter($0) }
        let screen = Rect(x: 0, y: 0, width: parsedDeck.screen.x, height: parsedDeck.screen.y)
        var animation = OutlineAnimation(viewport: screen)
        // The player needs no more than 30 frames/s, which keeps a long deck's page small.
        let stride = max(1, Int((parsedDeck.frameRate / 30).rounded()))
        var snapshots: [(Int, Double, FrameSketch)] = []
        var cost = statsOptions.counter(frameRate: parsedDeck.frameRate)
        try cards.run(duration: duration) { events in
            cost.frameDone(cards.frame)
            if let divergence = cards.animator.divergence { throw DivergenceFailure.error(divergence) }
            try hashWriter?.line("\(cards.frame) \(StateHash.hex(StateHash.of(cards.allCards)))")
            if output.trace != nil {
                let physics = events.compactMap { e -> AnimatorEvent? in if case .physics(let p) = e { return p } else { return nil } }
                let extra = events.compactMap(CardTrace.event)
                let line = TraceLine.frame(cards.frame, time: cards.time, items: cards.visibleCards, events: physics, extra: extra)
                if let writer { try writer.line(line) } else { print(line) }
            }
            if render?.hasSuffix(".html") == true, cards.frame % stride == 0 {
                animation.capture(frame: cards.frame, time: cards.time, items: cards.visibleCards, behaviors: cards.animator.behaviors,
                                  finger: cards.fingerPosition)
            }
            if render?.hasSuffix(".svg") == true {
                // Which frames the strip shows is known only at the end, so every frame is kept.
                snapshots.append((cards.frame, cards.time,
                                  FrameSketch(items: cards.visibleCards, behaviors: cards.animator.behaviors, finger: cards.fingerPosition)))
            }
        }
        try writer?.commit()
        try hashWriter?.commit()
        if let render { try write(render: render, screen: screen, snapshots: snapshots, animation: animation) }
        statsOptions.report(cost, frames: cards.frame, items: cards.allCards.count)
        StandardError.info("qix: ran \(cards.frame) frames (\(JSONLine.number(cards.time)) s)\(cards.isFinished ? ", deck finished" : "")")
        output.printHash(StateHash.of(cards.allCards))
    }

    /// Writes the player, or the film strip with its frames chosen now that the run's length is known.
    private func write(render path: String, screen: Rect, snapshots: [(Int, Double, FrameSketch)], animation: OutlineAnimation) throws {
        let out = try FileIO.AtomicWriter(path)
        if path.hasSuffix(".html") {
            try out.write(animation.html(title: "qix cards \(deck)"))
        } else {
            var strip = FilmStrip(viewport: screen, segments: [])
            for f in FilmStrip.chosenFrames(count: output.renderFrames, of: snapshots.count) {
                let s = snapshots[f - 1]
                strip.add(frame: s.0, time: s.1, sketch: s.2)
            }
            try out.write(strip.svg())
        }
        try out.commit()
    }
}
