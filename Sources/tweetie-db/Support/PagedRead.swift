import Foundation
import TweetieSync

/// Reads the records of a listing page by page, each page in its own short read transaction, so
/// that neither the whole result nor a read transaction is held while the output is written.
///
/// Rules: `query(nil)` is the listing's first records; `query(last)` the records after `last`
/// in the listing's order (a bound on the sort key plus a start-after filter, through the public
/// `Query` API). Pages are `pageSize` records; a commit between two pages may add or remove
/// records, as it would between two runs, but no record is printed twice.
///
/// ```swift
/// let read = PagedRead(store: store) { (last: User?) in
///     last.map { Query<User>().filter(primaryKeyIn: ($0.id + 1)...Int64.max) } ?? Query<User>()
/// }
/// try read.forEachPage(limit: 50) { page in try printer.print(page) }
/// ```
struct PagedRead<R: Record> {
    let store: Store
    /// Records per read transaction.
    var pageSize = 1_000
    /// The query of the records after `last` (of every record when `last` is nil), in order.
    let query: (_ after: R?) -> Query<R>

    /// Calls `body` with each page in order, until `limit` records (all when nil) or the end;
    /// returns the last record read.
    @discardableResult
    func forEachPage(limit: Int?, _ body: ([R]) throws -> Void) throws -> R? {
        var last: R?
        var remaining = limit ?? Int.max
        while remaining > 0 {
            let size = min(pageSize, remaining)
            let page = try store.read { try $0.fetch(query(last).limit(size)) }
            if page.isEmpty { break }
            try body(page)
            remaining -= page.count
            last = page.last
            if page.count < size { break }
        }
        return last
    }

    /// How many records come after `last` (all, when nil), counted in one read transaction.
    ///
    /// ```swift
    /// let more = try read.count(after: lastPrinted)
    /// ```
    func count(after last: R?) throws -> Int {
        try store.read { try $0.fetchCount(query(last)) }
    }
}
