import Foundation
import PostgresNIO

/// The published PostgreSQL schema (`schemas/postgres/`): installing it, and checking that a
/// database has a version this library knows.
enum ReplicationSchema {
    /// The highest schema version this library knows and installs.
    static let version = 1

    /// The SQL of each version, in order.
    static let files: [(version: Int, sql: String)] = [
        (1, String(decoding: PackageResources.replication_v1_sql, as: UTF8.self)),
    ]

    /// Installs every version the database lacks, in one transaction under an advisory lock (two
    /// devices running `init` at once wait for each other). Idempotent.
    static func install(on link: PostgresLink) async throws {
        try await link.transaction { link in
            try await link.rows("SELECT pg_advisory_xact_lock(7309811234)")
            let installed = try await installedVersion(on: link)
            if let installed, installed > version { throw tooNew(installed, link: link) }
            for file in files where file.version > (installed ?? 0) {
                for statement in statements(in: file.sql) {
                    try await link.rows(PostgresQuery(unsafeSQL: statement))
                }
            }
        }
    }

    /// Throws unless the database has a schema this library can use.
    static func check(on link: PostgresLink) async throws {
        guard let installed = try await installedVersion(on: link) else {
            throw ReplicationError(.schemaMissing,
                                   "The database \(link.url.database) at \(link.url.host):\(link.url.port) has no replication schema: run `tweetie-replicate init` first.")
        }
        if installed > version { throw tooNew(installed, link: link) }
    }

    static func installedVersion(on link: PostgresLink) async throws -> Int? {
        let exists = try await link.rows("SELECT to_regclass('tweetie.schema_migrations') IS NOT NULL")
        guard try exists.first?.decode(Bool.self) == true else { return nil }
        let rows = try await link.rows("SELECT COALESCE(max(version), 0) FROM tweetie.schema_migrations")
        return Int(try rows.first?.decode(Int32.self) ?? 0)
    }

    static func tooNew(_ installed: Int, link: PostgresLink) -> ReplicationError {
        ReplicationError(.schemaTooNew,
                         "The database \(link.url.database) has replication schema version \(installed), newer than version \(version), the newest this tweetie-replicate knows: upgrade it.")
    }

    /// Splits a file into statements at the semicolons outside quotes, comments and dollar-quoted
    /// bodies (the extended query protocol runs one statement at a time).
    static func statements(in sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        let characters = Array(sql)
        var index = 0
        var dollarTag: String?
        var inQuote = false
        while index < characters.count {
            let character = characters[index]
            if let tag = dollarTag {
                if character == "$", String(characters[index..<min(characters.count, index + tag.count)]) == tag {
                    current += tag
                    index += tag.count
                    dollarTag = nil
                    continue
                }
                current.append(character)
            } else if inQuote {
                current.append(character)
                if character == "'" { inQuote = false }
            } else if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            } else if character == "'" {
                inQuote = true
                current.append(character)
            } else if character == "$" {
                var end = index + 1
                while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { end += 1 }
                if end < characters.count, characters[end] == "$" {
                    let tag = String(characters[index...end])
                    dollarTag = tag
                    current += tag
                    index = end + 1
                    continue
                }
                current.append(character)
            } else if character == ";" {
                let statement = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty { statements.append(statement) }
                current = ""
            } else {
                current.append(character)
            }
            index += 1
        }
        let last = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !last.isEmpty { statements.append(last) }
        return statements
    }
}
