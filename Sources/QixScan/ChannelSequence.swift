/// The recordings of a scan in wall-clock order per channel, from their names or sidecars,
/// so that each recording can be read on from the end of the one before it.
///
/// Built from the whole catalog, not from one shard's part of it: a shard reads its
/// recordings' predecessors wherever they fall, so sharded and unsharded scans agree.
public struct ChannelSequence: Sendable {
    private var junctions: [String: RecordingJunction] = [:]

    /// Orders `paths` by channel and start, read through `pattern`; recordings whose channel or
    /// start is unknown, or whose sidecar cannot be read, join nothing.
    public init(paths: [String], pattern: RecordingNamePattern) {
        var timed: [String: [(start: Double, path: String)]] = [:]
        for path in paths {
            guard let origin = try? RecordingOrigin.of(path, pattern: pattern),
                  let channel = origin.channel, let start = origin.start else { continue }
            timed[channel, default: []].append((start.secondsSinceEpoch, path))
        }
        for (_, list) in timed {
            let ordered = list.sorted { ($0.start, $0.path) < ($1.start, $1.path) }
            for (earlier, later) in zip(ordered, ordered.dropFirst()) where later.start > earlier.start {
                junctions[later.path] = RecordingJunction(predecessor: earlier.path, offset: later.start - earlier.start)
            }
        }
    }

    /// The junction of `path` with the channel's recording before it, if there is one.
    public func junction(before path: String) -> RecordingJunction? { junctions[path] }

    /// What `path`'s scan reads besides the recording itself: the previous recording's path and
    /// on-disk identity (size, modification time, content fingerprint), or "unreadable" in
    /// their place; empty without a predecessor. A stored result read on from another is stale.
    public func junctionIdentity(before path: String) -> String {
        guard let junction = junctions[path] else { return "" }
        guard let file = try? RecordingFile(path: junction.predecessor) else { return junction.predecessor + "\tunreadable" }
        return [file.path, String(file.size), String(file.modificationTime), file.fingerprint].joined(separator: "\t")
    }
}
