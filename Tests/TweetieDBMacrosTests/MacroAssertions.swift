import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing
import TweetieDBMacros

/// `assertMacroExpansion` with TweetieDB's macros, reporting failures to Swift Testing.
func assertRecordExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    conformances: [TypeSyntax] = ["Record", "RecordCodable", "Identifiable", "JSONObjectWritable", "JSONObjectReadable"],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let specs: [String: MacroSpec] = [
        "Record": MacroSpec(type: RecordMacro.self, conformances: conformances),
        "Indexed": MacroSpec(type: IndexedMacro.self),
        "Interned": MacroSpec(type: InternedMacro.self),
    ]
    assertMacroExpansion(
        source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: specs,
        applyFixIts: applyFixIts, fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    )
}

/// `@Record`'s member role alone: what it declares inside the struct's body (the `@Indexed`
/// handles, the memberwise initializer, a nested struct's aliases), without the extension.
struct RecordMemberRole: MemberMacro {
    static func expansion(of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
                          conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        try RecordMacro.expansion(of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }
}

/// `assertMacroExpansion` with `@Record`'s member role only, reporting failures to Swift Testing.
func assertRecordMembers(_ source: String, expandedSource: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let specs: [String: MacroSpec] = [
        "Record": MacroSpec(type: RecordMemberRole.self),
        "Indexed": MacroSpec(type: IndexedMacro.self),
        "Interned": MacroSpec(type: InternedMacro.self),
    ]
    assertMacroExpansion(
        source, expandedSource: expandedSource, macroSpecs: specs,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    )
}
