import Foundation
import TweetieTestSupport

/// The toolchain's `swiftc`, run on source text against the modules of this build: for what only
/// the compiler can show — that a query of the wrong type does not type-check, that a `@Record`
/// type's initializer is usable from another module, that a target compiles without a warning.
///
/// The modules are the ones next to the test bundle (`.build/<triple>/debug/Modules`), so a
/// snippet sees exactly the TweetieDB that the other tests run.
///
/// ```swift
/// let output = try SwiftCompiler.typecheck("import TweetieDB\nlet q = Query<Note>()")
/// #expect(output.errors.isEmpty, "\(output.text)")
/// ```
enum SwiftCompiler {
    /// One diagnostic line of the compiler (`file:line:column: severity: message`).
    struct Diagnostic: CustomStringConvertible {
        var file: String
        var line: Int
        var severity: String
        var message: String

        var description: String { "\(URL(fileURLWithPath: file).lastPathComponent):\(line): \(severity): \(message)" }
    }

    /// What one run of the compiler printed.
    struct Output {
        var status: Int32
        var text: String

        /// Every `error:` and `warning:` line (notes and source excerpts left out).
        var diagnostics: [Diagnostic] {
            text.split(separator: "\n").compactMap { line -> Diagnostic? in
                let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
                guard parts.count == 5, let number = Int(parts[1]), Int(parts[2]) != nil else { return nil }
                let severity = parts[3].trimmingCharacters(in: .whitespaces)
                guard severity == "error" || severity == "warning" else { return nil }
                return Diagnostic(file: String(parts[0]), line: number, severity: severity,
                                  message: parts[4].trimmingCharacters(in: .whitespaces))
            }
        }

        var errors: [Diagnostic] { diagnostics.filter { $0.severity == "error" } }
        var warnings: [Diagnostic] { diagnostics.filter { $0.severity == "warning" } }
    }

    /// The build products directory that holds this test bundle and the modules it was built with.
    static let products: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Modules/TweetieDB.swiftmodule").path) { return url }
            url = url.deletingLastPathComponent()
        }
        return Repository.root.appendingPathComponent(".build/debug")
    }()

    /// `swiftc`, found on `PATH` as `swift build` finds it.
    static let swiftc: URL = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/usr/bin/swiftc")
    }()

    /// Runs `swiftc` with `arguments` and this build's common options (Swift 6, plain
    /// diagnostics, the build's module cache).
    static func run(_ arguments: [String]) throws -> Output {
        let common = ["-swift-version", "6", "-diagnostic-style=llvm",
                      "-module-cache-path", products.appendingPathComponent("ModuleCache").path]
        let result = try ChildProcess.run(swiftc, common + arguments, timeout: 300)
        return Output(status: result.status, text: result.output + result.stderr)
    }

    /// The options that make TweetieDB importable: its modules, LMDB's module map (TweetieDBCore
    /// imports it internally) and the `@Record` macros' plugin.
    static var tweetieDBOptions: [String] {
        ["-I", products.appendingPathComponent("Modules").path,
         "-Xcc", "-fmodule-map-file=" + Repository.root.appendingPathComponent("Sources/CLMDB/module.modulemap").path,
         "-load-plugin-executable", products.appendingPathComponent("TweetieDBMacros-tool").path + "#TweetieDBMacros"]
    }

    /// Type-checks `source` as a file of its own (`main.swift`, so top-level code runs in it),
    /// with TweetieDB importable and the modules in `searchPaths` too.
    static func typecheck(_ source: String, searchPaths: [URL] = []) throws -> Output {
        let directory = TemporaryDirectory("typecheck")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: file)
        return try run(["-typecheck"] + tweetieDBOptions + searchPaths.flatMap { ["-I", $0.path] } + [file.path])
    }

    /// Compiles `source` into the module `name` (its `.swiftmodule` only) in `directory`, with
    /// TweetieDB importable: a library that another snippet then imports.
    static func emitModule(_ name: String, source: String, in directory: URL) throws -> Output {
        let file = directory.appendingPathComponent("\(name).swift")
        try Data(source.utf8).write(to: file)
        return try run(["-parse-as-library", "-emit-module", "-module-name", name,
                        "-emit-module-path", directory.appendingPathComponent("\(name).swiftmodule").path]
                       + tweetieDBOptions + [file.path])
    }

    /// Type-checks the sources of the macro target `Sources/TweetieDBMacros` against the
    /// swift-syntax this build compiled for the host (`Modules-tool`), as the build does.
    static func typecheckMacroSources() throws -> Output {
        let folder = Repository.root.appendingPathComponent("Sources/TweetieDBMacros")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        // swift-syntax's C shims, in the checkout beside the build's products (`.build/checkouts`).
        var shims = products.deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: shims.appendingPathComponent("checkouts").path) {
            shims = shims.deletingLastPathComponent()
        }
        let shimsMap = shims.appendingPathComponent("checkouts/swift-syntax/Sources/_SwiftSyntaxCShims/include/module.modulemap")
        return try run(["-typecheck", "-parse-as-library", "-module-name", "TweetieDBMacros",
                        "-I", products.appendingPathComponent("Modules-tool").path,
                        "-Xcc", "-fmodule-map-file=" + shimsMap.path]
                       + files.map { folder.appendingPathComponent($0).path })
    }
}
