import Foundation
import TweetieDB
import TweetieSync
#if canImport(Glibc)
import Glibc
#endif

/// Runs one NDJSON input through `Store.importNDJSON` on a seeded temporary store and checks:
/// a rejected input throws `TransferError` and leaves the export byte-identical; an accepted
/// one leaves a store that `verify()` finds consistent (the seed is then restored).
///
/// ```swift
/// let oracle = try ImportFuzzOracle()
/// defer { oracle.close() }
/// let verdict = try oracle.run(oracle.baseline, mode: .merge)
/// ```
package final class ImportFuzzOracle {
    /// The store inputs are imported into.
    package let store: Store
    /// The store's export right after seeding: the state every input starts from.
    package let baseline: [UInt8]
    private let inputPath: String

    /// Creates a temporary store holding ``FuzzSeeds/tweets()`` and ``FuzzSeeds/users()``.
    package init() throws {
        store = try TweetieDatabase.temporary()
        try FuzzSeeds.seed(store)
        baseline = try FuzzSeeds.export(store)
        inputPath = store.path + ".fuzz-input.ndjson"
    }

    /// The import mode used for `bytes` by the harness and by libFuzzer: merge for an even
    /// length, replace for an odd one.
    package static func mode(for bytes: [UInt8]) -> ImportMode { bytes.count % 2 == 0 ? .merge : .replace }

    /// Imports `bytes` with `mode` and checks the outcome; throws ``FuzzFinding`` on misbehaviour.
    package func run(_ bytes: [UInt8], mode: ImportMode) throws -> FuzzVerdict {
        try Self.write(bytes, to: inputPath)
        defer { unlink(inputPath) }
        let fd = open(inputPath, O_RDONLY)
        guard fd >= 0 else { throw FuzzFinding("cannot open the input file \(inputPath)") }
        defer { Glibc.close(fd) }
        do {
            _ = try store.importNDJSON(from: fd, mode: mode)
        } catch let error as TransferError {
            let after = try FuzzSeeds.export(store)
            guard after == baseline else {
                throw FuzzFinding("a rejected import (\(error)) changed the store: its export differs from before")
            }
            return .rejected(shape: FuzzVerdict.shape(of: error.reason))
        } catch {
            throw FuzzFinding("import threw \(type(of: error)), not TransferError: \(error)")
        }
        let report = try store.verify()
        guard report.problems.isEmpty else {
            throw FuzzFinding("an accepted import left an inconsistent store: \(report.problems.prefix(3).joined(separator: "; "))")
        }
        try restore()
        return .accepted
    }

    /// Puts the seed back after an accepted import.
    private func restore() throws {
        guard try FuzzSeeds.export(store) != baseline else { return }
        try Self.write(baseline, to: inputPath)
        let fd = open(inputPath, O_RDONLY)
        defer { Glibc.close(fd) }
        _ = try store.importNDJSON(from: fd, mode: .replace)
        guard try FuzzSeeds.export(store) == baseline else {
            throw FuzzFinding("re-importing the seed export in replace mode did not restore it byte for byte")
        }
    }

    /// Writes `bytes` to `path` (no sync: the file only feeds the next import).
    static func write(_ bytes: [UInt8], to path: String) throws(FuzzFinding) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw FuzzFinding("cannot create the input file \(path): errno \(errno)") }
        defer { Glibc.close(fd) }
        let complete = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
        guard complete else { throw FuzzFinding("cannot write the input file \(path): errno \(errno)") }
    }

    /// Closes and removes the temporary store.
    package func close() { store.close() }
}
