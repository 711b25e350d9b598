import Foundation
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import Testing
import TweetieDBMacros

/// What `@Record` declares inside the struct's body: the `by<Name>` handle of each `@Indexed`
/// property and, for a struct whose implicit memberwise initializer would be less visible than
/// the struct, that initializer at the struct's level.
@Suite("@Record members")
struct RecordMacroMemberTests {
    /// A public struct: a public initializer with every stored property, defaults kept, an optional
    /// `var` defaulting to `nil` (a `let` one not), computed and static properties left out.
    @Test func aPublicStructGetsAPublicMemberwiseInitializer() {
        assertRecordMembers(
            """
            @Record
            public struct Note {
                public static let limit = 10
                public let id: Int64
                @Indexed(order: .descending) public var updated: Date
                public var tags: [String] = []
                public var replyTo: Int64?
                public let origin: String?
                public private(set) var views: Int = 0
                public var summary: String { "" }
            }
            """,
            expandedSource: """
            public struct Note {
                public static let limit = 10
                public let id: Int64
                public var updated: Date
                public var tags: [String] = []
                public var replyTo: Int64?
                public let origin: String?
                public private(set) var views: Int = 0
                public var summary: String { "" }

                /// The index of `updated`, declared by `@Indexed`: what queries name it by.
                public static let byUpdated = TweetieDB.Index<Note>.on("updated", order: .descending) {
                    $0.updated
                }

                /// Creates a `Note` from its stored properties: the memberwise initializer, as visible as the struct.
                public init(id: Int64, updated: Date, tags: [String] = [], replyTo: Int64? = nil, origin: String?, views: Int = 0) {
                    self.id = id
                    self.updated = updated
                    self.tags = tags
                    self.replyTo = replyTo
                    self.origin = origin
                    self.views = views
                }
            }
            """
        )
    }

    /// A declared `indexes` that lists the `@Indexed` handle: the handle is declared, `indexes` is
    /// the struct's own (the extension declares none), and nothing is reported.
    @Test func indexedBesideIndexesThatListsItsHandle() throws {
        let source = """
            @Record
            struct Note {
                static let byLength = Index<Note>.on("length") { $0.text.count }
                static let indexes = [byText.index, byLength.index]
                var id: Int64
                @Indexed var text: String
            }
            """
        assertRecordMembers(source, expandedSource: """
            struct Note {
                static let byLength = Index<Note>.on("length") { $0.text.count }
                static let indexes = [byText.index, byLength.index]
                var id: Int64
                var text: String

                /// The index of `text`, declared by `@Indexed`: what queries name it by.
                static let byText = TweetieDB.Index<Note>.on("text") {
                    $0.text
                }
            }
            """)
        let file = Parser.parse(source: source)
        let structDecl = try #require(file.statements.first?.item.as(StructDeclSyntax.self))
        let attribute = try #require(structDecl.attributes.first?.as(AttributeSyntax.self))
        let context = BasicMacroExpansionContext()
        let extensions = try RecordMacro.expansion(of: attribute, attachedTo: structDecl, providingExtensionsOf: TypeSyntax("Note"),
                                                   conformingTo: [TypeSyntax("Record")], in: context)
        #expect(context.diagnostics.isEmpty, "\(context.diagnostics.map(\.message))")
        #expect(extensions.count == 1 && !extensions[0].description.contains("indexes"), "\(extensions)")
    }

    @Test func aPackageStructGetsAPackageInitializer() {
        assertRecordMembers(
            """
            @Record
            package struct Note {
                package var id: Int64
                public var text: String
            }
            """,
            expandedSource: """
            package struct Note {
                package var id: Int64
                public var text: String

                /// Creates a `Note` from its stored properties: the memberwise initializer, as visible as the struct.
                package init(id: Int64, text: String) {
                    self.id = id
                    self.text = text
                }
            }
            """
        )
    }

    /// No initializer where the implicit one is already as visible as the struct, where a stored
    /// property is less visible than the struct (its type may be too, and could not appear in a
    /// public signature), or where the struct declares one with the same labels.
    @Test(arguments: [
        """
        struct Note {
            var id: Int64
            @Indexed var text: String
        }
        """,
        """
        public struct Note {
            public var id: Int64
            @Indexed var text: String
        }
        """,
        """
        public struct Note {
            public var id: Int64
            @Indexed public var text: String
            public init(id: Int64, text: String) {
                self.id = id
                self.text = text.lowercased()
            }
        }
        """,
    ])
    func noInitializerWhereItWouldBeWrong(_ declaration: String) {
        let access = declaration.hasPrefix("public") ? "public " : ""
        let body = declaration.replacingOccurrences(of: "@Indexed ", with: "")
        assertRecordMembers(
            "@Record\n" + declaration,
            expandedSource: String(body.dropLast()) + """

                /// The index of `text`, declared by `@Indexed`: what queries name it by.
                \(access)static let byText = TweetieDB.Index<Note>.on("text") {
                    $0.text
                }
            }
            """
        )
    }
}
