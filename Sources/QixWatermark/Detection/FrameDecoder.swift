/// Reads the payload from a folded, normalised window at a known frame offset: tile
/// values, soft coded bits, the format's soft decoder, keyed check, and a score.
struct FrameDecoder {
    typealias P = WatermarkParameters
    let layout: WatermarkLayout
    let key: WatermarkKey
    /// Tile values are clipped at this many RMS.
    static let clipRatio: Float = 1.5

    /// Sum of each tile's 8 hops, for a frame that starts at `offset` in the window.
    func tiles(_ window: [Float], offset: Int) -> [Float] {
        let period = P.hopsPerFrame, hops = P.hopsPerSlot
        var tiles = [Float](repeating: 0, count: P.tileCount)
        window.withUnsafeBufferPointer { window in
            tiles.withUnsafeMutableBufferPointer { tiles in
                for slot in 0..<P.slotsPerFrame {
                    // Only a slot that wraps round the frame needs the modulo per hop.
                    let start = (offset + slot * hops) % period
                    let wraps = start + hops > period
                    for b in 0..<P.bandCount {
                        let row = window.baseAddress! + b * period
                        var sum: Float = 0
                        if wraps {
                            for h in 0..<hops { sum += row[(start + h) % period] }
                        } else {
                            for h in 0..<hops { sum += row[start + h] }
                        }
                        tiles[slot * P.bandCount + b] = sum
                    }
                }
            }
        }
        // Clip at a multiple of the RMS: the tiles the embedder could not bring to its
        // margin keep large host values of random sign, which would outvote good tiles.
        var energy: Float = 0
        for value in tiles { energy += value * value }
        let limit = Self.clipRatio * (energy / Float(tiles.count)).squareRoot()
        if limit > 0 { for i in tiles.indices { tiles[i] = min(limit, max(-limit, tiles[i])) } }
        return tiles
    }

    /// The decoded ID and its score (normalised correlation of all tiles with the
    /// re-encoded frame), or nil when the keyed check fails: on the most likely bits, then
    /// on up to `alternatives` runners-up (single detours), or with `listSize` > 0 on the
    /// list Viterbi decoder's `listSize` best paths; each one more 2^-24 chance for noise,
    /// recorded in `checks`.
    func decode(tiles: [Float], alternatives: Int = 0, listSize: Int = 0,
                checks: inout KeyedCheckCount) -> (payload: WatermarkPayload, score: Float)? {
        let soft = softBits(tiles)
        func verified(_ candidates: some Sequence<[UInt8]>) -> (payload: WatermarkPayload, score: Float)? {
            for bits in candidates {
                checks.record(bits)
                if let payload = WatermarkPayload.verify(bits, key: key) {
                    return (payload, score(tiles: tiles, chips: layout.chips(for: payload, key: key)))
                }
            }
            return nil
        }
        guard listSize > 0 else { return verified(layout.code.decode(soft, alternatives: alternatives)) }
        // The plain decode first: a clear mark passes without the list's cost. (Viterbi's
        // list starts with it; a polar list need not, so it is skipped wherever it is.)
        let plain = layout.code.decode(soft)
        return verified([plain]) ?? verified(layout.code.listDecode(soft, size: listSize).lazy.filter { $0 != plain })
    }

    /// Soft coded bits: each the sum of its tiles, unscrambled by their keyed signs.
    private func softBits(_ tiles: [Float]) -> [Float] {
        var soft = [Float](repeating: 0, count: layout.code.codedBits)
        for tile in 0..<P.tileCount where layout.codedBit[tile] >= 0 {
            soft[layout.codedBit[tile]] += layout.sign[tile] * tiles[tile]
        }
        return soft
    }

    /// The score of the most likely codeword, unchecked, against the tiles: how much the
    /// window at this offset looks like some frame of this key (noise offsets fit their
    /// best codeword too, but less than the true offset of a mark fits its own). `precise`
    /// takes the code's `mostLikely` codeword, else its plain decision (the same for
    /// Viterbi; for format 2 successive cancellation instead of the best of 8 paths).
    func fit(tiles: [Float], precise: Bool = true) -> Float {
        let soft = softBits(tiles)
        let bits = precise ? layout.code.mostLikely(soft) : layout.code.decode(soft)
        return score(tiles: tiles, coded: layout.code.encode(bits))
    }

    /// `score(tiles:chips:)` against the chips of coded bits, without building them: the
    /// same products in the same order.
    func score(tiles: [Float], coded: [UInt8]) -> Float {
        var dot: Float = 0, energy: Float = 0
        layout.sign.withUnsafeBufferPointer { sign in
            layout.codedBit.withUnsafeBufferPointer { codedBit in
                coded.withUnsafeBufferPointer { coded in
                    tiles.withUnsafeBufferPointer { tiles in
                        for i in 0..<tiles.count {
                            let value = tiles[i], bit = codedBit[i]
                            // A select, not a branch: the coded bits are random, so a branch on
                            // them mispredicts every other tile. Sync tiles (bit < 0) count +sign.
                            let one: Float = bit < 0 ? 1 : Float(coded[max(bit, 0)])
                            dot += value * (sign[i] * (2 * one - 1))
                            energy += value * value
                        }
                    }
                }
            }
        }
        return energy > 0 ? dot / energy.squareRoot() : 0
    }

    /// Normalised correlation of tile values with chips: about N(0, 1) for audio
    /// without this mark, growing with the square root of the marked tiles' count.
    func score(tiles: [Float], chips: [Float]) -> Float {
        var dot: Float = 0, energy: Float = 0
        for i in 0..<tiles.count {
            dot += tiles[i] * chips[i]
            energy += tiles[i] * tiles[i]
        }
        return energy > 0 ? dot / energy.squareRoot() : 0
    }
}
