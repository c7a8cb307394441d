import Foundation

/// The module rules of `docs/architecture.md`, read from its table, and the checks of the
/// package against them: imports, target dependencies, and flag names in library strings.
struct ArchitectureRules {
    /// Modules every target may import: the platform's own.
    static let platform: Set<String> = ["Foundation", "FoundationXML", "Glibc", "Darwin", "Dispatch"]

    /// Module name to the QixKit modules and packages it may import.
    var allowed: [String: Set<String>]

    /// Reads the `| module | role | may import |` table of the architecture page.
    init(markdown: String) {
        var allowed: [String: Set<String>] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5 else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let imports = cells[3].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }
            allowed[module] = Set(imports.filter { !$0.isEmpty })
        }
        self.allowed = allowed
    }

    /// The imports of a Swift source, with `@testable`, `@_exported` and access levels removed.
    static func imports(in source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").filter {
                !$0.hasPrefix("@") && !["internal", "public", "private", "fileprivate", "package"].contains(String($0))
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            return String(words[1].split(separator: ".")[0])
        }
    }

    /// One line per import in `source` (a file of `module`) that the table does not allow.
    func importViolations(module: String, file: String, source: String) -> [String] {
        guard let allowed = allowed[module] else { return ["\(file): module \(module) is not in docs/architecture.md"] }
        return Self.imports(in: source).filter { $0 != module && !Self.platform.contains($0) && !allowed.contains($0) }
            .map { "\(file): \(module) may not import \($0)" }
    }

    /// Target name to its dependencies (targets and products), read from Package.swift's
    /// `.target(name: ..., dependencies: [...])` and `.executableTarget` entries.
    static func targetDependencies(packageManifest: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        let pattern = #/\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?/#
        for match in packageManifest.matches(of: pattern) {
            let list = match.output.2.map(String.init) ?? ""
            let names = list.matches(of: #/(?:name:\s*)?"([^"]+)"/#).map { String($0.output.1) }
            // `.product(name: "Crypto", package: "swift-crypto")` lists the product, then the package.
            let packages = Set(list.matches(of: #/package:\s*"([^"]+)"/#).map { String($0.output.1) })
            result[String(match.output.1)] = names.filter { !packages.contains($0) }
        }
        return result
    }

    /// One line per target dependency in Package.swift that the table does not allow.
    func dependencyViolations(packageManifest: String) -> [String] {
        Self.targetDependencies(packageManifest: packageManifest).sorted { $0.key < $1.key }.flatMap { target, dependencies in
            guard let allowed = allowed[target] else {
                return target == "QixTestSupport" ? [] : ["Package.swift: target \(target) is not in docs/architecture.md"]
            }
            return dependencies.filter { !allowed.contains($0) }.map { "Package.swift: \(target) may not depend on \($0)" }
        }
    }

    /// One line per string literal in a library source that names a command-line flag
    /// (`"--rate"`): libraries name their parameters, and the CLI maps them to flags.
    static func flagViolations(file: String, source: String) -> [String] {
        var found: [String] = []
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            for literal in code.matches(of: #/"((?:[^"\\]|\\.)*)"/#) where literal.output.1.contains(#/(^|[^A-Za-z0-9-])--[a-z]/#) {
                found.append("\(file):\(number + 1): names a CLI flag: \(literal.output.0)")
            }
        }
        return found
    }

    /// Lines a function may span, declaration to closing brace (docs/architecture.md):
    /// longer ones are split into named stages.
    static let longestFunction = 60

    /// One line per function in `source` (Swift, or C for `.c` and `.h` files) longer than
    /// `limit` lines, from its declaration to its closing brace.
    static func longFunctions(file: String, source: String, limit: Int = longestFunction) -> [String] {
        let lines = codeLines(source)
        let isC = file.hasSuffix(".c") || file.hasSuffix(".h")
        var found: [String] = []
        var index = 0
        while index < lines.count {
            guard isC ? isCDeclaration(lines[index]) : isSwiftDeclaration(lines[index]),
                  let end = closingLine(lines, from: index) else {
                index += 1
                continue
            }
            let length = end - index + 1
            if length > limit {
                let name = lines[index].trimmingCharacters(in: .whitespaces).prefix(70)
                found.append("\(file):\(index + 1): \(length) lines: \(name)")
            }
            // C functions do not nest; Swift's may, so the body is searched too.
            index = isC ? end + 1 : index + 1
        }
        return found
    }

    /// The lines of `source` with comments and string and character literals blanked, so
    /// that braces in them do not count (one pass over the characters: Swift's regular
    /// expressions per line made the check take half a minute in a debug build).
    static func codeLines(_ source: String) -> [String] {
        var lines: [String] = []
        var line = "", inBlockComment = false
        var quote: Character? = nil
        var characters = source.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? characters.next() {
            pending = nil
            if character == "\n" {
                lines.append(line)
                line = ""
                quote = nil
                continue
            }
            if inBlockComment {
                if character == "*" { pending = characters.next(); if pending == "/" { pending = nil; inBlockComment = false } }
                continue
            }
            if let open = quote {
                if character == "\\" { _ = characters.next() } else if character == open { quote = nil; line.append(open) }
                continue
            }
            if character == "\"" || character == "'" { quote = character; line.append(character); continue }
            if character == "/" {
                let next = characters.next()
                if next == "/" {
                    while let rest = characters.next(), rest != "\n" {}
                    lines.append(line)
                    line = ""
                    continue
                }
                if next == "*" { inBlockComment = true; continue }
                pending = next
            }
            line.append(character)
        }
        lines.append(line)
        return lines
    }

    /// A Swift `func`, `init`, `deinit` or `subscript` declaration.
    static func isSwiftDeclaration(_ line: String) -> Bool {
        guard line.contains("func ") || line.contains("init") || line.contains("subscript") else { return false }
        return line.contains(#/^\s*(?:@[\w().:, ]+\s+)*(?:(?:public|private|internal|fileprivate|package|open|static|class|final|override|mutating|nonmutating|convenience|required|nonisolated)\s+)*(?:func\s|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])/#)
    }

    /// A C function definition's first line: at column 0, a name and an opening parenthesis,
    /// not a declaration, macro, type or initialiser.
    static func isCDeclaration(_ line: String) -> Bool {
        guard let first = line.first, first.isLetter || first == "_", line.contains("(") else { return false }
        return line.contains(#/^[A-Za-z_][\w\s\*]*(?:\w+|K\(\w+\))\s*\(/#)
            && !line.contains(#/^(?:typedef|struct|enum|union|return|if|for|while)\b/#) && !line.contains(";") && !line.contains("=")
    }

    /// The line of the brace that closes the body opened after line `start`; nil when a
    /// `;` ends the declaration first (a prototype) or no body opens within a few lines.
    static func closingLine(_ lines: [String], from start: Int) -> Int? {
        var depth = 0, opened = false
        for index in start..<lines.count {
            for character in lines[index] {
                if character == "{" { depth += 1; opened = true }
                if character == "}" { depth -= 1 }
                if opened && depth == 0 { return index }
                if !opened && character == ";" { return nil }
            }
            if !opened && index > start + 12 { return nil }
        }
        return nil
    }
}

