import Foundation
import Testing
import TweetieTestSupport

/// Every Swift code block of README.md and of the DocC articles, type-checked against this build as
/// a reader would paste it: the blocks of a document in order, as one program (a later block uses
/// what an earlier one declares), after the blocks of the documents it says it builds on. A block
/// that starts with `// swift-tools-version:` is a package manifest and is type-checked on its own
/// against SwiftPM's PackageDescription. Diagnostics name the document and its line.
///
/// What a document's text assumes without declaring it is declared by the document itself (its
/// blocks are complete); the one exception is UIKit, which Linux lacks: the README's table-view
/// example type-checks against a stand-in module with the signatures of the UIKit calls it makes.
@Suite("The documentation's code blocks compile")
struct DocumentationExamplesTests {
    /// A fenced ```swift block of a Markdown file.
    struct CodeBlock {
        var document: String
        /// The line of the block's first line of code, 1-based.
        var line: Int
        var code: String

        var isManifest: Bool { code.hasPrefix("// swift-tools-version:") }
    }

    /// The ```swift blocks of `document` (a path relative to the repository), indented ones too.
    static func blocks(of document: String) throws -> [CodeBlock] {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(document), encoding: .utf8)
        var blocks: [CodeBlock] = []
        var current: (line: Int, indent: Int, lines: [String])?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if var open = current {
                if trimmed.hasPrefix("```") {
                    blocks.append(CodeBlock(document: document, line: open.line, code: open.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    open.lines.append(String(line.dropFirst(min(open.indent, line.prefix { $0 == " " }.count))))
                    current = open
                }
            } else if trimmed == "```swift" {
                current = (number + 2, line.count - trimmed.count, [])
            }
        }
        #expect(current == nil, "\(document): a ```swift block is not closed")
        return blocks
    }

    /// The documents, and the ones whose blocks each one's program starts with.
    static let documents: [(path: String, after: [String])] = [
        ("README.md", []),
        ("Sources/TweetieDBCore/TweetieDBCore.docc/TweetieDBCore.md", []),
        ("Sources/TweetieDBCore/TweetieDBCore.docc/GettingStarted.md", []),
        ("Sources/TweetieDBCore/TweetieDBCore.docc/RecordsAndIndexes.md", ["Sources/TweetieDBCore/TweetieDBCore.docc/GettingStarted.md"]),
        ("Sources/TweetieDBCore/TweetieDBCore.docc/LiveQueriesAndChangesets.md", ["Sources/TweetieDBCore/TweetieDBCore.docc/GettingStarted.md"]),
        ("Sources/TweetieDBCore/TweetieDBCore.docc/Concurrency.md", []),
        ("Sources/TweetieSync/TweetieSync.docc/TweetieSync.md", []),
        ("Sources/TweetieSync/TweetieSync.docc/FeedFormat.md", []),
    ]

    /// One source file of `blocks`: their `import`s first (Swift wants them before the code that
    /// uses them), each block under a `#sourceLocation` of its document and line.
    static func program(_ blocks: [CodeBlock], prelude: String = "") -> String {
        var imports: [String] = []
        var body: [String] = []
        for block in blocks {
            body.append("#sourceLocation(file: \"\(block.document)\", line: \(block.line))")
            for line in block.code.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("import ") {
                    if !imports.contains(String(line)) { imports.append(String(line)) }
                    body.append("")  // keeps the lines of the block where they are
                } else {
                    body.append(String(line))
                }
            }
            body.append("#sourceLocation()")
        }
        return (imports + [prelude] + body).joined(separator: "\n") + "\n"
    }

    /// UIKit's table-view calls of the README, with UIKit's signatures, for a type-check on Linux.
    static let uikitStandIn = """
        @_exported import Foundation

        @MainActor
        open class UITableView {
            public enum RowAnimation: Int, Sendable { case fade, right, left, top, bottom, none, middle, automatic = 100 }
            public init() {}
            open func reloadData() {}
            open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
            open func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
            open func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
            open func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {}
            open func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
            open func insertSections(_ sections: IndexSet, with animation: RowAnimation) {}
            open func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {}
            open func moveSection(_ section: Int, toSection newSection: Int) {}
        }

        extension IndexPath {
            public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
            public var row: Int { self[1] }
            public var section: Int { self[0] }
        }
        """

    /// Warnings an example may have: a value it shows but does not use.
    static func isExpected(_ warning: SwiftCompiler.Diagnostic) -> Bool {
        warning.message.contains("never used") || warning.message.contains("never mutated")
            || warning.message.contains("is unused")
    }

    @Test("Every document's program type-checks", arguments: documents.map(\.path))
    func documentTypeChecks(_ path: String) throws {
        let entry = try #require(Self.documents.first { $0.path == path })
        let own = try Self.blocks(of: path).filter { !$0.isManifest }
        guard !own.isEmpty else { return }
        let earlier = try entry.after.flatMap { try Self.blocks(of: $0).filter { !$0.isManifest } }

        let directory = TemporaryDirectory("doc-examples")
        defer { directory.remove() }
        var searchPaths: [URL] = []
        var prelude = ""
        if own.contains(where: { $0.code.contains("import UIKit") }) {
            let built = try SwiftCompiler.emitModule("UIKit", source: Self.uikitStandIn, in: directory.url)
            #expect(built.status == 0, "the UIKit stand-in: \(built.text)")
            searchPaths.append(directory.url)
            prelude = "let tableView = UITableView()   // the app's table view"
        }
        let output = try SwiftCompiler.typecheck(Self.program(earlier + own, prelude: prelude), searchPaths: searchPaths)
        #expect(output.errors.isEmpty, "\(path):\n\(output.text)")
        let warnings = output.warnings.filter { !Self.isExpected($0) }
        #expect(warnings.isEmpty, "\(path): \(warnings)")
        #expect(output.status == 0 || !output.errors.isEmpty, "swiftc failed without an error line:\n\(output.text)")
    }

    @Test("Every package manifest shown type-checks against PackageDescription")
    func manifestsTypeCheck() throws {
        let manifests = try Self.documents.flatMap { try Self.blocks(of: $0.path) }.filter(\.isManifest)
        #expect(manifests.count >= 2, "README.md and Getting Started each show a Package.swift")
        let manifestAPI = SwiftCompiler.swiftc.resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift/pm/ManifestAPI")
        for manifest in manifests {
            let firstLine = manifest.code.prefix { $0 != "\n" }
            let version = firstLine.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let directory = TemporaryDirectory("manifest")
            defer { directory.remove() }
            let file = directory.url.appendingPathComponent("Package.swift")
            try Data(("#sourceLocation(file: \"\(manifest.document)\", line: \(manifest.line + 1))\n"
                      + manifest.code.drop { $0 != "\n" }.dropFirst() + "\n").utf8).write(to: file)
            let output = try SwiftCompiler.run(["-typecheck", "-I", manifestAPI.path, "-package-description-version", version, file.path])
            #expect(output.status == 0 && output.errors.isEmpty, "\(manifest.document):\(manifest.line):\n\(output.text)")
        }
    }

    /// The README's manifest, with TweetieDB in `../TweetieDB` as it says: the product resolves
    /// under the package name it shows, and, asking for no trait, the only packages resolved are
    /// the ones the library needs (swift-syntax for `@Record`, swift-log for TweetieSync).
    @Test("A package made from the README's manifest resolves only what the library needs")
    func readmeManifestResolves() throws {
        let manifest = try #require(try Self.blocks(of: "README.md").first(where: \.isManifest))
        let directory = TemporaryDirectory("readme-package")
        defer { directory.remove() }
        let package = directory.url.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/Notes"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: directory.url.appendingPathComponent("TweetieDB"), withDestinationURL: Repository.root)
        try Data((manifest.code + "\n").utf8).write(to: package.appendingPathComponent("Package.swift"))
        try Data("import TweetieDB\n".utf8).write(to: package.appendingPathComponent("Sources/Notes/main.swift"))

        let swift = SwiftCompiler.swiftc.deletingLastPathComponent().appendingPathComponent("swift")
        let result = try ChildProcess.run(swift, ["package", "--package-path", package.path, "show-dependencies", "--format", "json"],
                                          timeout: 600)
        #expect(result.status == 0, "swift package show-dependencies: \(result.stderr)")
        let tree = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
        func identities(_ node: [String: Any]) -> Set<String> {
            let children = node["dependencies"] as? [[String: Any]] ?? []
            return children.reduce(into: Set(children.compactMap { $0["identity"] as? String })) { $0.formUnion(identities($1)) }
        }
        #expect(identities(tree) == ["tweetiedb", "swift-syntax", "swift-log"], "\(result.output)")
    }
}
