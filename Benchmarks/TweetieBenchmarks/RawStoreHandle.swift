import BenchSupport
import Foundation
import RawLMDB

/// A raw LMDB environment in a fresh directory, removed on close.
final class RawStoreHandle {
    let store: RawLMDBStore
    let path: String
    init(path: String) throws {
        self.path = path
        store = try RawLMDBStore(path: path, mapSize: 16 << 30)
    }
    func close() {
        store.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}
