import Foundation
import Testing

/// What the compiler refuses: a typed query whose values are not of the index's component types,
/// or whose index belongs to another record type. Each case is a line of a snippet that
/// `SwiftCompiler` type-checks against this build's TweetieDB; the line must get an error that
/// mentions `expected`, and no other line may (so an error cannot come from a broken snippet).
/// The same snippet without the wrong lines type-checks cleanly.
@Suite("Typed queries that do not compile")
struct TypedQueryTypeCheckTests {
    /// The declarations every snippet starts with.
    static let prelude = """
        import Foundation
        import TweetieDB

        struct Note: Record, Identifiable {
            static let collectionName = "notes"
            static let byUpdated = Index<Note>.on("updated", order: .descending, \\.updated)
            static let byAuthor = Index<Note>.on("author", \\.author).then(order: .descending, \\.updated)
            static let byStars = Index<Note>.on("stars", \\.stars)
            static let indexes = [byUpdated.index, byAuthor.index, byStars.index]
            var id: Int64
            var author: String
            var updated: Date
            var stars: Int32
        }

        struct Person: Record, Identifiable {
            static let collectionName = "people"
            static let byName = Index<Person>.on("name", \\.name)
            static let indexes = [byName.index]
            var id: Int64
            var name: String
        }

        let count: Int = 7
        let monday = Date()

        """

    /// The right uses of every typed form.
    static let rightUses = """
        _ = Query<Note>().filter(Note.byStars, equals: 7)
        _ = Query<Note>().filter(Note.byStars, equals: Int32(count))
        _ = Query<Note>().filter(Note.byUpdated, from: monday, to: nil)
        _ = Query<Note>().filter(Note.byAuthor, equals: "ann")
        _ = Query<Note>().filter(Note.byAuthor, equals: "ann", monday)
        _ = Query<Note>().filter(Note.byAuthor, equals: "ann", from: monday, to: monday, upperInclusive: false)
        _ = Query<Note>().filter(Note.byAuthor, prefix: "an").sorted(by: Note.byAuthor, .descending)
        _ = Query<Person>().filter(Person.byName, equals: "ann").sorted(by: Person.byName)
        """

    /// Each wrong use and a word its error must contain.
    static let wrongUses: [(code: String, expected: String)] = [
        ("_ = Query<Note>().filter(Note.byStars, equals: count)", "Int32"),                    // an Int on an Int32 index
        ("_ = Query<Note>().filter(Note.byUpdated, from: 1, to: 5)", "Date"),                  // an Int range on a Date index
        ("_ = Query<Note>().filter(Note.byUpdated, equals: \"monday\")", "Date"),              // a String on a Date index
        ("_ = Query<Note>().filter(Note.byAuthor, equals: 7)", "String"),                      // an Int on a String index
        ("_ = Query<Note>().filter(Note.byAuthor, equals: \"ann\", \"yesterday\")", "Date"),   // the second component
        ("_ = Query<Note>().filter(Note.byAuthor, equals: \"ann\", from: 1, to: nil)", "Date"), // a range on the second
        ("_ = Query<Note>().filter(Note.byUpdated, prefix: \"2018\")", "String"),              // a prefix on a Date
        ("_ = Query<Note>().filter(Note.byUpdated, equals: monday, monday)", "Date"),          // more values than components
        ("_ = Query<Note>().filter(Person.byName, equals: \"ann\")", "Person"),                // another type's index
        ("_ = Query<Note>().sorted(by: Person.byName)", "Person"),                             // sorted by another type's index
    ]

    @Test func theRightUsesTypeCheck() throws {
        let output = try SwiftCompiler.typecheck(Self.prelude + Self.rightUses)
        #expect(output.status == 0 && output.errors.isEmpty, "\(output.text)")
        #expect(output.warnings.isEmpty, "\(output.warnings.map(\.description).joined(separator: "\n"))")
    }

    @Test func eachWrongUseIsAnErrorOnItsLine() throws {
        let preludeLines = Self.prelude.split(separator: "\n", omittingEmptySubsequences: false).count
        let source = Self.prelude + Self.wrongUses.map(\.code).joined(separator: "\n") + "\n"
        let output = try SwiftCompiler.typecheck(source)
        #expect(output.status != 0)
        let errors = output.errors
        for (offset, wrong) in Self.wrongUses.enumerated() {
            let line = preludeLines + offset
            let here = errors.filter { $0.line == line }
            #expect(!here.isEmpty, "no error for \(wrong.code)\n\(output.text)")
            #expect(here.contains { $0.message.contains(wrong.expected) },
                    "\(wrong.code): the error does not mention \(wrong.expected): \(here.map(\.message))")
        }
        let elsewhere = errors.filter { $0.line < preludeLines || $0.line >= preludeLines + Self.wrongUses.count }
        #expect(elsewhere.isEmpty, "errors outside the wrong uses: \(elsewhere)")
    }
}
