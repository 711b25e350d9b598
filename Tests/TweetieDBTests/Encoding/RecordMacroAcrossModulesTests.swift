import Foundation
import Testing
import TweetieTestSupport

/// A `@Record` type used from another module, as a model module's records are: its memberwise
/// initializer and its `@Indexed` handles are public with the struct, and the handles are typed.
/// `SwiftCompiler` builds the model module, then type-checks a client of it.
@Suite("@Record across modules")
struct RecordMacroAcrossModulesTests {
    static let model = """
        import Foundation
        import TweetieDB

        @Record(collection: "notes")
        public struct Note: Sendable {
            public var id: Int64
            @Indexed(order: .descending) public var updated: Date
            @Indexed public var author: String
            public var tags: [String] = []
            public var replyTo: Int64?
        }
        """

    static let client = """
        import Foundation
        import TweetieDB
        import NoteModels

        let note = Note(id: 1, updated: .now, author: "ann")
        let reply = Note(id: 2, updated: .now, author: "bob", tags: ["re"], replyTo: note.id)
        let newest = Query<Note>().sorted(by: Note.byUpdated).limit(10)
        let anns = Query<Note>().filter(Note.byAuthor, equals: "ann")
        let recent = Query<Note>().filter(Note.byUpdated, from: note.updated, to: nil)
        """

    @Test func aPublicRecordIsMadeAndQueriedFromAnotherModule() throws {
        let directory = TemporaryDirectory("models")
        defer { directory.remove() }
        let built = try SwiftCompiler.emitModule("NoteModels", source: Self.model, in: directory.url)
        #expect(built.status == 0 && built.errors.isEmpty, "\(built.text)")
        let client = try SwiftCompiler.typecheck(Self.client, searchPaths: [directory.url])
        #expect(client.status == 0 && client.errors.isEmpty, "\(client.text)")
        // The generated handles are typed: a String on the Date index does not compile.
        let wrong = try SwiftCompiler.typecheck(Self.client + "\nlet wrong = Query<Note>().filter(Note.byUpdated, equals: \"today\")\n",
                                                searchPaths: [directory.url])
        #expect(wrong.errors.map(\.message) == ["cannot convert value of type 'String' to expected argument type 'Date'"], "\(wrong.text)")
    }
}
