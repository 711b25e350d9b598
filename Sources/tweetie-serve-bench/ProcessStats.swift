import Foundation

/// A process's resident memory (now and at its peak) and CPU time, from /proc.
struct ProcessStats {
    var rssKiB = 0
    var peakRSSKiB = 0
    var cpuSeconds = 0.0

    /// The figures of process `pid` ("self" for this one).
    init(pid: String) {
        if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) {
            func kiB(_ key: String) -> Int {
                let line = status.split(separator: "\n").first { $0.hasPrefix(key) }
                return Int(line?.split(separator: " ").dropFirst().first ?? "") ?? 0
            }
            rssKiB = kiB("VmRSS:")
            peakRSSKiB = kiB("VmHWM:")
        }
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // Fields 14 and 15 (utime, stime) are at 11 and 12 after the command name.
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            cpuSeconds = ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
        }
    }

    /// The 1-, 5- and 15-minute load averages, as /proc/loadavg shows them.
    static var loadAverage: String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
