import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// An expansion context that drops diagnostics: `@Record`'s member role reads the struct's
/// properties again, and the problems it finds are the extension role's to report, once.
///
/// ```swift
/// let members = RecordMembers(of: structDecl, in: SilentExpansionContext(context))
/// ```
final class SilentExpansionContext<Base: MacroExpansionContext>: MacroExpansionContext {
    private let base: Base

    init(_ base: Base) {
        self.base = base
    }

    func makeUniqueName(_ name: String) -> TokenSyntax { base.makeUniqueName(name) }

    func diagnose(_ diagnostic: Diagnostic) {}

    func location(of node: some SyntaxProtocol, at position: PositionInSyntaxNode,
                  filePathMode: SourceLocationFilePathMode) -> AbstractSourceLocation? {
        base.location(of: node, at: position, filePathMode: filePathMode)
    }

    var lexicalContext: [Syntax] { base.lexicalContext }
}
