import Foundation

/// A JSON value read strictly: `true` is a boolean, `1` an integer, `1.5` a number.
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}

/// Checks JSON values against a JSON Schema (draft 2020-12), implementing only the keywords
/// `schemas/tweetie-feed.schema.json` uses; any other keyword is reported, never ignored.
///
/// Written from the JSON Schema specification alone, so a test can hold the feed to its published
/// schema rather than to the encoder that wrote it.
struct JSONSchemaChecker {
    let root: JSONValue

    static let annotations: Set<String> = ["$schema", "$id", "$comment", "title", "description"]

    init(schema: Data) throws { root = try JSONValue.parse(schema) }

    /// Every violation, each as `path: what`; empty when `value` is valid.
    func violations(of value: JSONValue) -> [String] {
        var found: [String] = []
        check(value, root, "$", &found)
        return found
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: JSONValue? = root
        for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, _ path: String, _ found: inout [String]) {
        guard case .object(let keywords) = schema else {
            if schema != .bool(true) { found.append("\(path): the schema is not an object") }
            return
        }
        for (keyword, argument) in keywords.sorted(by: { $0.key < $1.key }) {
            switch keyword {
            case "$ref":
                guard case .string(let reference) = argument, let target = resolve(reference) else {
                    found.append("\(path): unresolvable $ref \(argument)"); continue
                }
                check(value, target, path, &found)
            case "type":
                let names: [String]
                switch argument {
                case .string(let name): names = [name]
                case .array(let list): names = list.compactMap { if case .string(let s) = $0 { s } else { nil } }
                default: names = []
                }
                if !names.contains(where: { Self.has(value, type: $0) }) { found.append("\(path): not of type \(names)") }
            case "enum":
                if case .array(let allowed) = argument, !allowed.contains(value) { found.append("\(path): \(value) not in \(allowed)") }
            case "const":
                if value != argument { found.append("\(path): \(value) is not \(argument)") }
            case "required":
                guard case .object(let object) = value, case .array(let names) = argument else { continue }
                for case .string(let name) in names where object[name] == nil { found.append("\(path): missing \"\(name)\"") }
            case "properties":
                guard case .object(let object) = value, case .object(let properties) = argument else { continue }
                for (name, subschema) in properties { if let member = object[name] { check(member, subschema, "\(path).\(name)", &found) } }
            case "additionalProperties":
                guard case .object(let object) = value else { continue }
                var declared: Set<String> = []
                if case .object(let properties)? = keywords["properties"] { declared = Set(properties.keys) }
                for (name, member) in object where !declared.contains(name) {
                    if argument == .bool(false) { found.append("\(path): unexpected \"\(name)\"") }
                    else { check(member, argument, "\(path).\(name)", &found) }
                }
            case "items":
                guard case .array(let elements) = value else { continue }
                for (index, element) in elements.enumerated() { check(element, argument, "\(path)[\(index)]", &found) }
            case "minItems", "maxItems":
                guard case .array(let elements) = value, case .integer(let bound) = argument else { continue }
                if keyword == "minItems" ? elements.count < bound : elements.count > bound {
                    found.append("\(path): \(elements.count) items, \(keyword) \(bound)")
                }
            case "minimum":
                guard let number = Self.number(value), let bound = Self.number(argument) else { continue }
                if number < bound { found.append("\(path): \(number) < minimum \(bound)") }
            case "pattern":
                guard case .string(let text) = value, case .string(let pattern) = argument else { continue }
                if text.range(of: pattern, options: .regularExpression) == nil { found.append("\(path): \"\(text)\" does not match \(pattern)") }
            case "format":
                // date-time: RFC 3339 (ISO 8601 with a time zone), with or without fractional seconds.
                guard case .string(let text) = value, argument == .string("date-time") else { continue }
                let fractional = ISO8601DateFormatter()
                fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                if fractional.date(from: text) == nil && ISO8601DateFormatter().date(from: text) == nil {
                    found.append("\(path): \"\(text)\" is not a date-time")
                }
            case "oneOf":
                guard case .array(let alternatives) = argument else { continue }
                let passing = alternatives.filter { alternative in
                    var errors: [String] = []
                    check(value, alternative, path, &errors)
                    return errors.isEmpty
                }
                if passing.count != 1 { found.append("\(path): matches \(passing.count) of the oneOf alternatives, not exactly one") }
            case "allOf":
                guard case .array(let parts) = argument else { continue }
                for part in parts { check(value, part, path, &found) }
            case "if":
                var errors: [String] = []
                check(value, argument, path, &errors)
                if errors.isEmpty, let then = keywords["then"] { check(value, then, path, &found) }
                else if !errors.isEmpty, let otherwise = keywords["else"] { check(value, otherwise, path, &found) }
            case "then", "else", "$defs":
                continue
            default:
                if !Self.annotations.contains(keyword) { found.append("\(path): the checker does not implement \"\(keyword)\"") }
            }
        }
    }

    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("string", .string), ("array", .array), ("object", .object): true
        case ("number", .integer), ("number", .number): true
        default: false
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let n): Double(n)
        case .number(let n): n
        default: nil
        }
    }
}
