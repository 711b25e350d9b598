import SwiftSyntax
import SwiftSyntaxMacroExpansion
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
