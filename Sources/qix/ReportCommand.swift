import ArgumentParser
import QixMarkup
import QixScan
#if canImport(Glibc)
import Glibc
#endif

/// `qix report`: airings from a scan database, as JSON lines, CSV, a table, counts or an HTML timeline.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "List the airings stored in a scan database.",
        discussion: """
            An airing is one stretch of one ID, merged across adjacent detection windows and \
            across the boundary of consecutive recordings of one channel. Airings are ordered \
            by recording path, then start. With --json, one object per airing per line: \
            {"id", "recording", "channel", "start", "end", "wallclock_start", "score"}; with --by, \
            one line per group instead: {"id"|"channel"|"day", "airings", "seconds"}. With \
            --coverage, one line per channel (every channel scanned, with airings or not): \
            {"channel", "start", "end", "recordings", "failed", "monitored_seconds", \
            "monitored_hours", "gap_seconds", "gaps": [{"start", "end", "seconds", "cause"}], \
            "airings", "airings_per_hour"}; --csv gives a row per channel and a row per gap. \
            --from/--to keep airings whose wall-clock start lies in [from, to) (ISO 8601, UTC \
            unless an offset is given); airings of recordings without a known start are then left out, \
            and --coverage counts only that period (its uncovered ends are gaps).
            """)

    /// How counts are grouped.
    enum Grouping: String, ExpressibleByArgument, CaseIterable {
        case id, channel, day
    }

    @Argument(help: "The scan database (SQLite).")
    var database: String

    @Flag(help: "One JSON object per line.")
    var json = false

    @Flag(help: "CSV with a header line.")
    var csv = false

    @Option(help: "Count airings per id, channel or day instead of listing them.")
    var by: Grouping?

    @Option(help: "Only airings starting at or after this time (ISO 8601).")
    var from: String?

    @Option(help: "Only airings starting before this time (ISO 8601).")
    var to: String?

    @Option(help: "Also write a self-contained HTML page with a timeline per channel.")
    var html: String?

    @Flag(help: "List the recordings whose scan failed, with the reason, instead of airings.")
    var failures = false

    @Flag(help: "Each channel's monitored hours, gaps and airings per hour instead of airings (every channel, airings or not).")
    var coverage = false

    @Option(name: .customLong("min-gap"), parsing: .unconditional,
            help: "With --coverage and --html, list gaps of at least this many seconds (default 1).")
    var minimumGap: Double = 1

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        if json && csv { throw ValidationError("--json and --csv exclude each other") }
        if coverage && by != nil { throw ValidationError("--coverage and --by exclude each other") }
        if coverage && failures { throw ValidationError("--coverage and --failures exclude each other") }
        if !minimumGap.isFinite || minimumGap < 0 { throw ValidationError("--min-gap must be a number of seconds, 0 or more") }
    }

    func run() throws {
        quietOption.apply()
        let lower = try from.map { try Self.time($0, "--from") }
        let upper = try to.map { try Self.time($0, "--to") }
        if let lower, let upper, upper <= lower {
            throw CommandFailure("invalid option", "--to", "\(to ?? "") is not after --from \(from ?? ""): the range [from, to) is empty")
        }
        let store = try AiringsDatabase(path: database, create: false, readOnly: true)
        if failures {
            for recording in try store.recordings() where !recording.isDone {
                if json {
                    var line = JSONLine()
                    line.add("recording", recording.file.path)
                    line.add("error", recording.error)
                    print(line.string)
                } else {
                    print("\(recording.file.path): \(recording.error ?? "failed")")
                }
            }
            return
        }
        var airings = AiringsBuilder.airings(try store.detections(), recordings: try store.recordings())
        if lower != nil || upper != nil {
            airings = airings.filter { airing in
                guard let start = airing.wallclockStart else { return false }
                return (lower.map { start >= $0 } ?? true) && (upper.map { start < $0 } ?? true)
            }
        }
        // Every channel scanned, with what it proves was monitored, for --coverage and the page.
        let channels = CoverageBuilder.channels(try store.recordings(), airings: airings, from: lower, to: upper,
                                                minimumGap: minimumGap)
        if let html {
            let page = AiringsTimelinePage.render(airings, coverage: channels, title: "Airings in \(database)")
            let writer = try FileIO.AtomicWriter(html)
            try writer.write(page)
            try writer.commit()
        }
        if coverage {
            printCoverage(channels)
        } else if let by {
            printCounts(airings, by: by)
        } else if json {
            for a in airings { print(Self.json(a)) }
        } else if csv {
            print("id,recording,channel,start,end,wallclock_start,score")
            for a in airings {
                print([a.id, CSV.field(a.recording), CSV.field(a.channel ?? ""), JSONLine.number(a.start), JSONLine.number(a.end),
                       a.wallclockStart?.iso8601 ?? "", JSONLine.number(a.score)].joined(separator: ","))
            }
        } else if html == nil || !airings.isEmpty {
            for a in airings {
                let when = a.wallclockStart?.iso8601 ?? "-"
                print("\(a.id)  \(when)  \(a.channel ?? "-")  \(a.recording) \(fixed(a.start, 1))-\(fixed(a.end, 1)) s  score \(fixed(a.score, 1))")
            }
        }
        let failed = try store.recordings().filter { !$0.isDone }.count
        if failed > 0 {
            StandardError.warning("\(failed) recording\(failed == 1 ? "" : "s") in \(database) failed to scan; see 'qix report --failures \(database)'")
        }
    }

    /// The contract's airing object.
    static func json(_ a: Airing) -> String {
        var line = JSONLine()
        line.add("id", a.id)
        line.add("recording", a.recording)
        line.add("channel", a.channel)
        line.add("start", a.start)
        line.add("end", a.end)
        line.add("wallclock_start", a.wallclockStart?.iso8601)
        line.add("score", a.score)
        return line.string
    }

    private func printCoverage(_ channels: [ChannelCoverage]) {
        if json {
            for c in channels { print(CoverageOutput.json(c)) }
        } else if csv {
            print(CoverageOutput.csvHeader)
            for c in channels { CoverageOutput.csv(c).forEach { print($0) } }
        } else {
            for c in channels { CoverageOutput.text(c).forEach { print($0) } }
        }
    }

    private func printCounts(_ airings: [Airing], by grouping: Grouping) {
        var counts: [String: (count: Int, seconds: Double)] = [:]
        for a in airings {
            let key: String
            switch grouping {
            case .id: key = a.id
            case .channel: key = a.channel ?? "(none)"
            case .day: key = a.wallclockStart?.day ?? "(unknown)"
            }
            counts[key, default: (0, 0)].count += 1
            counts[key, default: (0, 0)].seconds += a.end - a.start
        }
        for key in counts.keys.sorted() {
            let (count, seconds) = counts[key]!
            if json {
                var line = JSONLine()
                line.add(grouping.rawValue, key)
                line.add("airings", count)
                line.add("seconds", (seconds * 10).rounded() / 10)
                print(line.string)
            } else if csv {
                print("\(CSV.field(key)),\(count),\(fixed(seconds, 1))")
            } else {
                print("\(key)  \(count) airing\(count == 1 ? "" : "s")  \(fixed(seconds, 1)) s")
            }
        }
    }

    private static func time(_ text: String, _ option: String) throws -> WallClockTime {
        guard let time = WallClockTime(iso8601: text) else {
            throw CommandFailure("invalid time", option, "'\(text)' is not ISO 8601, e.g. 2026-11-21T18:00:00Z or 2026-11-21")
        }
        return time
    }
}

/// CSV quoting per RFC 4180.
enum CSV {
    /// Quotes a field when it holds a comma, quote or line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
