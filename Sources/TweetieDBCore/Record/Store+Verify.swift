/// The result of ``Store/verify(progress:)``: what was checked and every inconsistency found.
///
/// ```swift
/// let report = try store.verify()
/// if !report.problems.isEmpty { report.problems.forEach { print($0) } }
/// ```
public struct VerificationReport: Sendable, Hashable, Codable {
    /// Records per collection.
    ///
    /// ```swift
    /// print(report.records["tweets"] ?? 0)
    /// ```
    public var records: [String: Int] = [:]
    /// Index entries checked, over all indexes.
    ///
    /// ```swift
    /// print(report.indexEntries)
    /// ```
    public var indexEntries = 0
    /// Change-log entries checked.
    ///
    /// ```swift
    /// print(report.changeLogEntries)
    /// ```
    public var changeLogEntries = 0
    /// The B-tree pages whose structure was checked before any record was read (branch, leaf and
    /// overflow pages of every database; see ``Store/checkPageStructure()``).
    ///
    /// ```swift
    /// print(report.pagesChecked)
    /// ```
    public var pagesChecked = 0
    /// One sentence per inconsistency; empty when the database is consistent.
    ///
    /// ```swift
    /// print(report.problems.isEmpty ? "ok" : "corrupt")
    /// ```
    public var problems: [String] = []
}

extension Store {
    /// Checks, in one snapshot, the structure of every page of `data.mdb`, then every index
    /// against its records (each record has exactly its entries, and no entry is stale) and the
    /// change log's sanity (consecutive sequence numbers ending at the recorded last one, every
    /// entry decodable).
    ///
    /// It is safe on a damaged file. LMDB trusts its page layout, and random bytes over a B-tree page
    /// would crash a process that reads it through LMDB (SIGSEGV, or an assertion abort in `mdb.c`).
    /// So verify first reads the snapshot's pages with `pread` and validates everything LMDB would
    /// dereference (``Store/checkPageStructure()``); a damaged page becomes a problem such as
    /// "page 123 (tweets#created, leaf): node 4 offset 9000 lies outside the page" in
    /// ``VerificationReport/problems`` (not a thrown error), and the records are then not read
    /// (``VerificationReport/records`` stays empty). Only when the structure is sound are the
    /// records walked through LMDB, and a damaged record is reported as a problem too. A file
    /// damaged where opening reads it is already refused by ``open(at:configuration:collections:migrations:)``.
    ///
    /// ```swift
    /// let report = try store.verify()
    /// print(report.problems.isEmpty ? "consistent" : report.problems.joined(separator: "\n"))
    /// ```
    ///
    /// `progress`, when given, is called now and then while the records and index entries are
    /// walked, with how many were checked and how many there are (the page check comes first).
    public func verify(progress: ((_ checked: Int, _ total: Int) -> Void)? = nil) throws -> VerificationReport {
        for _ in 0..<Environment.pageCheckAttempts {
            let report = try read { reader -> VerificationReport? in
                guard let pages = try environment.checkPageStructure(in: reader.transaction, scope: .everything) else { return nil }
                var report = VerificationReport()
                report.pagesChecked = pages.pagesChecked
                guard pages.isSound else {
                    report.problems = pages.problems
                    return report
                }
                try verifyRecords(reader, into: &report, progress: progress)
                return report
            }
            if let report { return report }
        }
        throw environment.snapshotOverwrittenError(operation: "verify")
    }

    /// The record-level part of ``verify(progress:)``, through LMDB, on a snapshot whose pages are sound.
    private func verifyRecords(_ reader: StoreReader, into report: inout VerificationReport,
                               progress: ((_ checked: Int, _ total: Int) -> Void)?) throws {
        let tx = reader.transaction
        var total = 0, checked = 0
        if progress != nil {
            for descriptor in collectionsByName.values {
                total += try tx.stats(of: descriptor.records).entries
                for database in descriptor.indexDatabases { total += try tx.stats(of: database).entries }
            }
        }
        func step() {
            checked += 1
            if checked % 4096 == 0 || checked == total { progress?(checked, total) }
        }
        for name in collectionNames {
            let descriptor = collectionsByName[name]!
            var expected: [[[UInt8]: [UInt8]]] = Array(repeating: [:], count: descriptor.indexes.count)
            var count = 0
            try tx.forEach(in: descriptor.records) { key, value in
                count += 1
                step()
                do {
                    for (position, entryKey, entryValue) in try descriptor.indexEntries(value, Array(key)) {
                        if let other = expected[position][entryKey], descriptor.indexes[position].isUnique {
                            report.problems.append("\(name): records \(descriptor.describeKey(other)) and \(descriptor.describeKey(entryValue)) share the value \(descriptor.describeIndexValue(position, entryKey)) of unique index '\(descriptor.indexes[position].name)'")
                        }
                        expected[position][entryKey] = entryValue
                    }
                } catch {
                    report.problems.append("\(name): record \(descriptor.describeKey(Array(key))) cannot be decoded: \(error)")
                }
                return true
            }
            report.records[name] = count
            for (position, index) in descriptor.indexes.enumerated() {
                var remaining = expected[position]
                try tx.forEach(in: descriptor.indexDatabases[position]) { key, value in
                    report.indexEntries += 1
                    step()
                    let k = Array(key)
                    if let want = remaining.removeValue(forKey: k) {
                        if want != Array(value) {
                            report.problems.append("\(name)#\(index.name): an entry points to \(descriptor.describeKey(Array(value))) instead of \(descriptor.describeKey(want))")
                        }
                    } else {
                        report.problems.append("\(name)#\(index.name): a stale entry points to \(descriptor.describeKey(Array(value))), which does not have this value")
                    }
                    return true
                }
                for (_, owner) in remaining {
                    report.problems.append("\(name)#\(index.name): the entry of record \(descriptor.describeKey(owner)) is missing")
                }
            }
        }
        let last = try reader.lastChangeSequence()
        var previous: UInt64?
        try tx.forEach(in: log) { key, value in
            let sequence = ChangeLog.sequence(from: key)
            report.changeLogEntries += 1
            if let previous, sequence != previous + 1 {
                report.problems.append("change log: sequence \(sequence) follows \(previous); entries are missing")
            }
            previous = sequence
            do { _ = try ChangeLog.decode(value, sequence: sequence) } catch { report.problems.append("\(error)") }
            return true
        }
        if let previous, previous != last {
            report.problems.append("change log: the last entry is \(previous) but the recorded last sequence is \(last)")
        } else if previous == nil, last > 0, report.changeLogEntries == 0 {
            report.problems.append("change log: the recorded last sequence is \(last) but the log is empty")
        }
    }
}
