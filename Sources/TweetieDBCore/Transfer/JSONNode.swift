// JSONNode is the value tree of RecordJSONWriter; JSONObjectNode and JSONArrayNode are its two
// reference cases (containers stay writable after they are handed out, as Codable allows), too
// small to live apart from the enum that holds them.

/// One JSON value built by ``RecordJSONWriter``'s encoder before it is written out.
///
/// Numbers stay in their Swift type until written, strings stay `String`s: building the tree
/// copies nothing but references.
enum JSONNode {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    case object(JSONObjectNode)
    case array(JSONArrayNode)
}

/// A JSON object under construction: keys and values in the order they were encoded (sorted
/// when written; a key encoded twice keeps its last value, as `JSONEncoder` does).
final class JSONObjectNode {
    var keys: [String] = []
    var values: [JSONNode] = []

    init(capacity: Int = 0) {
        if capacity > 0 {
            keys.reserveCapacity(capacity)
            values.reserveCapacity(capacity)
        }
    }

    func set(_ value: JSONNode, for key: String) {
        keys.append(key)
        values.append(value)
    }

    /// The object stored under `key`, created (and stored) if the key has none; nil when the key
    /// holds another kind of value.
    func object(for key: String) -> JSONObjectNode? {
        if let index = keys.lastIndex(of: key) {
            if case .object(let node) = values[index] { return node }
            return nil
        }
        let node = JSONObjectNode()
        set(.object(node), for: key)
        return node
    }

    /// The array stored under `key`, created (and stored) if the key has none; nil when the key
    /// holds another kind of value.
    func array(for key: String) -> JSONArrayNode? {
        if let index = keys.lastIndex(of: key) {
            if case .array(let node) = values[index] { return node }
            return nil
        }
        let node = JSONArrayNode()
        set(.array(node), for: key)
        return node
    }
}

/// A JSON array under construction.
final class JSONArrayNode {
    var items: [JSONNode] = []
}
