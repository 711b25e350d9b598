/// An LMDB call of ``RawLMDBStore`` failed.
///
/// ```swift
/// catch let error as RawLMDBError { print(error.operation, error.message) }
/// ```
public struct RawLMDBError: Error, CustomStringConvertible {
    /// The LMDB return code.
    ///
    /// ```swift
    /// print(error.code)
    /// ```
    public let code: Int32
    /// The LMDB function that failed.
    ///
    /// ```swift
    /// print(error.operation) // "mdb_put"
    /// ```
    public let operation: String
    /// The environment's directory.
    ///
    /// ```swift
    /// print(error.path)
    /// ```
    public let path: String
    /// LMDB's description of the code.
    ///
    /// ```swift
    /// print(error.message)
    /// ```
    public let message: String

    /// One line: what failed, where and why.
    ///
    /// ```swift
    /// print(error.description)
    /// ```
    public var description: String { "raw LMDB: \(operation) failed in \(path): \(message) (code \(code))" }
}
