import Foundation
import Testing
import TweetieDB
import TweetieReplication
import TweetieSync
import TweetieTestSupport

/// tweetie-replicate as a user runs it: init, once, status, and its refusals.
extension PostgresSuites {
@Suite("tweetie-replicate", .serialized)
struct ReplicateCLITests {
    static let replicate = ChildProcess.builtProduct("tweetie-replicate")
    static let db = ChildProcess.builtProduct("tweetie-db")

    func run(_ arguments: [String], environment: [String: String?] = [:]) throws -> ProcessResult {
        try ChildProcess.run(Self.replicate, arguments, environment: ["TWEETIE_POSTGRES_URL": nil].merging(environment) { $1 }, timeout: 120)
    }

    @Test func twoDatabasesConvergeThroughTheCommands() async throws {
        guard let server = try PostgresTestServer.require() else { return }
        let url = try server.createDatabase()
        defer { try? server.dropDatabase(url: url) }
        let work = TemporaryDirectory("replicate-cli")
        let first = work.sub("first"), second = work.sub("second")
        let initialized = try run(["init", "--postgres", url])
        #expect(initialized.status == 0, "\(initialized.stderr)")
        #expect(try run(["init", "--postgres", url]).status == 0, "init is idempotent")
        let synced = try ChildProcess.run(Self.db, ["sync", "--simulated", "--db", first])
        #expect(synced.status == 0, "\(synced.stderr)")
        let pushed = try run(["once", "--db", first, "--format", "json"], environment: ["TWEETIE_POSTGRES_URL": url])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let summary = try JSONSerialization.jsonObject(with: pushed.stdout) as? [String: [String: Any]]
        let pushedCount = try #require(summary?["push"]?["pushed"] as? Int)
        #expect(pushedCount > 0)
        let pulled = try run(["once", "--db", second, "--postgres", url, "--format", "table"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(pulled.output.contains("from a snapshot"))
        let exportFirst = try ChildProcess.run(Self.db, ["export", "--db", first])
        let exportSecond = try ChildProcess.run(Self.db, ["export", "--db", second])
        #expect(exportFirst.status == 0 && exportSecond.status == 0)
        let records = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.contains("\"collection\":\"tweets\"") || $0.contains("\"collection\":\"users\"") } }
        #expect(records(exportFirst.stdout) == records(exportSecond.stdout))
        #expect(records(exportFirst.stdout).count == pushedCount)
        let verified = try ChildProcess.run(Self.db, ["verify", "--db", second])
        #expect(verified.status == 0, "\(verified.stderr)")
        let status = try run(["status", "--db", second, "--postgres", url, "--format", "json"])
        #expect(status.status == 0, "\(status.stderr)")
        let fields = try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any]
        #expect((fields?["server"] as? [String: Any])?["unpulledChanges"] as? Int == 0)
        let text = try run(["status", "--db", second, "--postgres", url, "--format", "table"])
        #expect(text.output.contains("not yet pulled:   0 changes"))
    }

    @Test func refusalsAreOneSentenceAndWriteNothing() async throws {
        guard let server = try PostgresTestServer.require() else { return }
        let work = TemporaryDirectory("replicate-cli-errors")
        let db = work.sub("db")
        let badURL = try run(["once", "--db", db, "--postgres", "mysql://x@y/z"])
        #expect(badURL.status == 64 && badURL.stderr.contains("does not start with postgres://"), "\(badURL.stderr)")
        let missing = try run(["once", "--db", db])
        #expect(missing.status == 64 && missing.stderr.contains("TWEETIE_POSTGRES_URL"), "\(missing.stderr)")
        // A port nobody listens on.
        let closed = try PostgresTestServer.url(server.serverURL, port: 1)
        let unreachable = try run(["once", "--db", db, "--postgres", closed])
        #expect(unreachable.status == 69 && unreachable.stderr.contains("could not be reached"), "\(unreachable.stderr)")
        // A database without the schema.
        let bare = try server.createDatabase()
        defer { try? server.dropDatabase(url: bare) }
        let noSchema = try run(["once", "--db", db, "--postgres", bare])
        #expect(noSchema.status == 78 && noSchema.stderr.contains("tweetie-replicate init"), "\(noSchema.stderr)")
        // A database that does not exist.
        let nowhere = try PostgresTestServer.url(server.serverURL, database: "no_such_database_here")
        let noDatabase = try run(["once", "--db", db, "--postgres", nowhere])
        #expect(noDatabase.status == 69 && noDatabase.stderr.contains("no_such_database_here"), "\(noDatabase.stderr)")
        // A schema from a newer version.
        let newer = try server.createDatabase()
        defer { try? server.dropDatabase(url: newer) }
        #expect(try run(["init", "--postgres", newer]).status == 0)
        _ = try server.psql("INSERT INTO tweetie.schema_migrations (version) VALUES (2)", database: newer)
        let tooNew = try run(["once", "--db", db, "--postgres", newer])
        #expect(tooNew.status == 78 && tooNew.stderr.contains("version 2"), "\(tooNew.stderr)")
        let initNewer = try run(["init", "--postgres", newer])
        #expect(initNewer.status == 78, "\(initNewer.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "no refusal created the database")
        for result in [badURL, unreachable, noSchema, noDatabase, tooNew] {
            #expect(result.stderr.split(separator: "\n").count == 1, "one sentence: \(result.stderr)")
        }
    }

    /// `status` only reads: on a database that never replicated, whether this user can write it
    /// or not, it reports no device and leaves the database as it was (the replicator's own
    /// collections are not created). The server here is unreachable: the local part is printed,
    /// then the reason, and the exit status is 69.
    @Test func statusOfADatabaseNeverReplicatedWritesNothing() throws {
        let work = TemporaryDirectory("replicate-cli-status-reads")
        let db = work.sub("db")
        defer {
            chmod(db, 0o700)
            work.remove()
        }
        #expect(try ChildProcess.run(Self.db, ["sync", "--simulated", "--ticks", "1", "--db", db]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: db + "/data.mdb"))
        let unreachable = "postgres://nobody@127.0.0.1:1/none"
        let writable = try run(["status", "--db", db, "--postgres", unreachable, "--format", "table"], environment: ["TWEETIE_POSTGRES_URL": nil])
        #expect(writable.status == 69, "\(writable.stderr)")
        let text = String(decoding: writable.stdout, as: UTF8.self)
        #expect(text.contains("none (never replicated)") && text.contains("unreachable"), "\(text)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db + "/data.mdb")) == before, "status wrote to the database")
        guard let user = try TestUser.prepare() else { return }
        for file in ["data.mdb", "lock.mdb"] { chmod(db + "/" + file, 0o444) }
        chmod(db, 0o555)
        chmod(work.path, 0o755)
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                          Array(user.setpriv.dropFirst()) + [Self.replicate.path, "status", "--db", db, "--postgres", unreachable, "--format", "json"],
                                          environment: ["TWEETIE_POSTGRES_URL": nil])
        #expect(result.status == 69, "\(result.stderr)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let status = try decoder.decode(ReplicationStatus.self, from: result.stdout)
        #expect(status.deviceID == nil && status.serverError != nil && status.lastSequence > 0, "\(String(decoding: result.stdout, as: UTF8.self))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db + "/data.mdb")) == before)
        // `prune` records the device it prunes for, which this user cannot: one sentence that says so.
        guard let server = try PostgresTestServer.require() else { return }
        let database = try server.createDatabase()
        defer { try? server.dropDatabase(url: database) }
        #expect(try run(["init", "--postgres", database]).status == 0)
        let prune = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                         Array(user.setpriv.dropFirst()) + [Self.replicate.path, "prune", "--db", db, "--postgres", database],
                                         environment: ["TWEETIE_POSTGRES_URL": nil])
        #expect(prune.status == 1, "\(prune.stderr)")
        #expect(prune.stderr.contains("\(db) has never been replicated, and this user cannot write it"), "\(prune.stderr)")
        #expect(prune.stderr.split(separator: "\n").count == 1, "one sentence: \(prune.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db + "/data.mdb")) == before)
    }

    /// The roles of Tests/Postgres/cluster: `tweetie_login` logs in with a password only,
    /// `tweetie_tls` over TLS only.
    @Test func passwordsAndTLSAreUsedAndAWrongPasswordIsOneSentence() async throws {
        guard let server = try PostgresTestServer.require() else { return }
        guard try server.psql("SELECT count(*) FROM pg_roles WHERE rolname IN ('tweetie_login', 'tweetie_tls')", database: server.serverURL) == "2" else {
            print("skipped: the server of TWEETIE_POSTGRES_URL has no roles tweetie_login and tweetie_tls (Tests/Postgres/cluster makes them)")
            return
        }
        let database = try server.createDatabase()
        defer { try? server.dropDatabase(url: database) }
        #expect(try run(["init", "--postgres", database]).status == 0)
        let work = TemporaryDirectory("replicate-cli-login")
        let db = work.sub("db")
        let name = try #require(PostgresTestServer.databaseName(of: database))
        let login = "postgres://tweetie_login@\(server.host):\(server.port)/\(name)"
        let wrong = try run(["once", "--db", db, "--postgres", login], environment: ["PGPASSWORD": "not-the-password"])
        #expect(wrong.status == 69 && wrong.stderr.contains("tweetie_login") && wrong.stderr.contains("password"), "\(wrong.stderr)")
        #expect(wrong.stderr.split(separator: "\n").count == 1 && !wrong.stderr.contains("not-the-password"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "a refused login created the database")
        // The password from the environment, then from the URL (where it is never printed).
        let right = try run(["once", "--db", db, "--postgres", login], environment: ["PGPASSWORD": "tweetie-login-password"])
        #expect(right.status == 0, "\(right.stderr)")
        let inURL = "postgres://tweetie_login:tweetie-login-password@\(server.host):\(server.port)/\(name)"
        #expect(try run(["once", "--db", db, "--postgres", inURL]).status == 0)
        // TLS: refused without it by the server's rules, used when the URL asks for it.
        let tls = "postgres://tweetie_tls@\(server.host):\(server.port)/\(name)"
        let plain = try run(["once", "--db", db, "--postgres", tls + "?sslmode=disable"])
        #expect(plain.status == 69 && plain.stderr.contains("no encryption"), "\(plain.stderr)")
        let required = try run(["once", "--db", db, "--postgres", tls + "?sslmode=require"])
        #expect(required.status == 0, "\(required.stderr)")
    }
}
}
