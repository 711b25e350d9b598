import Foundation
import Testing
import TweetieTestSupport

// The house rules of ARCHITECTURE.md that a machine can check, over every Swift file in Sources/:
// only TweetieDB imports CLMDB or reaches past `Store` into the LMDB layer; one main type per file,
// or a first comment that says why; a file over 400 lines says why in its first comment.

@Suite("House rules (ARCHITECTURE.md)")
struct HouseRulesTests {
    /// A Swift file of Sources/, relative path and lines.
    struct SourceFile: CustomStringConvertible {
        var path: String
        var lines: [String]
        var description: String { path }

        /// The names of the file's top-level type declarations (extensions excluded).
        var topLevelTypes: [String] {
            lines.compactMap { line in
                guard let match = line.firstMatch(of: HouseRulesTests.typeDeclaration) else { return nil }
                return String(match.output.1)
            }
        }

        /// Whether a plain `//` comment (not `///` documentation) comes before the first declaration:
        /// where a file says why it breaks a rule.
        var saysWhy: Bool {
            for line in lines {
                if line.hasPrefix("// ") { return true }
                if line.firstMatch(of: HouseRulesTests.typeDeclaration) != nil || line.hasPrefix("extension ") { return false }
            }
            return false
        }
    }

    static var typeDeclaration: Regex<(Substring, Substring)> {
        /^(?:public |internal |fileprivate |private |package )?(?:final )?(?:struct|class|enum|protocol|actor) +([A-Za-z0-9_]+)/
    }

    static let sources: [SourceFile] = {
        let root = Repository.root.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [SourceFile] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let relative = String(url.path.dropFirst(Repository.root.path.count + 1))
            files.append(SourceFile(path: relative, lines: text.components(separatedBy: "\n")))
        }
        return files.sorted { $0.path < $1.path }
    }()

    @Test func theSourcesAreFound() {
        // Guards the rules below against passing on an empty list.
        #expect(Self.sources.count > 100, "found \(Self.sources.count) Swift files under \(Repository.root.path)/Sources")
        #expect(Self.sources.contains { $0.path == "Sources/TweetieDBCore/Record/Store.swift" })
    }

    @Test func onlyTweetieDBCoreImportsCLMDB() {
        let offenders = Self.sources.filter { file in
            !file.path.hasPrefix("Sources/TweetieDBCore/") && file.lines.contains { $0.contains("import CLMDB") }
        }
        #expect(offenders.isEmpty, "outside Sources/TweetieDBCore, only Store's API may be used: \(offenders)")
    }

    @Test func nothingAboveTheStoreReachesTheLMDBLayer() {
        // The LMDB layer's types are internal; `@testable import` would be the way around that, and
        // `.environment` the old public door into it. (Re-exporting TweetieDBCore, as TweetieDB does,
        // re-exports only its public API.)
        let offenders = Self.sources.filter { file in
            !file.path.hasPrefix("Sources/TweetieDBCore/") && file.lines.contains { line in
                line.contains("@testable import") || line.contains("store.environment")
                    || line.contains("configuration.environment")
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }

    @Test func oneMainTypePerFileOrAFirstCommentThatSaysWhy() {
        let offenders = Self.sources.filter { $0.topLevelTypes.count > 1 && !$0.saysWhy }
            .map { "\($0.path) (\($0.topLevelTypes.joined(separator: ", ")))" }
        #expect(offenders.isEmpty, "split these files (Type+Aspect.swift), or say why in a `//` comment before the first declaration:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func aFileOver400LinesSaysWhy() {
        let offenders = Self.sources.filter { $0.lines.count > 401 && !$0.saysWhy }.map { "\($0.path) (\($0.lines.count) lines)" }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
