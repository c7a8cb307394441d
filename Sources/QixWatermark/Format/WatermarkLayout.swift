/// The keyed tile map of one watermark frame: which tiles (band x slot) carry sync and
/// which carry which coded bit, and each tile's secret sign.
///
/// Tile index = slot * bandCount + band. Every slot holds `syncTilesPerSlot` sync tiles
/// in keyed bands, so sync energy is spread evenly in time; coded bits are interleaved
/// over the data tiles by a keyed permutation, so any part of a frame holds a piece of
/// every bit and a window that starts anywhere decodes. The formats share every keyed
/// choice; they differ in the code and in the sync tiles' polarity (`WatermarkFormat`).
public struct WatermarkLayout: Sendable {
    /// Secret sign of each tile (+1/-1): the sync chip, or the scrambling sign of a data tile.
    public let sign: [Float]
    /// Coded-bit index carried by each tile, or -1 for a sync tile.
    public let codedBit: [Int]
    /// The code protecting the payload.
    public let code: any PayloadCode
    /// The format this layout belongs to.
    public let format: WatermarkFormat

    /// Derives the layout of `format` for `key`.
    public init(key: WatermarkKey, format: WatermarkFormat = .current) {
        typealias P = WatermarkParameters
        self.format = format
        code = format.code
        var roles = KeyedStream(key: key, label: "sync-bands", capacity: 4 * P.bandCount * P.slotsPerFrame)
        var codedBit = [Int](repeating: 0, count: P.tileCount)
        var dataTiles: [Int] = []
        for slot in 0..<P.slotsPerFrame {
            let order = roles.permutation(P.bandCount)
            for (rank, band) in order.enumerated() {
                let tile = slot * P.bandCount + band
                if rank < P.syncTilesPerSlot { codedBit[tile] = -1 } else { dataTiles.append(tile) }
            }
        }
        dataTiles.sort()
        var interleave = KeyedStream(key: key, label: "interleave", capacity: 4 * dataTiles.count)
        let order = interleave.permutation(dataTiles.count)
        for (rank, index) in order.enumerated() { codedBit[dataTiles[index]] = rank % code.codedBits }
        var signs = KeyedStream(key: key, label: "signs", capacity: 4 * P.tileCount)
        let polarity = format.syncPolarity
        sign = (0..<P.tileCount).map { tile in signs.nextSign() * (codedBit[tile] < 0 ? polarity : 1) }
        self.codedBit = codedBit
    }

    /// The chip (+1/-1) of every tile for a payload: the sync sign, or the coded bit
    /// (0 -> -1, 1 -> +1) times the tile's secret sign.
    public func chips(for payload: WatermarkPayload, key: WatermarkKey) -> [Float] {
        chips(coded: code.encode(payload.bits(key: key)))
    }

    /// The chips of every tile for already coded bits.
    public func chips(coded: [UInt8]) -> [Float] {
        (0..<sign.count).map { tile in
            let bit = codedBit[tile]
            return bit < 0 ? sign[tile] : sign[tile] * (coded[bit] == 1 ? 1 : -1)
        }
    }
}
