import Foundation

/// One deterministic share of a scan's recordings, for spreading a scan over machines
/// (`--shard K/N`, Slurm job arrays, Kubernetes Indexed Jobs).
///
/// A shard is (index, count) and nothing else: recording `p` belongs to shard
/// `1 + FNV-1a(p) mod N`, stable whatever else is in the input list, so shards never
/// overlap and together cover everything, however the tasks that scan them are laid out.
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

    /// The shard a job scheduler's task scans, with `shardCount` shards in all:
    /// `SLURM_ARRAY_TASK_ID` is the shard number itself, 1 to N (task K scans what
    /// `--shard K/N` scans); `JOB_COMPLETION_INDEX` (Kubernetes) is 0 to N-1. Nil when
    /// neither variable is set.
    ///
    /// The count is never taken from the array: `SLURM_ARRAY_TASK_COUNT` is the number of
    /// tasks submitted, which differs from the shard count for stepped (`1-8:2`), sparse
    /// (`2,5,9`) and re-submitted (`3,7`) arrays, so an index without a count is an error,
    /// as is an index outside the range (never wrapped onto another shard).
    public static func fromEnvironment(_ environment: [String: String], shardCount: Int?) throws -> ScanShard? {
        if let id = environment["SLURM_ARRAY_TASK_ID"] {
            let task = try number(id, "SLURM_ARRAY_TASK_ID")
            let count = try requireCount(shardCount, variable: "SLURM_ARRAY_TASK_ID",
                                         why: "the array's task count is not the shard count when the array is stepped, sparse or re-submitted")
            guard (1...count).contains(task) else {
                throw ScanError("invalid shard", "SLURM_ARRAY_TASK_ID",
                                "task \(task) is not a shard of \(count): array task IDs are the shard numbers 1 to \(count)"
                                + " (an array of 1-\(count), or any subset of it)")
            }
            return try ScanShard(index: task, count: count, subject: "SLURM_ARRAY_TASK_ID")
        }
        if let id = environment["JOB_COMPLETION_INDEX"] {
            let index = try number(id, "JOB_COMPLETION_INDEX")
            let count = try requireCount(shardCount, variable: "JOB_COMPLETION_INDEX", why: "it is the job's completions")
            guard (0..<count).contains(index) else {
                throw ScanError("invalid shard", "JOB_COMPLETION_INDEX",
                                "index \(index) is not a shard of \(count): completion indexes run from 0 to \(count - 1)")
            }
            return try ScanShard(index: index + 1, count: count, subject: "JOB_COMPLETION_INDEX")
        }
        return nil
    }

    /// A scheduler variable's value as a whole number, or an error naming the variable.
    private static func number(_ text: String, _ variable: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ScanError("invalid shard", variable, "'\(text)' is not a whole number")
        }
        return value
    }

    /// The shard count that must accompany a scheduler's index, or an error saying so.
    private static func requireCount(_ shardCount: Int?, variable: String, why: String) throws -> Int {
        guard let count = shardCount else {
            throw ScanError("invalid shard", parameter: "shardCount",
                            "\(variable) is set, so the number of shards must be given (\(why))")
        }
        guard count >= 1 else { throw ScanError("invalid shard", parameter: "shardCount", "must be at least 1, got \(count)") }
        return count
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
