import ArgumentParser
import Foundation
import Logging
import TweetieDB
import TweetieReplication
import TweetieSync

/// A scratch database and the temporary stores made in it.
final class Scratch: @unchecked Sendable {
    let url: PostgresURL
    let urlText: String
    var stores: [Store] = []

    init(url: PostgresURL, urlText: String) {
        self.url = url
        self.urlText = urlText
    }

    static func with(_ server: PostgresURL, _ body: (Scratch) async throws -> Void) async throws {
        let name = "tweetie_bench_" + String(UInt32.random(in: .min ... .max), radix: 16)
        try psql(server, "CREATE DATABASE \(name)")
        var url = server
        url.database = name
        let scratch = Scratch(url: url, urlText: urlString(url))
        do {
            try await Replicator.installSchema(url: url)
            try await body(scratch)
        } catch {
            scratch.close()
            _ = try? psql(server, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
        scratch.close()
        try psql(server, "DROP DATABASE \(name) WITH (FORCE)")
    }

    func store() throws -> Store {
        let store = try Store.temporary(collections: TweetieDatabase.collections + Replicator.metadataCollections)
        stores.append(store)
        return store
    }

    func replicator(_ store: Store, batch: Int = 1_000, configure: (inout ReplicatorConfiguration) -> Void = { _ in }) throws -> Replicator {
        var configuration = ReplicatorConfiguration(url: url, deviceName: "bench")
        configuration.batchSize = batch
        configuration.pollInterval = .seconds(30)
        configuration.logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        configure(&configuration)
        return try Replicator(store: store, collections: [.records(Tweet.self), .records(User.self)], configuration: configuration)
    }

    func close() { stores.forEach { $0.close() } }
}

func urlString(_ url: PostgresURL) -> String {
    let password = url.password.map { ":" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? ""
    return "postgres://\(url.user)\(password)@\(url.host):\(url.port)/\(url.database)"
}

// The helpers below serve only Scratch: the URL psql is given, and psql itself.

/// Runs `sql` with psql; returns its output.
@discardableResult
func psql(_ url: PostgresURL, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["psql", urlString(url), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ValidationError("psql failed on: \(sql.prefix(80))") }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

