import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin behind TweetieDB's `@Record`, `@Indexed` and `@Interned`.
@main
struct TweetieDBMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [RecordMacro.self, IndexedMacro.self, InternedMacro.self]
}
