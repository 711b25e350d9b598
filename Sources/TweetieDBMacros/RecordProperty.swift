import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

// RecordProperty (one stored property, as the macro reads it), with RecordMembers (the struct's
// members the expansion needs) and RecordTypeCheck (the syntactic checks of a property's type):
// the three halves of reading a declaration, each used only with the others.

/// One stored property of a `@Record` struct, as the generated code reads and writes it.
struct RecordProperty {
    /// The name as written (with backticks, if any).
    let name: String
    /// The stored field's key: the name without backticks.
    let key: String
    /// The declared type, as written.
    let type: String
    /// For `T?` / `Optional<T>`: `T`; otherwise ``type``.
    let valueType: String
    let isOptional: Bool
    /// The default value's expression, when declared.
    let defaultValue: String?
    /// `@Indexed`'s attribute, when present.
    let indexed: AttributeSyntax?
    /// The declaration (for the fix-it that moves `@Indexed` into `indexes`).
    let declaration: VariableDeclSyntax
    let isInterned: Bool

    /// The name of the local that collects the field in the generated `init(from:)`.
    var local: String { "_" + key }

    /// Whether the generated readers may find the field absent (or `null`): an optional, or a
    /// property with a default value, which is then used (as `decodeIfPresent(_:forKey:) ?? default`).
    var mayBeAbsent: Bool { isOptional || defaultValue != nil }

    /// The name of the `TypedIndex` handle the member role declares for an `@Indexed` property:
    /// `by` and the key, capitalized (`updated` → `byUpdated`).
    var indexHandle: String { "by" + key.prefix(1).uppercased() + key.dropFirst() }

    /// The name of the alias of ``valueType`` that the member role declares in a nested struct.
    var typeAlias: String { "_RecordValue_" + key }

    /// This property with ``valueType`` spelled through ``typeAlias`` (for a nested struct's
    /// extension, where the type as written may not be found).
    func spelledThroughAlias() -> RecordProperty {
        RecordProperty(name: name, key: key, type: type, valueType: typeAlias, isOptional: isOptional, defaultValue: defaultValue,
                       indexed: indexed, declaration: declaration, isInterned: isInterned)
    }
}

/// The members of a `@Record` struct that the expansion needs, and the problems found in them.
struct RecordMembers {
    var properties: [RecordProperty] = []
    var declaresIndexes: VariableDeclSyntax?
    var declaresCollectionName = false
    var declaresPrimaryKey = false
    /// The struct declares its own `CodingKeys`, `init(from: any Decoder)` or `encode(to: any Encoder)`:
    /// its JSON form is its own (as with Swift's synthesized Codable, what the type writes wins), and
    /// @Record generates only the members it does not declare. The fast codec is unaffected: it
    /// always stores each property under its own name.
    var declaresCodingKeys = false
    var declaresDecodableInit = false
    var declaresEncode = false
    /// The argument labels of each initializer the struct declares.
    var initializerLabels: [[String]] = []
    /// The names of the struct's variables and functions (static or not).
    var declaredNames: Set<String> = []
    var hasErrors = false

    init(of declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) {
        for member in declaration.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                collect(variable, in: context)
            } else if let nested = member.decl.as(EnumDeclSyntax.self), nested.name.text == "CodingKeys" {
                declaresCodingKeys = true
            } else if let nested = member.decl.as(StructDeclSyntax.self), nested.name.text == "CodingKeys" {
                declaresCodingKeys = true
            } else if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                initializerLabels.append(initializer.signature.parameterClause.parameters.map { $0.firstName.text.filter { $0 != "`" } })
                if Self.isCodableMember(initializer.signature.parameterClause, label: "from", type: "Decoder") {
                    declaresDecodableInit = true
                }
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                declaredNames.insert(function.name.text)
                if function.name.text == "encode", Self.isCodableMember(function.signature.parameterClause, label: "to", type: "Encoder") {
                    declaresEncode = true
                }
            }
        }
        let indexed = properties.filter { $0.indexed != nil }
        for property in indexed where declaredNames.contains(property.indexHandle) {
            report(.indexHandleTaken(property: property.key, handle: property.indexHandle), at: property.indexed!, in: context)
        }
        // A declared `indexes` must list the handles: the index of an @Indexed property it leaves
        // out would not exist, and a query through the handle would fail when it runs.
        if let declaresIndexes {
            let named = Set(declaresIndexes.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
                if case .identifier(let name) = token.tokenKind { return name }
                return nil
            })
            let unlisted = indexed.filter { !named.contains($0.indexHandle) }
            if !unlisted.isEmpty {
                report(.indexesAndIndexed(handles: unlisted.map(\.indexHandle)), at: declaresIndexes.bindingSpecifier,
                       fixIts: Self.listInIndexes(unlisted, declaration: declaresIndexes), in: context)
            }
        }
    }

    /// The `TypedIndex` expression of an `@Indexed` property's handle, on the record type `typeName`.
    static func indexExpression(_ property: RecordProperty, of typeName: String) -> String {
        var arguments = "\"\(property.key)\""
        if let list = property.indexed?.arguments?.as(LabeledExprListSyntax.self), !list.isEmpty {
            arguments += ", " + list.trimmedDescription
        }
        return "TweetieDB.Index<\(typeName)>.on(\(arguments)) { $0.\(property.name) }"
    }

    /// When `indexes` is an array literal: appends the unlisted `@Indexed` properties' handles'
    /// indexes (`byText.index`) to it.
    static func listInIndexes(_ indexed: [RecordProperty], declaration: VariableDeclSyntax) -> [FixIt] {
        guard let array = declaration.bindings.first?.initializer?.value.as(ArrayExprSyntax.self) else {
            return []
        }
        var elements = Array(array.elements)
        let leading = elements.last?.leadingTrivia ?? []
        if let last = elements.last, last.trailingComma == nil {
            elements[elements.count - 1] = last.with(\.trailingComma, .commaToken())
        }
        let keepsTrailingComma = array.elements.last?.trailingComma != nil
        for (position, property) in indexed.enumerated() {
            let isLast = position == indexed.count - 1
            elements.append(ArrayElementSyntax(
                leadingTrivia: leading,
                expression: ExprSyntax(stringLiteral: "\(property.indexHandle).index"),
                trailingComma: isLast && !keepsTrailingComma ? nil : .commaToken()
            ))
        }
        return [FixIt(message: RecordFixIt(message: "List the @Indexed indexes in 'indexes'"), changes: [
            .replace(oldNode: Syntax(array), newNode: Syntax(array.with(\.elements, ArrayElementListSyntax(elements)))),
        ])]
    }

    /// Whether a parameter list is `(label: any Type)` / `(label: Type)`: `Codable`'s requirements.
    static func isCodableMember(_ parameters: FunctionParameterClauseSyntax, label: String, type: String) -> Bool {
        guard parameters.parameters.count == 1, let parameter = parameters.parameters.first,
              parameter.firstName.text == label else {
            return false
        }
        let text = parameter.type.trimmedDescription
        return text == type || text == "any \(type)" || text == "Swift.\(type)" || text == "any Swift.\(type)"
    }

    mutating func report(_ message: RecordDiagnostic, at node: some SyntaxProtocol, fixIts: [FixIt] = [],
                         in context: some MacroExpansionContext) {
        hasErrors = true
        context.diagnose(Diagnostic(node: Syntax(node), message: message, fixIts: fixIts))
    }

    mutating func collect(_ variable: VariableDeclSyntax, in context: some MacroExpansionContext) {
        let modifiers = variable.modifiers.map(\.name.tokenKind)
        let bindings = Array(variable.bindings)
        for binding in bindings {
            if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { declaredNames.insert(name) }
        }
        if modifiers.contains(.keyword(.static)) || modifiers.contains(.keyword(.class)) {
            for binding in bindings {
                switch binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                case "indexes": declaresIndexes = variable
                case "collectionName": declaresCollectionName = true
                default: break
                }
            }
            return
        }
        // Lazy properties are caches, not data: not stored (like computed properties).
        if modifiers.contains(.keyword(.lazy)) {
            return
        }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        for (position, binding) in bindings.enumerated() {
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else {
                continue
            }
            let name = identifier.text
            if name == "primaryKey" {
                declaresPrimaryKey = true
            }
            if Self.isComputed(binding) {
                continue
            }
            // `var a, b: Int`: a binding without type or value takes the type of the next one.
            var typeSyntax = binding.typeAnnotation?.type
            if typeSyntax == nil, binding.initializer == nil {
                typeSyntax = bindings[(position + 1)...].first { $0.typeAnnotation != nil }?.typeAnnotation?.type
            }
            guard let typeSyntax else {
                report(.missingTypeAnnotation(property: name), at: binding.pattern,
                       fixIts: Self.typeAnnotationFixIt(binding), in: context)
                continue
            }
            if isLet, binding.initializer != nil {
                report(.letWithDefault(property: name), at: variable.bindingSpecifier, fixIts: [
                    FixIt(message: RecordFixIt(message: "Replace 'let' with 'var'"), changes: [
                        .replace(oldNode: Syntax(variable.bindingSpecifier),
                                 newNode: Syntax(variable.bindingSpecifier.with(\.tokenKind, .keyword(.var)))),
                    ]),
                ], in: context)
                continue
            }
            if let problem = RecordTypeCheck.problem(in: typeSyntax) {
                switch problem {
                case .implicitlyUnwrapped(let node):
                    let optional = OptionalTypeSyntax(wrappedType: node.wrappedType.trimmed)
                    report(.implicitlyUnwrapped(property: name, type: typeSyntax.trimmedDescription), at: typeSyntax, fixIts: [
                        FixIt(message: RecordFixIt(message: "Replace '!' with '?'"), changes: [
                            .replace(oldNode: Syntax(node), newNode: Syntax(optional.with(\.trailingTrivia, node.trailingTrivia))),
                        ]),
                    ], in: context)
                case .unsupported(let reason):
                    report(.unsupportedType(property: name, type: typeSyntax.trimmedDescription, reason: reason), at: typeSyntax, in: context)
                }
                continue
            }
            let wrapped = RecordTypeCheck.optionalWrapped(typeSyntax)
            let valueType = (wrapped ?? typeSyntax).trimmedDescription
            let interned = Self.attribute("Interned", in: variable)
            if interned != nil, !["String", "[String]", "Array<String>", "Swift.String"].contains(valueType) {
                report(.internedType(property: name, type: typeSyntax.trimmedDescription), at: interned!, in: context)
                continue
            }
            properties.append(RecordProperty(
                name: name,
                key: name.filter { $0 != "`" },
                type: typeSyntax.trimmedDescription,
                valueType: valueType,
                isOptional: wrapped != nil,
                defaultValue: binding.initializer?.value.trimmedDescription,
                indexed: Self.attribute("Indexed", in: variable),
                declaration: variable,
                isInterned: interned != nil
            ))
        }
    }

    /// A property with a getter (or `get`/`set`) is computed; one with only `willSet`/`didSet` is stored.
    static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessorBlock = binding.accessorBlock else {
            return false
        }
        switch accessorBlock.accessors {
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains { accessor in
                ![.keyword(.willSet), .keyword(.didSet)].contains(accessor.accessorSpecifier.tokenKind)
            }
        }
    }

    static func attribute(_ name: String, in variable: VariableDeclSyntax) -> AttributeSyntax? {
        for element in variable.attributes {
            if let attribute = element.as(AttributeSyntax.self) {
                let text = attribute.attributeName.trimmedDescription
                if text == name || text == "TweetieDB.\(name)" {
                    return attribute
                }
            }
        }
        return nil
    }

    /// For `var count = 0` (a literal): the fix-it that writes the literal's type.
    static func typeAnnotationFixIt(_ binding: PatternBindingSyntax) -> [FixIt] {
        guard let value = binding.initializer?.value else {
            return []
        }
        let type: String
        if value.is(IntegerLiteralExprSyntax.self) {
            type = "Int"
        } else if value.is(FloatLiteralExprSyntax.self) {
            type = "Double"
        } else if value.is(StringLiteralExprSyntax.self) {
            type = "String"
        } else if value.is(BooleanLiteralExprSyntax.self) {
            type = "Bool"
        } else {
            return []
        }
        let annotated = binding
            .with(\.pattern, binding.pattern.trimmed)
            .with(\.typeAnnotation, TypeAnnotationSyntax(colon: .colonToken(trailingTrivia: .space),
                                                         type: TypeSyntax(IdentifierTypeSyntax(name: .identifier(type, trailingTrivia: .space)))))
        return [FixIt(message: RecordFixIt(message: "Add ': \(type)'"), changes: [
            .replace(oldNode: Syntax(binding), newNode: Syntax(annotated)),
        ])]
    }
}

/// The syntactic checks of a property's type.
enum RecordTypeCheck {
    enum Problem {
        case implicitlyUnwrapped(ImplicitlyUnwrappedOptionalTypeSyntax)
        case unsupported(String)
    }

    /// The wrapped type of `T?` or `Optional<T>`, or `nil` when `type` is not an optional.
    static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) {
            return optional.wrappedType
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
           let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
           case .type(let wrapped) = arguments.first!.argument {
            return wrapped
        }
        return nil
    }

    /// Why `type` cannot be stored, or `nil` when it may be (the compiler checks that it is `Codable`).
    static func problem(in type: TypeSyntax) -> Problem? {
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return .implicitlyUnwrapped(unwrapped)
        }
        if let wrapped = optionalWrapped(type) {
            if optionalWrapped(wrapped) != nil {
                return .unsupported("a nested optional, whose inner nil cannot be told apart from the outer one once stored")
            }
            return problem(in: wrapped)
        }
        if type.is(FunctionTypeSyntax.self) {
            return .unsupported("a function type is code, not data")
        }
        if let tuple = type.as(TupleTypeSyntax.self) {
            if tuple.elements.count == 1, let only = tuple.elements.first {
                return problem(in: only.type)
            }
            return .unsupported("tuples are not Codable")
        }
        if type.is(SomeOrAnyTypeSyntax.self) {
            return .unsupported("an existential or opaque type has no single stored form")
        }
        if type.is(MetatypeTypeSyntax.self) {
            return .unsupported("a metatype is not data")
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return problem(in: attributed.baseType)
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            return problem(in: array.element)
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return problem(in: dictionary.key) ?? problem(in: dictionary.value)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            if ["Any", "AnyObject"].contains(identifier.name.text) {
                return .unsupported("'\(identifier.name.text)' has no single stored form")
            }
            for argument in identifier.genericArgumentClause?.arguments ?? [] {
                if case .type(let argumentType) = argument.argument, let problem = problem(in: argumentType) {
                    return problem
                }
            }
        }
        return nil
    }
}
