import Foundation
import Synchronization
import TweetieDB
import TweetieFuzzing

/// The monotonic time (ns) at which the current input started, 0 between inputs; read by the
/// watchdog thread.
private let inputStartedAt = Atomic<UInt64>(0)

/// One target's fuzzing loop: mutate a pooled input, run it through the oracle under a per-input
/// time bound, keep new rejection shapes in the pool, sample memory, record findings.
struct FuzzWorker {
    static let exitFindings: Int32 = 4
    static let exitHang: Int32 = 3

    struct Entry {
        var bytes: [UInt8]
        /// Derived only from seeds made in code (so it may go into the repository's corpus).
        var synthetic: Bool
    }

    let options: FuzzOptions
    let target: FuzzTarget

    init(options: FuzzOptions) {
        self.options = options
        target = options.targets.first ?? .statuses
    }

    static func currentInputPath(work: String, target: FuzzTarget) -> String {
        "\(work)/current-\(target.rawValue).\(target.fileExtension)"
    }

    func run() -> Int32 {
        let fileManager = FileManager.default
        try? fileManager.createDirectory(atPath: options.work + "/findings", withIntermediateDirectories: true)
        let currentPath = Self.currentInputPath(work: options.work, target: target)
        var importOracle: ImportFuzzOracle?
        let jsonOracle = target == .ndjson ? nil : JSONFuzzOracle(target: target)
        var pool: [Entry]
        do {
            if target == .ndjson {
                let oracle = try ImportFuzzOracle()
                importOracle = oracle
                pool = [Entry(bytes: oracle.baseline, synthetic: true),
                        Entry(bytes: Array(#"{"collections":[],"format":"tweetie-db-export","version":1}"#.utf8) + [0x0A], synthetic: true)]
            } else {
                pool = FuzzSeeds.twitterJSON(for: target).map { Entry(bytes: $0, synthetic: true) } + fixtureSeeds()
            }
        } catch {
            print("tweetie-fuzz: cannot set up target \(target.rawValue): \(error)")
            return 1
        }
        defer { importOracle?.close() }
        let seedCount = pool.count
        startWatchdog(currentPath: currentPath)

        var mutator = FuzzMutator(seed: options.seed)
        var shapes: [String: Entry] = [:]
        var accepted: [Entry] = []
        var executions = 0, acceptedCount = 0, rejectedCount = 0, findings = 0, slow = 0
        var slowest = 0.0
        let startRSS = Self.residentBytes()
        var peakRSS = startRSS
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(options.seconds * 1e9)

        while DispatchTime.now().uptimeNanoseconds < deadline {
            let base = pool[mutator.below(pool.count)], other = pool[mutator.below(pool.count)]
            let input = mutator.mutate(base.bytes, splice: other.bytes)
            let entry = Entry(bytes: input, synthetic: base.synthetic && other.synthetic)
            Self.write(input, to: currentPath)
            let began = DispatchTime.now().uptimeNanoseconds
            inputStartedAt.store(began, ordering: .sequentiallyConsistent)
            let verdict: FuzzVerdict?
            do {
                if let importOracle {
                    verdict = try importOracle.run(input, mode: ImportFuzzOracle.mode(for: input))
                } else {
                    verdict = try jsonOracle!.run(input)
                }
            } catch {
                verdict = nil
                findings += 1
                let name = "\(options.work)/findings/finding-\(target.rawValue)-\(Self.hash(input)).\(target.fileExtension)"
                _ = fileManager.createFile(atPath: name, contents: Data(input))
                print("FINDING target=\(target.rawValue) input=\(name): \(error)")
                if findings >= 20 { break }
            }
            inputStartedAt.store(0, ordering: .sequentiallyConsistent)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
            slowest = max(slowest, seconds)
            if seconds > 1 { slow += 1 }
            executions += 1
            switch verdict {
            case .accepted?:
                acceptedCount += 1
                if entry.synthetic, accepted.count < 3, !accepted.contains(where: { $0.bytes == input }), input.count <= 16_384 { accepted.append(entry) }
            case .rejected(let shape)?:
                rejectedCount += 1
                if let known = shapes[shape] {
                    if entry.synthetic && (!known.synthetic || input.count < known.bytes.count) { shapes[shape] = entry }
                } else {
                    shapes[shape] = entry
                    if input.count <= 65_536 {
                        if pool.count < 256 { pool.append(entry) } else { pool[seedCount + mutator.below(pool.count - seedCount)] = entry }
                    }
                }
            case nil:
                break
            }
            if executions % 200 == 0 { peakRSS = max(peakRSS, Self.residentBytes()) }
        }
        try? fileManager.removeItem(atPath: currentPath)
        let endRSS = Self.residentBytes()
        peakRSS = max(peakRSS, endRSS)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let written = writeCorpus(shapes: shapes, accepted: accepted)
        print(String(format: "SUMMARY target=%@ seed=%llu seconds=%.0f executions=%d (%.0f/s) accepted=%d rejected=%d rejection-shapes=%d findings=%d slowest-input=%.3fs inputs-over-1s=%d rss-start=%dMiB rss-peak=%dMiB rss-end=%dMiB corpus-written=%d",
                     target.rawValue, options.seed, elapsed, executions, Double(executions) / max(elapsed, 0.001), acceptedCount, rejectedCount,
                     shapes.count, findings, slowest, slow, startRSS >> 20, peakRSS >> 20, endRSS >> 20, written))
        return findings > 0 ? Self.exitFindings : 0
    }

    /// Captured fixtures as extra seeds: each file whole, plus one- and three-element slices.
    private func fixtureSeeds() -> [Entry] {
        guard let directory = options.fixtures else { return [] }
        let files: [String]
        switch target {
        case .statuses: files = ["lists", "statuses"].flatMap { sub in
            ((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/\(sub)")) ?? []).filter { $0.hasPrefix("statuses") || $0.hasPrefix("user_timeline") }.map { "\(directory)/\(sub)/\($0)" }
        }
        case .members, .users: files = ((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/lists")) ?? []).filter { $0.hasPrefix("members") }.map { "\(directory)/lists/\($0)" }
        case .ndjson: files = []
        }
        var seeds: [Entry] = []
        for file in files.sorted() {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: data) else { continue }
            let elements: [Any] = (object as? [Any]) ?? ((object as? [String: Any])?["users"] as? [Any]) ?? []
            for count in [1, 3] where elements.count >= count {
                let slice = Array(elements.prefix(count))
                let wrapped: Any = target == .members ? ["users": slice] : slice
                if let json = try? JSONSerialization.data(withJSONObject: wrapped) { seeds.append(Entry(bytes: Array(json), synthetic: false)) }
            }
            if target == .users {
                if let json = try? JSONSerialization.data(withJSONObject: elements) { seeds.append(Entry(bytes: Array(json), synthetic: false)) }
            } else {
                seeds.append(Entry(bytes: Array(data), synthetic: false))
            }
        }
        return seeds
    }

    /// Writes up to `corpusMax` small inputs derived only from seeds made in code: one per
    /// rejection shape (smallest first) and up to two accepted ones.
    private func writeCorpus(shapes: [String: Entry], accepted: [Entry]) -> Int {
        guard let out = options.corpusOut, options.corpusMax > 0 else { return 0 }
        let directory = "\(out)/\(target.rawValue)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let rejected = shapes.values.filter { $0.synthetic && $0.bytes.count <= 8_192 }.sorted { $0.bytes.count < $1.bytes.count }
        var chosen = Array(accepted.prefix(2)).map { ("accepted", $0.bytes) }
        chosen += rejected.prefix(max(0, options.corpusMax - chosen.count)).map { ("rejected", $0.bytes) }
        var written = 0
        for (label, bytes) in chosen {
            let mode = target == .ndjson ? "-\(ImportFuzzOracle.mode(for: bytes).rawValue)" : ""
            let path = "\(directory)/\(label)\(mode)-\(Self.hash(bytes)).\(target.fileExtension)"
            if !FileManager.default.fileExists(atPath: path), FileManager.default.createFile(atPath: path, contents: Data(bytes)) { written += 1 }
        }
        return written
    }

    /// Exits with ``exitHang`` when one input runs longer than the per-input bound, keeping it.
    private func startWatchdog(currentPath: String) {
        let limit = UInt64(options.timeout * 1e9)
        let work = options.work, target = target
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: 0.25)
                let started = inputStartedAt.load(ordering: .sequentiallyConsistent)
                if started != 0, DispatchTime.now().uptimeNanoseconds - started > limit {
                    let kept = "\(work)/findings/hang-\(target.rawValue)-\(started).\(target.fileExtension)"
                    try? FileManager.default.copyItem(atPath: currentPath, toPath: kept)
                    FileHandle.standardOutput.write(Data("HANG target=\(target.rawValue) an input ran longer than \(limit / 1_000_000_000) s; input=\(kept)\n".utf8))
                    exit(FuzzWorker.exitHang)
                }
            }
        }
        thread.start()
    }

    /// Writes `bytes` to `path` without syncing (the crash-capture copy of the current input).
    static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// FNV-1a, 64 bits, as 16 hex digits: stable names for corpus files.
    static func hash(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
