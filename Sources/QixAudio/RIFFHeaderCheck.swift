/// Refuses the WAV headers that libsndfile cannot get out of: a `LIST` chunk whose entry
/// claims more bytes than the list holds (an 802-byte file whose INFO entry claimed 4 GB
/// kept libsndfile 1.2.0's `sf_open` busy for minutes, found by the audio_file fuzz
/// harness). FFmpeg's WAV reader refuses the same file at once; no writer produces one.
enum RIFFHeaderCheck {
    /// Why the RIFF/WAVE header in `prefix` (the file's first bytes) is unreadable, or nil
    /// for any other content, or a header whose chunks lie beyond the prefix.
    static func damage(in prefix: [UInt8]) -> String? {
        guard prefix.count >= 12, prefix.starts(with: Array("RIFF".utf8)), Array(prefix[8..<12]) == Array("WAVE".utf8) else {
            return nil
        }
        var offset = 12
        while offset + 8 <= prefix.count {
            let id = String(decoding: prefix[offset..<(offset + 4)], as: UTF8.self), size = littleEndian32(prefix, at: offset + 4)
            if id == "data" { return nil }
            if id == "LIST", let reason = listDamage(prefix, list: (offset + 12)..<(offset + 8 + size)) { return reason }
            offset += 8 + size + size % 2
        }
        return nil
    }

    /// The first entry of the LIST chunk whose body is `body` (after its 4-byte type) that
    /// runs past the list's end, as far as the prefix shows it.
    private static func listDamage(_ prefix: [UInt8], list body: Range<Int>) -> String? {
        var entry = body.lowerBound
        while entry + 8 <= min(body.upperBound, prefix.count) {
            let size = littleEndian32(prefix, at: entry + 4)
            if entry + 8 + size > body.upperBound {
                let id = String(decoding: prefix[entry..<(entry + 4)].map { (32...126).contains($0) ? $0 : 63 }, as: UTF8.self)
                return "damaged WAV header: the LIST entry '\(id)' claims \(size) bytes, past the end of its list"
            }
            entry += 8 + size + size % 2
        }
        return nil
    }

    /// The unsigned 32-bit little-endian value at `offset`.
    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
}
