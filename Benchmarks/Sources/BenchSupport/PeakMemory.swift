import Foundation

/// The peak anonymous memory of a stretch of this process's work: how far its heap (and other
/// private memory) rose at most above where it stood when the work began.
///
/// Anonymous memory (`RssAnon` in `/proc/self/status`) is what the work allocated; it leaves out
/// the database file's pages that LMDB maps, which the kernel counts in RSS when a scan touches
/// them and drops when memory is short. The kernel keeps no peak of it, so a thread reads it every
/// 5 ms while the work runs: a rise shorter than that can be missed, a sustained one cannot. Where `/proc` is not available the figure is `nil`, never a guess.
///
/// ```swift
/// let (count, growth) = try PeakMemory.growth { try store.exportNDJSON { _ in } }
/// ```
public enum PeakMemory {
    /// `RssAnon` in bytes, read with one `read(2)` into a stack buffer: the sampler calls this
    /// every few milliseconds and must not itself cost the work measurable CPU time.
    static func anonymous() -> Int? {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer -> Int? in
            let count = read(fd, buffer.baseAddress!, buffer.count)
            guard count > 0 else { return nil }
            let text = UnsafeBufferPointer(rebasing: buffer[..<count])
            let field = Array("RssAnon:".utf8)
            var index = 0
            while index + field.count <= text.count {
                if text[index] == field[0], text[index..<(index + field.count)].elementsEqual(field) {
                    var position = index + field.count, kilobytes = 0, digits = 0
                    while position < text.count, text[position] == 0x20 || text[position] == 0x09 { position += 1 }
                    while position < text.count, text[position] >= 0x30, text[position] <= 0x39 {
                        kilobytes = kilobytes * 10 + Int(text[position] - 0x30)
                        position += 1
                        digits += 1
                    }
                    return digits > 0 ? kilobytes * 1024 : nil
                }
                index += 1
            }
            return nil
        }
    }

    /// The sampler's shared state.
    private final class Sampler: @unchecked Sendable {
        let lock = NSLock()
        var peak = 0
        var running = true
    }

    /// Runs `body`; returns its result and how far above its starting value the process's
    /// anonymous memory rose while it ran (bytes), or nil when that cannot be measured here.
    public static func growth<T>(_ body: () throws -> T) rethrows -> (T, Int?) {
        guard let before = anonymous() else { return (try body(), nil) }
        let sampler = Sampler()
        sampler.peak = before
        let thread = Thread {
            while true {
                let value = anonymous() ?? 0
                sampler.lock.lock()
                sampler.peak = max(sampler.peak, value)
                let running = sampler.running
                sampler.lock.unlock()
                if !running { return }
                usleep(5_000)
            }
        }
        thread.start()
        let result = try body()
        let after = anonymous() ?? 0
        sampler.lock.lock()
        sampler.running = false
        let peak = max(sampler.peak, after)
        sampler.lock.unlock()
        return (result, peak - before)
    }
}
