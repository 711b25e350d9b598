import Foundation
import Testing
@testable import TweetieReplication
import TweetieTestSupport

@Suite("PostgresURL")
struct PostgresURLTests {
    @Test func readsEveryPart() throws {
        let url = try PostgresURL("postgresql://ann:s%40cret@db.example.com:6543/tweets?sslmode=require&application_name=phone", environment: [:])
        #expect(url.user == "ann" && url.password == "s@cret" && url.host == "db.example.com" && url.port == 6543)
        #expect(url.database == "tweets" && url.tls == .require && url.applicationName == "phone")
        #expect(url.description == "postgres://ann@db.example.com:6543/tweets")
    }

    @Test func defaultsFollowLibpq() throws {
        let url = try PostgresURL("postgres://", environment: ["PGUSER": "bob", "PGPASSWORD": "pw"])
        #expect(url.user == "bob" && url.database == "bob" && url.host == "localhost" && url.port == 5432)
        #expect(url.password == "pw" && url.tls == .prefer)
        let socket = try PostgresURL("postgres://ann@/db?host=/run/postgresql&port=5433", environment: [:])
        #expect(socket.unixSocketPath == "/run/postgresql/.s.PGSQL.5433")
        let v6 = try PostgresURL("postgres://ann@[::1]:5000/db", environment: [:])
        #expect(v6.host == "::1" && v6.port == 5000)
    }

    @Test(arguments: [
        ("mysql://a@b/c", "does not start with postgres:// or postgresql://"),
        ("postgres://a@b:0/c", "port that is not a number from 1 to 65535"),
        ("postgres://a@b:x/c", "port that is not a number from 1 to 65535"),
        ("postgres://a@b/c?sslmode=maybe", "sslmode=maybe"),
        ("postgres://a@b/c?target_session_attrs=any", "the parameter \"target_session_attrs\""),
        ("postgres://a@h1,h2/c", "names several hosts"),
        ("postgres://a@b/c?sslmode", "without a value"),
    ])
    func refusesWithASentence(text: String, phrase: String) {
        #expect {
            _ = try PostgresURL(text, environment: [:])
        } throws: { error in
            let error = error as? ReplicationError
            return error?.code == .badURL && error?.message.contains(phrase) == true
        }
    }

    @Test func errorsNeverShowThePassword() {
        #expect(PostgresURL.redacted("postgres://ann:hunter2@db/x") == "postgres://ann:***@db/x")
        #expect(PostgresURL.redacted("postgres://db/x?password=hunter2&sslmode=x") == "postgres://db/x?password=***&sslmode=x")
        #expect {
            _ = try PostgresURL("postgres://ann:hunter2@db:99999/x", environment: [:])
        } throws: { error in
            !"\(error)".contains("hunter2")
        }
    }

    @Test func readsThePasswordFile() throws {
        let directory = TemporaryDirectory("pgpass")
        let path = directory.path + "/pgpass"
        try "# comment\nother:5432:*:ann:no\ndb.example.com:5432:*:ann:pa\\:ss\n*:*:*:*:fallback\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let url = try PostgresURL("postgres://ann@db.example.com/x", environment: ["PGPASSFILE": path])
        #expect(url.password == "pa:ss")
        let other = try PostgresURL("postgres://bob@elsewhere/x", environment: ["PGPASSFILE": path])
        #expect(other.password == "fallback")
        chmod(path, 0o644)
        let open = try PostgresURL("postgres://ann@db.example.com/x", environment: ["PGPASSFILE": path])
        #expect(open.password == nil, "a password file others can read is ignored, as libpq does")
    }
}

@Suite("ReplicationSchema")
struct ReplicationSchemaTests {
    @Test func splitsTheFileIntoStatements() {
        let statements = ReplicationSchema.statements(in: ReplicationSchema.files[0].sql)
        #expect(statements.count > 15)
        #expect(statements.allSatisfy { !$0.hasSuffix(";") && !$0.isEmpty })
        let function = statements.first { $0.contains("FUNCTION tweetie.before_record_write") }
        #expect(function?.contains("RETURN NEW;") == true, "a dollar-quoted body keeps its semicolons")
        #expect(ReplicationSchema.statements(in: "SELECT ';'; -- a;\nSELECT $x$;$x$") == ["SELECT ';'", "SELECT $x$;$x$"])
    }
}
