extension LiveQueryCore {
    /// Reads the complete results, as two parallel arrays ascending by results key, hands them
    /// to `assemble` (which makes the observation's results of them) and returns what it made;
    /// sets the change-log position they correspond to and resets ``keys``.
    ///
    /// The read transaction walks the plan like a fetch but only copies: each record's bytes (into
    /// large chunks), its primary key and, when the walk is in the query's order
    /// (``ScanPlan/walkIsSorted``), the walked key, which is the record's sort key. Decoding,
    /// matching and keying happen after the transaction ended, on two threads for as many records
    /// as a fetch decodes on two (``FetchPipeline``): each thread claims a chunk, decodes its
    /// records into their places and frees it. The table of ``keys`` is built from copies of the
    /// keys made as they were, on the second thread, while `assemble` runs on this one.
    ///
    /// Inlinable, so that the observation's entry point (`Store.observe`, inlinable too) compiles
    /// this loop for the caller's record and key types. A generic class's methods otherwise run
    /// unspecialized: every key comparison, dictionary insert and record copy went through
    /// witness tables, and an observation's start cost five to seven times the fetch of the same
    /// records.
    @inlinable
    func initialRows<Results>(assemble: (inout [Key], inout [R]) throws -> Results) throws -> Results {
        let plan = self.plan, scan = self.scan, descriptor = self.descriptor, keyOf = self.keyOf
        let path = store.path
        let (position, copied) = try store.read { reader in
            (try reader.changeLogPosition(), try CopiedRecords.walk(scan, in: reader.transaction, descriptor: descriptor, path: path, limit: nil))
        }
        lastPosition = position
        let count = copied.count
        guard count > 0 else {
            self.keys = [:]
            var keys: [Key] = [], values: [R] = []
            return try assemble(&keys, &values)
        }
        let slotCount = copied.chunkCount
        var primaryKeys = copied.primaryKeys
        let predicates = plan.query.predicates
        let matched = UnsafeMutablePointer<Bool>.allocate(capacity: count)
        matched.initialize(repeating: false, count: count)
        defer { matched.deallocate() }
        // Each kept record's key again, for the table of keys (see below).
        let tableKeys = UnsafeMutablePointer<Key>.allocate(capacity: count)
        defer { tableKeys.deallocate() }
        var kept = 0
        // Per chunk: its first and last kept record, and whether its kept keys ascend (each chunk
        // checked by the thread that made its keys; only the chunks' seams are left to check).
        let seams = UnsafeMutablePointer<(first: Int, last: Int, ascending: Bool)>.allocate(capacity: slotCount)
        seams.initialize(repeating: (-1, -1, true), count: slotCount)
        defer { seams.deallocate() }
        var ascending = true
        var keys: [Key] = []
        var values = try [R](unsafeUninitializedCapacity: count) { valueBuffer, initializedValues in
            keys = try [Key](unsafeUninitializedCapacity: count) { keyBuffer, initializedKeys in
                let valuesOut = SendablePointer(valueBuffer.baseAddress!)
                let keysOut = SendablePointer(keyBuffer.baseAddress!)
                let matchedOut = SendablePointer(matched)
                let chunkSeams = SendablePointer(seams)
                let tableKeysOut = SendablePointer(tableKeys)
                let pipeline = FetchPipeline(rangeEnds: copied.chunkEnds)
                pipeline.start({ range, strings in
                    let chunk = copied.chunk(endingAt: range.upperBound)
                    defer { copied.free(chunk: chunk) }
                    var first = -1, last = -1, ascending = true
                    defer { chunkSeams.pointer[chunk] = (first, last, ascending) }
                    for index in range {
                        let value: R
                        do {
                            value = try R._decodeStored(copied.bytes(of: index, inChunk: chunk), sharing: strings)
                        } catch {
                            return FetchPipeline.Failure(index: index, error: descriptor.decodingFailed(
                                error, key: copied.primaryKeys[index].bytes, typeName: "\(R.self)", path: path))
                        }
                        guard predicates.allSatisfy({ $0(value) }) else { continue }
                        let sortKey = scan.walkIsSorted ? copied.walkedKeys[index] : plan.sortKey(of: value, primaryKey: copied.primaryKeys[index].bytes)
                        let key = keyOf(value, sortKey)
                        if last >= 0, ascending, !(keysOut.pointer[last] < key) { ascending = false }
                        (tableKeysOut.pointer + index).initialize(to: key)
                        (keysOut.pointer + index).initialize(to: key)
                        (valuesOut.pointer + index).initialize(to: value)
                        matchedOut.pointer[index] = true
                        if first < 0 { first = index }
                        last = index
                    }
                    return nil
                }, helped: FetchPipeline.isWorthwhile && count >= FetchPipeline.minimumCount)
                pipeline.finish(walked: count)
                if let failure = pipeline.failure {
                    for index in 0..<count where matched[index] {
                        (tableKeys + index).deinitialize(count: 1)
                        (keyBuffer.baseAddress! + index).deinitialize(count: 1)
                        (valueBuffer.baseAddress! + index).deinitialize(count: 1)
                    }
                    throw failure.error
                }
                var previousLast = -1
                for chunk in 0..<slotCount where seams[chunk].first >= 0 {
                    guard seams[chunk].ascending,
                          previousLast < 0 || keyBuffer[previousLast] < keyBuffer[seams[chunk].first] else {
                        ascending = false
                        break
                    }
                    previousLast = seams[chunk].last
                }
                // Close the gaps a filter left: move each kept row down to its place.
                for index in 0..<count where matched[index] {
                    if index != kept {
                        (tableKeys + kept).moveInitialize(from: tableKeys + index, count: 1)
                        (keyBuffer.baseAddress! + kept).moveInitialize(from: keyBuffer.baseAddress! + index, count: 1)
                        (valueBuffer.baseAddress! + kept).moveInitialize(from: valueBuffer.baseAddress! + index, count: 1)
                    }
                    kept += 1
                }
                initializedKeys = kept
                initializedValues = kept
            }
        }
        if !predicates.isEmpty {
            var place = 0
            for index in 0..<count where matched[index] {
                primaryKeys[place] = primaryKeys[index]
                place += 1
            }
            primaryKeys.removeLast(count - place)
        }
        // The table from primary key to results key, built from the copies (whose order does not
        // matter), on the second thread while this one sorts and assembles: inserting a million
        // keys, each retained where the other thread made it, was a fifth of a start.
        let tableOut = UnsafeMutablePointer<[PrimaryKeyBytes: Key]>.allocate(capacity: 1)
        tableOut.initialize(to: [:])
        defer { tableOut.deinitialize(count: 1); tableOut.deallocate() }
        let buildTable: @Sendable () -> Void = { [primaryKeys, kept, table = SendablePointer(tableOut), source = SendablePointer(tableKeys)] in
            var result = [PrimaryKeyBytes: Key](minimumCapacity: kept)
            for index in 0..<kept { result[primaryKeys[index]] = (source.pointer + index).move() }
            table.pointer.pointee = result
        }
        let helped = FetchPipeline.isWorthwhile && count >= FetchPipeline.minimumCount && HelperThread.fetchDecoder.tryStart(buildTable)
        func finishTable() {
            if helped { HelperThread.fetchDecoder.waitUntilIdle() } else { buildTable() }
            self.keys = tableOut.move()
            tableOut.initialize(to: [:])
        }
        let results: Results
        do {
            // The results key puts sections (for a sectioned observation) before the sort key, so
            // even a walk in the query's order may need a sort.
            if !ascending {
                var order = Array(keys.indices)
                order.sort { keys[$0] < keys[$1] }
                keys = order.map { keys[$0] }
                values = order.map { values[$0] }
            }
            results = try assemble(&keys, &values)
        } catch {
            finishTable()
            throw error
        }
        finishTable()
        return results
    }
}
