import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Record(collection:)`: makes a struct a TweetieDB record, with the fast ``RecordCodable``
/// codec for its stored properties and a `Codable` conformance that writes the same fields.
///
/// The extension it adds holds `collectionName` (unless declared), `indexes` listing the
/// `@Indexed` properties' handles (unless declared), `CodingKeys`, `init(from: any Decoder)`, `encode(to: any Encoder)`,
/// `encode(to: inout RecordWriter)` and `init(from: inout RecordFieldReader)`. A `CodingKeys`,
/// `init(from:)` or `encode(to:)` the struct declares itself is kept and not generated: the JSON
/// form is then the type's own (Tweet adds string twins of its ids), the stored form is not.
///
/// When the JSON form is the generated one and every property's type has a JSON text of its
/// own (``JSONMemberType``), it also adds `writeJSONObject(to:)` and `init?(jsonObject:)`
/// (`JSONObjectWritable`, `JSONObjectReadable`): export and import then write and read the
/// members by name, in their keys' byte order, without an `Encoder` or a `Decoder`.
///
/// Inside the struct's body (the member role) it declares `static let by<Name>`, the
/// `TypedIndex` of each `@Indexed` property, and, for a `public` (or `package`) struct whose
/// stored properties are all as visible, the memberwise initializer at that level. A struct nested
/// in another type also gets a `private typealias _RecordValue_<name>` per stored property: the
/// extension is declared at file scope, where a property type that is the enclosing type's member
/// (`Feed.Location` written `Location`) cannot be found, so the extension's members name the
/// types through those aliases.
public struct RecordMacro: ExtensionMacro, MemberMacro {
    /// The member role: the `by<Name>` handle of each `@Indexed` property's index, a public
    /// memberwise initializer for a public struct, and, for a struct nested in another type, the
    /// aliases of its properties' types, resolved where the struct is declared.
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            return []
        }
        let members = RecordMembers(of: structDecl, in: SilentExpansionContext(context))
        guard !members.hasErrors else {
            return []
        }
        let access = accessPrefix(structDecl.modifiers)
        var declarations: [DeclSyntax] = []
        if isNested(structDecl, in: context) {
            // Private: only the macro's own extension (same file) names them, and a private alias may
            // stand for a private type of the enclosing one.
            declarations += members.properties.map { "private typealias \(raw: $0.typeAlias) = \(raw: $0.valueType)" }
        }
        for property in members.properties where property.indexed != nil {
            declarations.append("""
                /// The index of `\(raw: property.key)`, declared by `@Indexed`: what queries name it by.
                \(raw: access)static let \(raw: property.indexHandle) = \(raw: RecordMembers.indexExpression(property, of: structDecl.name.text))
                """)
        }
        if let initializer = memberwiseInit(members, typeName: structDecl.name.text, access: access) {
            declarations.append(DeclSyntax(stringLiteral: initializer))
        }
        return declarations
    }

    /// The memberwise initializer at the struct's own access level, for a `public` or `package`
    /// struct (whose implicit one is internal): when every stored property is at least as visible
    /// (so its type is too) and the struct declares no initializer with the same labels. Defaults
    /// are kept, and an optional `var` defaults to `nil`, as in the implicit one.
    static func memberwiseInit(_ members: RecordMembers, typeName: String, access: String) -> String? {
        let visible: Set<TokenKind> = switch access {
        case "public ": [.keyword(.public), .keyword(.open)]
        case "package ": [.keyword(.public), .keyword(.open), .keyword(.package)]
        default: []
        }
        guard !visible.isEmpty, !members.properties.isEmpty,
              members.properties.allSatisfy({ property in
                  property.declaration.modifiers.contains { visible.contains($0.name.tokenKind) && $0.detail == nil }
              }),
              !members.initializerLabels.contains(members.properties.map(\.key)) else {
            return nil
        }
        let parameters = members.properties.map { property in
            let isVar = property.declaration.bindingSpecifier.tokenKind == .keyword(.var)
            let defaultValue = property.defaultValue ?? (property.isOptional && isVar ? "nil" : nil)
            return "\(property.name): \(property.type)" + (defaultValue.map { " = \($0)" } ?? "")
        }
        let body = members.properties.map { "self.\($0.name) = \($0.name)" }
        return "/// Creates a `\(typeName)` from its stored properties: the memberwise initializer, as visible as the struct.\n"
            + "\(access)init(\(parameters.joined(separator: ", "))) {\n\(body.joined(separator: "\n"))\n}"
    }

    /// Whether the struct is declared inside another type (or an extension of one).
    static func isNested(_ structDecl: StructDeclSyntax, in context: some MacroExpansionContext) -> Bool {
        var contexts = context.lexicalContext[...]
        if let first = contexts.first?.as(StructDeclSyntax.self), first.name.text == structDecl.name.text {
            contexts = contexts.dropFirst()
        }
        return contexts.contains { context in
            context.is(StructDeclSyntax.self) || context.is(EnumDeclSyntax.self) || context.is(ClassDeclSyntax.self)
                || context.is(ActorDeclSyntax.self) || context.is(ExtensionDeclSyntax.self) || context.is(ProtocolDeclSyntax.self)
        }
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            diagnoseNotAStruct(declaration, in: context)
            return []
        }
        var members = RecordMembers(of: structDecl, in: context)
        let collection = collectionName(node, typeName: structDecl.name.text, members: &members, in: context)
        if !members.declaresPrimaryKey, !members.properties.contains(where: { $0.key == "id" }) {
            diagnoseMissingID(structDecl, members: &members, in: context)
        }
        guard !members.hasErrors else {
            return []
        }
        let typeName = type.trimmedDescription
        let access = accessPrefix(structDecl.modifiers)
        // Nested: the member role declared an alias of each property's type inside the struct.
        let nested = isNested(structDecl, in: context)
        let properties = members.properties.map { nested ? $0.spelledThroughAlias() : $0 }
        var lines: [String] = []
        if let collection {
            lines.append("\(access)static var collectionName: String { \(collection) }")
        }
        let indexed = properties.filter { $0.indexed != nil }
        if !indexed.isEmpty, members.declaresIndexes == nil {
            let indexes = indexed.map { "Self.\($0.indexHandle).index" }
            lines.append("\(access)static let indexes: [TweetieDB.Index<\(typeName)>] = [\(indexes.joined(separator: ", "))]")
        }
        if !members.declaresCodingKeys {
            lines.append(codingKeys(properties))
        }
        if !members.declaresDecodableInit {
            lines.append(codableInit(properties, access: access))
        }
        if !members.declaresEncode {
            lines.append(codableEncode(properties, access: access))
        }
        lines.append(fastEncode(properties, access: access))
        lines.append(fastInit(properties, access: access))

        // The direct JSON paths: only where they write and read exactly what the Codable members do.
        let jsonTypesKnown = members.properties.allSatisfy { JSONMemberType(valueType: $0.valueType) != nil }
        let writesJSON = jsonTypesKnown && !members.declaresCodingKeys && !members.declaresEncode
            && protocols.contains { $0.trimmedDescription.hasSuffix("JSONObjectWritable") }
        let readsJSON = jsonTypesKnown && !members.declaresCodingKeys && !members.declaresDecodableInit
            && protocols.contains { $0.trimmedDescription.hasSuffix("JSONObjectReadable") }
        if writesJSON {
            lines.append(jsonWrite(properties, access: access))
        }
        if readsJSON {
            lines.append(jsonInit(properties, access: access))
        }

        let conformances = protocols.map(\.trimmedDescription).filter { name in
            if name.hasSuffix("JSONObjectWritable") { return writesJSON }
            if name.hasSuffix("JSONObjectReadable") { return readsJSON }
            return true
        }
        let inheritance = conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")
        let source: DeclSyntax = """
            extension \(raw: typeName)\(raw: inheritance) {
            \(raw: lines.joined(separator: "\n\n"))
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else {
            return []
        }
        return [extensionDecl]
    }

    // MARK: Generated members

    static func codingKeys(_ properties: [RecordProperty]) -> String {
        guard !properties.isEmpty else {
            return "enum CodingKeys: String, CodingKey {}"
        }
        return "enum CodingKeys: String, CodingKey {\ncase \(properties.map(\.name).joined(separator: ", "))\n}"
    }

    static func codableInit(_ properties: [RecordProperty], access: String) -> String {
        var body = ["let container = try decoder.container(keyedBy: CodingKeys.self)"]
        for property in properties {
            if property.isOptional {
                body.append("self.\(property.name) = try container.decodeIfPresent(\(property.valueType).self, forKey: .\(property.name))")
            } else if let defaultValue = property.defaultValue {
                body.append("self.\(property.name) = try container.decodeIfPresent(\(property.valueType).self, forKey: .\(property.name)) ?? \(defaultValue)")
            } else {
                body.append("self.\(property.name) = try container.decode(\(property.valueType).self, forKey: .\(property.name))")
            }
        }
        return "\(access)init(from decoder: any Decoder) throws {\n\(body.joined(separator: "\n"))\n}"
    }

    static func codableEncode(_ properties: [RecordProperty], access: String) -> String {
        var body = [properties.isEmpty ? "_ = encoder.container(keyedBy: CodingKeys.self)" : "var container = encoder.container(keyedBy: CodingKeys.self)"]
        for property in properties {
            let method = property.isOptional ? "encodeIfPresent" : "encode"
            body.append("try container.\(method)(self.\(property.name), forKey: .\(property.name))")
        }
        return "\(access)func encode(to encoder: any Encoder) throws {\n\(body.joined(separator: "\n"))\n}"
    }

    static func fastEncode(_ properties: [RecordProperty], access: String) -> String {
        let body = properties.map { "writer.write(self.\($0.name), forKey: \"\($0.key)\")" }
        return "\(access)func encode(to writer: inout TweetieDB.RecordWriter) {\n\(body.joined(separator: "\n"))\n}"
    }

    static func fastInit(_ properties: [RecordProperty], access: String) -> String {
        var body: [String] = []
        for property in properties {
            body.append("var \(property.local): \(property.valueType)? = nil")
        }
        if properties.isEmpty {
            body.append("while try reader.nextField() != nil {\n}")
        } else {
            body.append("while let field = try reader.nextField() {\nswitch field.name {")
            for property in properties {
                let shared = property.isInterned ? "Shared" : ""
                // A defaulted property also takes a stored nil as "absent", like the Codable path.
                let method = property.mayBeAbsent ? "decode\(shared)IfPresent" : "decode\(shared)"
                body.append("case \"\(property.key)\":\n\(property.local) = try field.\(method)(\(property.valueType).self)")
            }
            body.append("default:\nbreak\n}\n}")
        }
        for property in properties {
            if property.isOptional {
                body.append("self.\(property.name) = \(property.local)")
            } else if let defaultValue = property.defaultValue {
                body.append("self.\(property.name) = \(property.local) ?? \(defaultValue)")
            } else {
                body.append("self.\(property.name) = try reader.require(\(property.local), forKey: \"\(property.key)\")")
            }
        }
        return "\(access)init(from reader: inout TweetieDB.RecordFieldReader) throws {\n\(body.joined(separator: "\n"))\n}"
    }

    /// `writeJSONObject(to:)`: each member in its key's byte order (the order `.sortedKeys`
    /// writes), optionals only when not `nil`, as the generated `encode(to:)` does.
    static func jsonWrite(_ properties: [RecordProperty], access: String) -> String {
        let body = sortedByKeyBytes(properties).map { property in
            "object.\(property.isOptional ? "writeIfPresent" : "write")(self.\(property.name), forKey: \"\(property.key)\")"
        }
        return "\(access)func writeJSONObject(to object: inout TweetieDB.JSONObjectWriter) {\n\(body.joined(separator: "\n"))\n}"
    }

    /// `init?(jsonObject:)`: reads the members in their keys' byte order, typed by the
    /// property; `nil` (leaving the object to `init(from:)`) when a required member is missing or
    /// any member is not exactly what `init(from:)` would read. Optional and defaulted members
    /// may be absent or `null`, as `decodeIfPresent` allows.
    static func jsonInit(_ properties: [RecordProperty], access: String) -> String {
        var body: [String] = []
        for property in sortedByKeyBytes(properties) {
            let method = property.mayBeAbsent ? "valueIfPresent" : "value"
            body.append("let \(property.local): \(property.valueType)? = json.\(method)(\"\(property.key)\")")
        }
        let required = properties.filter { !$0.mayBeAbsent }.map { "let \($0.local)" }
        body.append("guard \((["!json.failed"] + required).joined(separator: ", ")) else {\nreturn nil\n}")
        for property in properties {
            if property.isOptional || property.defaultValue == nil {
                body.append("self.\(property.name) = \(property.local)")
            } else {
                body.append("self.\(property.name) = \(property.local) ?? \(property.defaultValue!)")
            }
        }
        return "\(access)init?(jsonObject json: inout TweetieDB.JSONObjectReader) {\n\(body.joined(separator: "\n"))\n}"
    }

    /// The properties in their keys' UTF-8 byte order.
    static func sortedByKeyBytes(_ properties: [RecordProperty]) -> [RecordProperty] {
        properties.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
    }

    // MARK: Arguments and checks

    /// `public ` / `package ` when the struct is; the members must be as visible as the conformance.
    static func accessPrefix(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// The `collectionName` expression: `collection:`'s argument, else the type's name; `nil` when
    /// the struct declares `collectionName` itself.
    static func collectionName(_ node: AttributeSyntax, typeName: String, members: inout RecordMembers,
                               in context: some MacroExpansionContext) -> String? {
        guard !members.declaresCollectionName else {
            return nil
        }
        guard let argument = node.arguments?.as(LabeledExprListSyntax.self)?.first(where: { $0.label?.text == "collection" }) else {
            return "\"\(typeName)\""
        }
        if let literal = argument.expression.as(StringLiteralExprSyntax.self), let name = literal.representedLiteralValue {
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
            if name.isEmpty || !name.allSatisfy(allowed.contains) {
                members.report(.invalidCollectionName(name), at: argument.expression, in: context)
            }
        }
        return argument.expression.trimmedDescription
    }

    static func diagnoseNotAStruct(_ declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) {
        if let classDecl = declaration.as(ClassDeclSyntax.self) {
            context.diagnose(Diagnostic(node: classDecl.classKeyword, message: RecordDiagnostic.notAStruct(kind: "a class"), fixIts: [
                FixIt(message: RecordFixIt(message: "Replace 'class' with 'struct'"), changes: [
                    .replace(oldNode: Syntax(classDecl.classKeyword), newNode: Syntax(classDecl.classKeyword.with(\.tokenKind, .keyword(.struct)))),
                ]),
            ]))
        } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
            context.diagnose(Diagnostic(node: enumDecl.enumKeyword, message: RecordDiagnostic.notAStruct(kind: "an enum")))
        } else if let actorDecl = declaration.as(ActorDeclSyntax.self) {
            context.diagnose(Diagnostic(node: actorDecl.actorKeyword, message: RecordDiagnostic.notAStruct(kind: "an actor")))
        } else {
            context.diagnose(Diagnostic(node: declaration, message: RecordDiagnostic.notAStruct(kind: "this declaration")))
        }
    }

    static func diagnoseMissingID(_ structDecl: StructDeclSyntax, members: inout RecordMembers, in context: some MacroExpansionContext) {
        let idMember = MemberBlockItemSyntax(decl: DeclSyntax("var id: Int64"))
            .with(\.leadingTrivia, structDecl.memberBlock.members.first?.leadingTrivia ?? .newline)
        var items = Array(structDecl.memberBlock.members)
        if let first = items.first {
            items[0] = first.with(\.leadingTrivia, idMember.leadingTrivia)
        }
        let block = structDecl.memberBlock.with(\.members, MemberBlockItemListSyntax([idMember] + items))
        members.report(.missingID(type: structDecl.name.text), at: structDecl.name, fixIts: [
            FixIt(message: RecordFixIt(message: "Add 'var id: Int64'"), changes: [
                .replace(oldNode: Syntax(structDecl.memberBlock), newNode: Syntax(block)),
            ]),
        ], in: context)
    }
}
