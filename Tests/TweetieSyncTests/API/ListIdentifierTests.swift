import Testing
import TweetieSync

/// `OWNER/SLUG`, as every command and the server read `--list`.
@Suite("A list is written OWNER/SLUG")
struct ListIdentifierTests {
    @Test func theFormKeyPrintsParsesBack() throws {
        let list = try ListIdentifier(parsing: "icanzilb/RxSwift")
        #expect(list == .rxSwift)
        #expect(try ListIdentifier(parsing: list.key) == list)
        #expect(try ListIdentifier(parsing: "a/b").username == "a")
    }

    @Test(arguments: ["RxSwift", "", "/", "icanzilb/", "/RxSwift", "a/b/c", "a//b"])
    func anythingElseIsRefusedNamingTheText(_ text: String) {
        #expect {
            try ListIdentifier(parsing: text)
        } throws: { error in
            "\(error)" == "'\(text)' is not a list: write it as OWNER/SLUG, like icanzilb/RxSwift."
        }
    }
}
