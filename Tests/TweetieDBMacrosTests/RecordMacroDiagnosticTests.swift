import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Record`'s compile-time errors: each with its position, message and fix-it (where one exists),
/// and the source after the fix-it is applied.
@Suite("@Record diagnostics")
struct RecordMacroDiagnosticTests {
    @Test func onAClassWithAFixIt() {
        assertRecordExpansion(
            """
            @Record
            class Note {
                var id: Int64
            }
            """,
            expandedSource: """
            class Note {
                var id: Int64
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Record applies to a struct, not a class: records are values, copied in and out of the store",
                               line: 2, column: 1, fixIts: [FixItSpec(message: "Replace 'class' with 'struct'")]),
            ],
            fixedSource: """
            @Record
            struct Note {
                var id: Int64
            }
            """
        )
    }

    @Test func onAnEnum() {
        assertRecordExpansion(
            """
            @Record
            enum Kind {
                case a
            }
            """,
            expandedSource: """
            enum Kind {
                case a
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Record applies to a struct, not an enum: records are values, copied in and out of the store",
                               line: 2, column: 1),
            ]
        )
    }

    @Test func withoutAnIDWithAFixIt() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var text: String
            }
            """,
            expandedSource: """
            struct Note {
                var text: String
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Record needs a stored property 'id' (the primary key: Int64, UInt64, String, UUID or another KeyComponent); 'Note' has none",
                               line: 2, column: 8, fixIts: [FixItSpec(message: "Add 'var id: Int64'")]),
            ],
            fixedSource: """
            @Record
            struct Note {
                var id: Int64
                var text: String
            }
            """
        )
    }

    @Test func aComputedIDIsNotAStoredOne() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: Int64 { 1 }
                var text: String
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64 { 1 }
                var text: String
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Record needs a stored property 'id' (the primary key: Int64, UInt64, String, UUID or another KeyComponent); 'Note' has none",
                               line: 2, column: 8, fixIts: [FixItSpec(message: "Add 'var id: Int64'")]),
            ]
        )
    }

    @Test func unsupportedPropertyTypes() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: Int64
                var onChange: (Int) -> Void
                var pair: (Int, String)
                var anything: Any
                var shape: any Shape
                var maybe: Int??
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64
                var onChange: (Int) -> Void
                var pair: (Int, String)
                var anything: Any
                var shape: any Shape
                var maybe: Int??
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: Self.unsupported("onChange", "(Int) -> Void", "a function type is code, not data"), line: 4, column: 19),
                DiagnosticSpec(message: Self.unsupported("pair", "(Int, String)", "tuples are not Codable"), line: 5, column: 15),
                DiagnosticSpec(message: Self.unsupported("anything", "Any", "'Any' has no single stored form"), line: 6, column: 19),
                DiagnosticSpec(message: Self.unsupported("shape", "any Shape", "an existential or opaque type has no single stored form"), line: 7, column: 16),
                DiagnosticSpec(message: Self.unsupported("maybe", "Int??", "a nested optional, whose inner nil cannot be told apart from the outer one once stored"),
                               line: 8, column: 16),
            ]
        )
    }

    static func unsupported(_ property: String, _ type: String, _ reason: String) -> String {
        "@Record cannot store '\(property)' of type '\(type)': \(reason). Give it a Codable type "
            + "(integers, Bool, Double, Float, String, Date, UUID, Data, URL, optionals and arrays of these are stored directly; "
            + "other Codable types through Codable), or make it a computed or static property"
    }

    @Test func anImplicitlyUnwrappedOptionalWithAFixIt() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: Int64
                var replyTo: Int64!
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64
                var replyTo: Int64!
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Record cannot store 'replyTo' of type 'Int64!': an implicitly unwrapped optional; declare it as an optional",
                               line: 4, column: 18, fixIts: [FixItSpec(message: "Replace '!' with '?'")]),
            ],
            fixedSource: """
            @Record
            struct Note {
                var id: Int64
                var replyTo: Int64?
            }
            """
        )
    }

    @Test func aLetWithADefaultValueWithAFixIt() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: Int64
                let kind: String = "note"
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64
                let kind: String = "note"
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "'kind' is a 'let' with a default value, so a stored record could never set it on decoding; declare it 'var' (or remove the default)",
                               line: 4, column: 5, fixIts: [FixItSpec(message: "Replace 'let' with 'var'")]),
            ],
            fixedSource: """
            @Record
            struct Note {
                var id: Int64
                var kind: String = "note"
            }
            """
        )
    }

    @Test func aPropertyWithoutATypeWithAFixIt() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: Int64
                var count = 0
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64
                var count = 0
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Record needs the type of 'count' written out, to choose how to store it",
                               line: 4, column: 9, fixIts: [FixItSpec(message: "Add ': Int'")]),
            ],
            fixedSource: """
            @Record
            struct Note {
                var id: Int64
                var count: Int = 0
            }
            """
        )
    }

    /// A `CodingKeys` of the type's own is kept (its JSON form is its own); an `indexes` that leaves out an `@Indexed` handle is still an error.
    @Test func ownCodingKeysAreKeptAndIndexesBesideIndexedIsAnError() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                static let indexes: [Index<Note>] = []
                var id: Int64
                @Indexed var text: String
                enum CodingKeys: String, CodingKey {
                    case id, text = "t"
                }
            }
            """,
            expandedSource: """
            struct Note {
                static let indexes: [Index<Note>] = []
                var id: Int64
                var text: String
                enum CodingKeys: String, CodingKey {
                    case id, text = "t"
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "'indexes' is declared here, so it must list the indexes @Indexed declares; add byText.index",
                               line: 3, column: 12, fixIts: [FixItSpec(message: "List the @Indexed indexes in 'indexes'")]),
            ]
        )
    }

    @Test func indexedHandlesLeftOutOfIndexesWithAFixItThatListsThem() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                static let indexes: [Index<Note>] = [
                    Index("author") { $0.author }.then { $0.updated },
                ]
                var id: Int64
                var author: String
                @Indexed(order: .descending) var updated: Date
                @Indexed var text: String
            }
            """,
            expandedSource: """
            struct Note {
                static let indexes: [Index<Note>] = [
                    Index("author") { $0.author }.then { $0.updated },
                ]
                var id: Int64
                var author: String
                var updated: Date
                var text: String
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "'indexes' is declared here, so it must list the indexes @Indexed declares; add byUpdated.index, byText.index",
                               line: 3, column: 12, fixIts: [FixItSpec(message: "List the @Indexed indexes in 'indexes'")]),
            ],
            fixedSource: """
            @Record
            struct Note {
                static let indexes: [Index<Note>] = [
                    Index("author") { $0.author }.then { $0.updated },
                    byUpdated.index,
                    byText.index,
                ]
                var id: Int64
                var author: String
                @Indexed(order: .descending) var updated: Date
                @Indexed var text: String
            }
            """
        )
    }

    /// `@Indexed var text` declares `byText`; a member of that name is an error, not a redeclaration
    /// in generated code.
    @Test func anIndexedHandleWhoseNameIsTaken() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: Int64
                @Indexed var text: String
                static let byText = 1
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64
                var text: String
                static let byText = 1
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Indexed on 'text' declares 'byText', which the struct declares already; rename that member, "
                                   + "or declare the index yourself and list it in 'indexes'",
                               line: 4, column: 5),
            ]
        )
    }

    @Test func internedOnlyOnStrings() {
        assertRecordExpansion(
            """
            @Record
            struct Note {
                var id: Int64
                @Interned var count: Int
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64
                var count: Int
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Interned applies to String and [String] properties (and their optionals); 'count' is 'Int'",
                               line: 4, column: 5),
            ]
        )
    }

    @Test func anInvalidCollectionName() {
        assertRecordExpansion(
            """
            @Record(collection: "my notes")
            struct Note {
                var id: Int64
            }
            """,
            expandedSource: """
            struct Note {
                var id: Int64
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "collection name \"my notes\" must be non-empty and use only letters, digits, '_' and '-'",
                               line: 1, column: 21),
            ]
        )
    }
}
