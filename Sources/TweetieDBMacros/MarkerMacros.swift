import SwiftSyntax
import SwiftSyntaxMacros

// IndexedMacro and InternedMacro: two marker macros of a few lines each, which expand to nothing and
// are read by RecordMacro; they belong together.

/// `@Indexed` / `@Indexed(order: .descending)`: a marker read by ``RecordMacro``, which turns it
/// into the handle `static let byName = Index<T>.on("name", …) { $0.name }`, listed in `indexes`;
/// it expands to nothing itself.
public struct IndexedMacro: PeerMacro {
    public static func expansion(of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        []
    }
}

/// `@Interned`: a marker read by ``RecordMacro``, which decodes the property with
/// `decodeShared`; it expands to nothing itself.
public struct InternedMacro: PeerMacro {
    public static func expansion(of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        []
    }
}
