import Foundation
import Synchronization
import TweetieDB
#if canImport(Glibc)
import Glibc
#endif

/// Samples a stress run's database from the harness process: every ``pollInterval`` the reader
/// table (which snapshot each reader holds, and for how long), every second data.mdb's size,
/// LMDB's page counts, its free list and the oldest reader's lag. Runs on its own thread, so a
/// busy harness loop does not thin out the polls.
final class GrowthSampler: @unchecked Sendable {
    static let pollInterval: useconds_t = 10_000
    static let sampleInterval = 1.0

    private let store: Store
    private let dataPath: String
    private let started: Date
    private let runSeconds: Double
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    private struct State {
        var stop = false
        var running = false
        var samples: [GrowthSample] = []
        var polls = 0
        var maxLagSinceSample = 0
        var maxLag = 0
        var maxLagHolder: String?
        var longestRead = 0.0
        var longestReadHolder: String?
        /// Per slot (pid, thread): the snapshot it held at the last poll and when it was first seen holding it.
        var holding: [SlotKey: (transactionID: Int, since: Date)] = [:]
        var error: String?
        /// Process ids and the names printed in the summary.
        var names: [Int32: String] = [:]
    }

    private struct SlotKey: Hashable {
        var pid: Int32
        var thread: UInt64
    }

    init(store: Store, dataPath: String, runSeconds: Double) {
        self.store = store
        self.dataPath = dataPath
        self.runSeconds = runSeconds
        started = Date()
    }

    /// Names process `pid` in the summary ("observer 0", "writer 1", …).
    func name(_ pid: Int32, as name: String) {
        state.withLock { $0.names[pid] = name }
    }

    func start() {
        state.withLock { $0.running = true }
        let thread = Thread { [self] in
            var nextSample = Date()
            while !state.withLock({ $0.stop }) {
                let now = Date()
                poll(now)
                if now >= nextSample {
                    sample(now)
                    nextSample = now.addingTimeInterval(Self.sampleInterval)
                }
                usleep(Self.pollInterval)
            }
            done.signal()
        }
        thread.name = "stress growth sampler"
        thread.start()
    }

    /// Stops the thread without a last sample; does nothing when it is not running (so a `defer`
    /// can call it on every path, before the store is closed).
    func cancel() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.stop = true; state.running = false }
            return state.running
        }
        if wasRunning { done.wait() }
    }

    /// Stops the thread, takes a last sample and returns the summary.
    func stop() -> GrowthSummary {
        cancel()
        let now = Date()
        poll(now)
        sample(now)
        return state.withLock { state in
            let samples = state.samples
            let milestones: [GrowthMilestone] = samples.isEmpty ? [] : [10, 25, 50, 75, 100].map { percent in
                let target = runSeconds * Double(percent) / 100
                let nearest = percent == 100 ? samples.last! : samples.min { abs($0.seconds - target) < abs($1.seconds - target) }!
                return GrowthMilestone(percent: percent, sample: nearest)
            }
            return GrowthSummary(pageSize: store.info().pageSize, samples: samples, milestones: milestones, polls: state.polls,
                                 maxReaderLag: state.maxLag, maxReaderLagHolder: state.maxLagHolder,
                                 longestReadMilliseconds: (state.longestRead * 1000).rounded(), longestReadHolder: state.longestReadHolder,
                                 maxPinnedPages: samples.map(\.pinnedPages).max() ?? 0)
        }
    }

    private static func name(of pid: Int32, in names: [Int32: String]) -> String {
        if pid == getpid() { return "harness" }
        return names[pid] ?? "process \(pid)"
    }

    /// The oldest held snapshot and its holder.
    private func oldestReader(_ slots: [Store.ReaderSlot]) -> (transactionID: Int, pid: Int32)? {
        slots.compactMap { slot in slot.transactionID.map { ($0, slot.processID) } }.min { $0.0 < $1.0 }
    }

    private func poll(_ now: Date) {
        let slots = store.readerSlots()
        let last = store.lastTransactionID
        state.withLock { state in
            state.polls += 1
            if let (oldest, pid) = oldestReader(slots) {
                let lag = max(0, last - oldest)
                state.maxLagSinceSample = max(state.maxLagSinceSample, lag)
                if lag > state.maxLag {
                    state.maxLag = lag
                    state.maxLagHolder = Self.name(of: pid, in: state.names)
                }
            }
            var holding: [SlotKey: (transactionID: Int, since: Date)] = [:]
            for slot in slots {
                guard let transactionID = slot.transactionID else { continue }
                let key = SlotKey(pid: slot.processID, thread: slot.thread)
                if let previous = state.holding[key], previous.transactionID == transactionID {
                    holding[key] = previous
                    let held = now.timeIntervalSince(previous.since)
                    if held > state.longestRead {
                        state.longestRead = held
                        state.longestReadHolder = Self.name(of: slot.processID, in: state.names)
                    }
                } else {
                    holding[key] = (transactionID, now)
                }
            }
            state.holding = holding
        }
    }

    private func sample(_ now: Date) {
        // The reader table first: the free list's own read transaction must not count as a reader.
        let slots = store.readerSlots()
        let info = store.info()
        let fileSize = ((try? FileManager.default.attributesOfItem(atPath: dataPath))?[.size] as? NSNumber)?.intValue ?? 0
        let freeList: Store.FreeList
        do {
            freeList = try store.freeList()
        } catch {
            state.withLock { $0.error = "\(error)" }
            return
        }
        let oldest = oldestReader(slots)
        let sample = GrowthSample(
            seconds: (now.timeIntervalSince(started) * 10).rounded() / 10, fileSize: fileSize, usedPages: info.lastPageNumber + 1,
            freePages: freeList.pageCount, pinnedPages: oldest.map { freeList.pageCount(freedAtOrAfter: $0.transactionID) } ?? 0,
            lastTransaction: info.lastTransactionID, readerLag: oldest.map { max(0, info.lastTransactionID - $0.transactionID) } ?? 0,
            maxReaderLag: 0)
        state.withLock { state in
            var sample = sample
            sample.maxReaderLag = max(state.maxLagSinceSample, sample.readerLag)
            state.maxLagSinceSample = 0
            state.samples.append(sample)
        }
    }

    /// The error of the last failed free-list read, if any.
    var error: String? { state.withLock { $0.error } }
}
