import Foundation

/// The machine and toolchain lines of the report.
enum Machine {
    /// The 1-minute load average, from /proc/loadavg.
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return text.split(separator: " ").first.map(String.init) ?? "?"
    }

    /// `N cores (model), M GiB, OS; load average at start / end`.
    static func describe(loadAtStart: String) -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        var model = ""
        if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return "\(cores) cores\(model.isEmpty ? "" : " (\(model))"), \(Int(memory.rounded())) GiB RAM, \(ProcessInfo.processInfo.operatingSystemVersionString); 1-min load average \(loadAtStart) at start, \(loadAverage()) at end (the machine is shared: a load above the core count means other work competed for the CPU and inflated the times)"
    }

    /// The first line of `swift --version`.
    static func toolchain() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        do {
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            return text.split(separator: "\n").first.map(String.init) ?? "unknown"
        } catch {
            return "unknown (swift --version failed: \(error))"
        }
    }
}

/// Prints a line unbuffered (progress stays visible when the output is piped to a file).
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
