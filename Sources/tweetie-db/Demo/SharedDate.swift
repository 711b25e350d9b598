import Foundation
import Synchronization

/// A date shared between the demo's ticking task and the view model's `now` closure.
final class SharedDate: Sendable {
    private let storage: Mutex<Date>
    init(_ date: Date) { storage = Mutex(date) }
    var value: Date {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
