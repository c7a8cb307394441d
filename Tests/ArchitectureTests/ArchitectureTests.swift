import Foundation
import Testing

/// The package keeps the module rules of `docs/architecture.md`: every source's imports and
/// every target's dependencies are allowed by its table, and no library names a CLI flag.
@Suite struct ArchitectureTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// (module, path relative to the root, contents) of every Swift file under Sources/.
    static func sources() throws -> [(module: String, path: String, text: String)] {
        let sources = root.appendingPathComponent("Sources")
        var files: [(String, String, String)] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(module)
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let name as String in walker where name.hasSuffix(".swift") {
                let path = "Sources/\(module)/\(name)"
                files.append((module, path, try text(path)))
            }
        }
        return files
    }

    static func rules() throws -> ArchitectureRules { ArchitectureRules(markdown: try text("docs/architecture.md")) }

    @Test func everyModuleIsInTheTable() throws {
        let rules = try Self.rules()
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        #expect(modules.filter { rules.allowed[$0] == nil }.sorted() == [])
        #expect(rules.allowed.count >= 17)
    }

    @Test func importsFollowTheTable() throws {
        let rules = try Self.rules()
        let violations = try Self.sources().flatMap { rules.importViolations(module: $0.module, file: $0.path, source: $0.text) }
        #expect(violations == [])
    }

    @Test func targetDependenciesFollowTheTable() throws {
        let violations = try Self.rules().dependencyViolations(packageManifest: Self.text("Package.swift"))
        #expect(violations == [])
    }

    @Test func librariesNameNoFlags() throws {
        let violations = try Self.sources().filter { $0.module != "qix" }.flatMap {
            ArchitectureRules.flagViolations(file: $0.path, source: $0.text)
        }
        #expect(violations == [])
    }

    /// No function in Sources/ (Swift or C) is over `ArchitectureRules.longestFunction` lines.
    @Test func functionsStayShort() throws {
        let violations = try Self.sourceFiles(extensions: ["swift", "c", "h"]).flatMap {
            ArchitectureRules.longFunctions(file: $0.path, source: $0.text)
        }
        #expect(violations == [])
    }

    /// Every file under Sources/ with one of `extensions`: path relative to the root, contents.
    static func sourceFiles(extensions: Set<String>) throws -> [(path: String, text: String)] {
        let sources = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var files: [(String, String)] = []
        for case let name as String in walker where extensions.contains((name as NSString).pathExtension) {
            files.append(("Sources/\(name)", try text("Sources/\(name)")))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The checks themselves: a planted forbidden import, dependency and flag are caught.
    @Test func plantedViolationsAreCaught() throws {
        let rules = try Self.rules()
        #expect(rules.importViolations(module: "QixWatermark", file: "x.swift", source: "import QixDSP\nimport QixAudio\n")
                == ["x.swift: QixWatermark may not import QixAudio"])
        #expect(rules.importViolations(module: "QixDynamics", file: "y.swift", source: "@testable internal import QixScenes")
                == ["y.swift: QixDynamics may not import QixScenes"])
        #expect(rules.importViolations(module: "QixDSP", file: "z.swift", source: "import Foundation\nimport CFFTW") == [])
        let manifest = #".target(name: "QixDynamics", dependencies: ["CContactKernel", "QixMarkup"]),"#
        #expect(rules.dependencyViolations(packageManifest: manifest) == ["Package.swift: QixDynamics may not depend on QixMarkup"])
        #expect(ArchitectureRules.flagViolations(file: "w.swift", source: #"throw QixError("bad", "--rate", "x")"#).count == 1)
        #expect(ArchitectureRules.flagViolations(file: "w.swift", source: #"// "--rate" in a comment"# + "\nlet a = \"a-b\"") == [])
        let body = String(repeating: "    x += 1 // }\n", count: 58)
        let swift = "struct S {\n    public static func long(_ a: Int) -> Int {\n" + body + "    }\n    func ok() {}\n}\n"
        #expect(ArchitectureRules.longFunctions(file: "s.swift", source: swift).count == 0, "60 lines")
        let longer = swift.replacingOccurrences(of: "-> Int {\n", with: "-> Int {\n        let s = \"{\"\n")
        #expect(ArchitectureRules.longFunctions(file: "s.swift", source: longer).map { $0.prefix(22) } == ["s.swift:2: 61 lines: p"])
        let c = "static int K(run)(int a,\n    int b) {\n" + String(repeating: "    a++; /* { */\n", count: 59) + "}\nint f(void);\n"
        #expect(ArchitectureRules.longFunctions(file: "k.h", source: c).map { $0.prefix(19) } == ["k.h:1: 62 lines: st"])
    }
}

/// README.md's module table names every target of Package.swift but the tests' support, and
/// nothing else, so a newcomer's first map of the package is complete.
@Suite struct ReadmeModuleTableTests {
    @Test func readmeListsEveryTarget() throws {
        let manifest = try ArchitectureTests.text("Package.swift")
        let targets = Set(manifest.matches(of: #/\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"/#)
            .map { String($0.output.1) }).subtracting(["QixTestSupport"])
        let readme = try ArchitectureTests.text("README.md")
        guard let start = readme.range(of: "## Library modules") else { Issue.record("README.md has no module table"); return }
        let rows = readme[start.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("## ") }.filter { $0.hasPrefix("| `") }
        // The first cell of a row may name several modules: `CFFTW`, `CSndFile`, ...
        let named = Set(rows.flatMap { row in
            (row.split(separator: "|").first ?? "").matches(of: #/`([A-Za-z]+)`/#).map { String($0.output.1) }
        })
        #expect(targets.subtracting(named).sorted() == [])
        #expect(named.subtracting(targets).sorted() == [])
    }
}
