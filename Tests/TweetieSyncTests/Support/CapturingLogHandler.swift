import Foundation
import Logging

/// A LogHandler that records every message, for asserting that something was logged.
struct CapturingLogHandler: LogHandler {
    final class Storage: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] = []

        func append(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) {
            lock.withLock { entries.append((level, message, metadata)) }
        }

        var messages: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] {
            lock.withLock { entries }
        }
    }

    let storage: Storage
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        storage.append(event.level, event.message.description, metadata.merging(event.metadata ?? [:]) { $1 })
    }

    /// A logger writing into a fresh storage.
    static func make() -> (Logger, Storage) {
        let storage = Storage()
        return (Logger(label: "test") { _ in CapturingLogHandler(storage: storage) }, storage)
    }
}
