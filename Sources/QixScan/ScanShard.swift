/// One deterministic share of a scan's recordings, for spreading a scan over machines
/// (`--shard K/N`, Slurm job arrays, Kubernetes Indexed Jobs).
///
/// A recording belongs to shard `1 + FNV-1a(path) mod N`: stable whatever else is in the
/// input list, so shards never overlap and together cover everything.
public struct ScanShard: Sendable, Equatable, CustomStringConvertible {
    /// This shard, 1-based.
    public let index: Int
    /// Number of shards.
    public let count: Int

    /// The whole scan as one shard.
    public static let whole = try! ScanShard(index: 1, count: 1)

    /// Makes shard `index` of `count`; throws unless 1 <= index <= count. `subject` names
    /// where the index came from (an environment variable); nil means the `shard` parameter.
    public init(index: Int, count: Int, subject: String? = nil) throws {
        func invalid(_ reason: String) -> ScanError {
            subject.map { ScanError("invalid shard", $0, reason) } ?? ScanError("invalid shard", parameter: "shard", reason)
        }
        guard count >= 1 else { throw invalid("shard count must be at least 1, got \(count)") }
        guard (1...count).contains(index) else { throw invalid("shard \(index) of \(count) does not exist; use 1 to \(count)") }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ScanError("invalid shard", parameter: "shard", "'\(text)'; use K/N, e.g. 2/8")
        }
        try self.init(index: k, count: n)
    }

    /// The shard from a job scheduler's environment: Slurm array variables
    /// (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`, `SLURM_ARRAY_TASK_MIN`), or
    /// `JOB_COMPLETION_INDEX` (0-based, Kubernetes) with `shardCount`; nil when neither is set.
    public static func fromEnvironment(_ environment: [String: String], shardCount: Int?) throws -> ScanShard? {
        if let id = environment["SLURM_ARRAY_TASK_ID"] {
            guard let task = Int(id) else { throw ScanError("invalid shard", "SLURM_ARRAY_TASK_ID", "'\(id)' is not a number") }
            let countText = environment["SLURM_ARRAY_TASK_COUNT"]
            guard let count = shardCount ?? countText.flatMap(Int.init) else {
                throw ScanError("invalid shard", "SLURM_ARRAY_TASK_COUNT", "not set, and no shard count was given")
            }
            let minimum = environment["SLURM_ARRAY_TASK_MIN"].flatMap(Int.init) ?? 0
            return try ScanShard(index: task - minimum + 1, count: count, subject: "SLURM_ARRAY_TASK_ID")
        }
        if let id = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(id) else { throw ScanError("invalid shard", "JOB_COMPLETION_INDEX", "'\(id)' is not a number") }
            guard let count = shardCount else {
                throw ScanError("invalid shard", parameter: "shardCount", "JOB_COMPLETION_INDEX is set, so the shard count (the job's completions) must be given")
            }
            return try ScanShard(index: index + 1, count: count, subject: "JOB_COMPLETION_INDEX")
        }
        return nil
    }

    /// True when `path` belongs to this shard.
    public func contains(_ path: String) -> Bool {
        guard count > 1 else { return true }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int(hash % UInt64(count)) + 1 == index
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}
