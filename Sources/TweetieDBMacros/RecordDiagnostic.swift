import SwiftDiagnostics
import SwiftSyntax

// RecordDiagnostic, with RecordFixIt: the fix-it messages of its diagnostics, used nowhere else.

/// The errors `@Record` reports, each with the rule it enforces and what to do.
enum RecordDiagnostic: DiagnosticMessage {
    case notAStruct(kind: String)
    case missingID(type: String)
    case unsupportedType(property: String, type: String, reason: String)
    case implicitlyUnwrapped(property: String, type: String)
    case letWithDefault(property: String)
    case missingTypeAnnotation(property: String)
    case internedType(property: String, type: String)
    case indexesAndIndexed(handles: [String])
    case indexHandleTaken(property: String, handle: String)
    case invalidCollectionName(String)

    var message: String {
        switch self {
        case .notAStruct(let kind):
            return "@Record applies to a struct, not \(kind): records are values, copied in and out of the store"
        case .missingID(let type):
            return "@Record needs a stored property 'id' (the primary key: Int64, UInt64, String, UUID or another KeyComponent); '\(type)' has none"
        case .unsupportedType(let property, let type, let reason):
            return "@Record cannot store '\(property)' of type '\(type)': \(reason). Give it a Codable type "
                + "(integers, Bool, Double, Float, String, Date, UUID, Data, URL, optionals and arrays of these are stored directly; "
                + "other Codable types through Codable), or make it a computed or static property"
        case .implicitlyUnwrapped(let property, let type):
            return "@Record cannot store '\(property)' of type '\(type)': an implicitly unwrapped optional; declare it as an optional"
        case .letWithDefault(let property):
            return "'\(property)' is a 'let' with a default value, so a stored record could never set it on decoding; declare it 'var' (or remove the default)"
        case .missingTypeAnnotation(let property):
            return "@Record needs the type of '\(property)' written out, to choose how to store it"
        case .internedType(let property, let type):
            return "@Interned applies to String and [String] properties (and their optionals); '\(property)' is '\(type)'"
        case .indexesAndIndexed(let handles):
            return "'indexes' is declared here, so it must list the indexes @Indexed declares; add "
                + handles.map { "\($0).index" }.joined(separator: ", ")
        case .indexHandleTaken(let property, let handle):
            return "@Indexed on '\(property)' declares '\(handle)', which the struct declares already; rename that member, "
                + "or declare the index yourself and list it in 'indexes'"
        case .invalidCollectionName(let name):
            return "collection name \"\(name)\" must be non-empty and use only letters, digits, '_' and '-'"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAStruct: id = "notAStruct"
        case .missingID: id = "missingID"
        case .unsupportedType: id = "unsupportedType"
        case .implicitlyUnwrapped: id = "implicitlyUnwrapped"
        case .letWithDefault: id = "letWithDefault"
        case .missingTypeAnnotation: id = "missingTypeAnnotation"
        case .internedType: id = "internedType"
        case .indexesAndIndexed: id = "indexesAndIndexed"
        case .indexHandleTaken: id = "indexHandleTaken"
        case .invalidCollectionName: id = "invalidCollectionName"
        }
        return MessageID(domain: "TweetieDBMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

/// The text of a fix-it.
struct RecordFixIt: FixItMessage {
    let message: String

    var fixItID: MessageID { MessageID(domain: "TweetieDBMacros", id: message) }
}
