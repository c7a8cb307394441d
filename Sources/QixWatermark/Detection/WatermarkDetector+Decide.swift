/// The decision stage of a detection: each window's expected ID or decoded payload (with
/// a half-step speed refinement when the grid missed), and each merged detection's
/// boundaries refined at hop resolution.
extension WatermarkDetector {
    /// A decoded window and the stretch of the input it covers, in seconds.
    struct Found {
        var start: Double
        var end: Double
        var speed: Double
        var offset: Int
        var format: WatermarkFormat
        var payload: WatermarkPayload
        var score: Float
    }

    /// Every window's decisions, in window order; an expected ID must score `expectedScore`.
    func decideWindows(_ spectra: HopSpectra, plan: SearchPlan, search: WindowSearch, duration: Double,
                       expectedScore: Float) -> [Found] {
        var found: [Found] = []
        for w in 0..<plan.windowCount {
            decideWindow(w, spectra, plan: plan, search: search, duration: duration, expectedScore: expectedScore,
                         into: &found)
        }
        return found
    }

    /// The stretch window `w` covers at `speed`, in seconds of the input.
    private func span(_ w: Int, speed: Double, plan: SearchPlan, duration: Double) -> (start: Double, end: Double) {
        let hopSeconds = SpectralFrontEnd.hopSeconds
        if w >= plan.windows.count {
            let range = Self.edgeHops(w - plan.windows.count, of: plan.hops, speed: speed)
            return (Double(range.lowerBound) * hopSeconds, Double(range.upperBound) * hopSeconds)
        }
        let chunks = plan.windows[w]
        let chunkHops = Double(P.hopsPerFrame)
        let end = chunks.upperBound >= plan.nominalChunks ? duration : Double(chunks.upperBound) * chunkHops / speed * hopSeconds
        return (Double(chunks.lowerBound) * chunkHops / speed * hopSeconds, end)
    }

    /// Window `w`: the best expected ID scoring `expectedScore`, the blind decode, or a
    /// decode at a refined speed.
    private func decideWindow(_ w: Int, _ spectra: HopSpectra, plan: SearchPlan, search: WindowSearch,
                              duration: Double, expectedScore: Float, into found: inout [Found]) {
        func accept(_ payload: WatermarkPayload, _ score: Float, speed: Double, offset: Int, format: WatermarkFormat) {
            let (start, end) = span(w, speed: speed, plan: plan, duration: duration)
            found.append(Found(start: max(0, start), end: min(duration, end), speed: speed, offset: offset,
                               format: format, payload: payload, score: score))
        }
        let decoded = decodeCandidates(search.candidates[w], thorough: plan.thorough)
        // One mark per stretch: the best expected ID, unless the keyed check proved
        // another one is there (related IDs share part of their pattern).
        if let (p, best) = search.known[w].enumerated().max(by: { $0.element.score < $1.element.score }),
           best.score >= expectedScore,
           decoded == nil || decoded?.payload.message == expected[p % expected.count] {
            accept(WatermarkPayload(message: expected[p % expected.count]), best.score, speed: speeds[best.speed].speed,
                   offset: best.offset, format: expectedFormats[p / expected.count])
        }
        if let hit = decoded {
            accept(hit.payload, hit.score, speed: speeds[hit.speed].speed, offset: hit.offset, format: hit.format)
            return
        }
        if let hit = refineSpeed(w, spectra, plan: plan, candidates: search.candidates[w]) {
            accept(hit.payload, hit.score, speed: hit.speed, offset: hit.offset, format: hit.format)
        }
    }

    /// The coarse speed grid can be half a step off: the first promising candidate that
    /// decodes half a step either side of its speed.
    private func refineSpeed(_ w: Int, _ spectra: HopSpectra, plan: SearchPlan, candidates: [Candidate])
        -> (payload: WatermarkPayload, score: Float, speed: Double, offset: Int, format: WatermarkFormat)? {
        for candidate in candidates where searchesSpeed && candidate.z >= Self.refineZ {
            for step in [-0.5, 0.5] {
                let speed = speeds[candidate.speed].speed + step * P.speedStep
                let (window, offset) = w >= plan.windows.count
                    ? refoldEdge(spectra, edge: w - plan.windows.count, hops: plan.hops, speed: speed, floors: plan.floors,
                                 format: candidate.format)
                    : refold(spectra, chunks: plan.windows[w], nominalChunks: plan.nominalChunks, speed: speed,
                             floors: plan.floors, format: candidate.format)
                if let (payload, score) = decode(window, offset: offset, format: candidate.format) {
                    return (payload, score, speed, offset, candidate.format)
                }
            }
        }
        return nil
    }

    /// Window edges are a frame apart: each detection's stretch refined at hop resolution.
    func locate(_ detections: [WatermarkDetection], in spectra: HopSpectra, floors: [Float],
                duration: Double) -> [WatermarkDetection] {
        let hopSeconds = SpectralFrontEnd.hopSeconds
        var located = detections
        for i in located.indices {
            let d = located[i]
            guard let offset = d.frameOffset else { continue }
            let guess = Int(d.start / hopSeconds)..<Int((d.end / hopSeconds).rounded(.up))
            let layout = decoder(d.format).layout
            let chips = layout.chips(for: WatermarkPayload(message: d.message), key: key)
            let stretch = MarkLocator.locate(spectra, guess: guess, chips: chips, dataTiles: layout.codedBit.map { $0 >= 0 },
                                             scale: SpeedScale(speed: d.speed, layout: d.format.bandLayout),
                                             offset: offset, floors: floors)
            // Hop m is centred on sample 256 m: the stretch runs half a hop either side.
            located[i].start = max(0, (Double(stretch.lowerBound) - 0.5) * hopSeconds)
            located[i].end = min(duration, (Double(stretch.upperBound) - 0.5) * hopSeconds)
        }
        return located
    }
}
