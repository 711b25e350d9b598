import Foundation

/// The LMDB layer's side of ``StoreError``: a status code of `lmdb.h` (or an `errno`) becomes a
/// ``StoreError/Code-swift.enum`` and a message in `lmdb.h`'s words.
extension StoreError {
    init(lmdbCode: Int32, operation: String, database: String? = nil, path: String? = nil) {
        let code = Code(lmdbCode: lmdbCode)
        var message = LMDB.message(for: lmdbCode)
        if case .system(let errno) = code {
            message = "\(String(cString: strerror(errno))) (errno \(errno))"
        }
        self.init(code, operation: operation, database: database, path: path, message: message)
    }
}

extension StoreError.Code {
    init(lmdbCode: Int32) {
        switch lmdbCode {
        case -30799: self = .keyExists
        case -30798: self = .notFound
        case -30797: self = .pageNotFound
        case -30796: self = .corrupted
        case -30795: self = .panic
        case -30794: self = .versionMismatch
        case -30793: self = .invalid
        case -30792: self = .mapFull
        case -30791: self = .databasesFull
        case -30790: self = .readersFull
        case -30789: self = .tlsFull
        case -30788: self = .transactionFull
        case -30787: self = .cursorFull
        case -30786: self = .pageFull
        case -30785: self = .mapResized
        case -30784: self = .incompatible
        case -30783: self = .badReaderSlot
        case -30782: self = .badTransaction
        case -30781: self = .badValueSize
        case -30780: self = .badDatabaseHandle
        case let code where code > 0: self = .system(code)
        default: self = .other(lmdbCode)
        }
    }
}
