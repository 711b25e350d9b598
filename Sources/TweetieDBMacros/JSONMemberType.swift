/// The property types whose JSON text `@Record`'s direct JSON members write and read themselves
/// (`JSONObjectWriter`, `JSONObjectReader`), recognized by how the type is spelled.
///
/// Why by spelling: a macro sees syntax, not types. A name it recognizes but the compiler
/// resolves to another type (a struct of the user's called `Date`) still compiles: the writer's
/// and reader's generic overloads take any `Codable` value and send the record through
/// `encode(to:)` / `init(from:)`, so such a record is only slower, never written differently.
/// Any other type (`UUID`, `URL`, `Data`, `Float`, nested `Codable` values) generates no direct
/// members at all, so its records take the `Codable` path without trying the direct one first.
///
/// ```swift
/// JSONMemberType(valueType: "[String]")   // .strings
/// JSONMemberType(valueType: "UUID")       // nil
/// ```
enum JSONMemberType: Equatable {
    case string, bool, double, date, integer, strings

    init?(valueType: String) {
        let name = valueType.filter { !$0.isWhitespace }
        switch name {
        case "String", "Swift.String": self = .string
        case "Bool", "Swift.Bool": self = .bool
        case "Double", "Swift.Double": self = .double
        case "Date", "Foundation.Date": self = .date
        case "[String]", "[Swift.String]", "Array<String>", "Swift.Array<Swift.String>", "Array<Swift.String>": self = .strings
        default:
            let integers = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
            let bare = name.hasPrefix("Swift.") ? String(name.dropFirst(6)) : name
            guard integers.contains(bare) else { return nil }
            self = .integer
        }
    }
}
