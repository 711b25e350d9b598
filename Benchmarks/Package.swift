// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for TweetieDB, in their own package so that the root package's `make test` never
// builds them (and never resolves GRDB or package-benchmark).
//
//   swift package --allow-writing-to-package-directory benchmark   # package-benchmark suites
//   swift run -c release BenchCompare [--quick]                     # peer table → ../BENCHMARKS.md
let package = Package(
    name: "TweetieBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "TweetieDB", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // LMDB's C API for the raw-LMDB floor. The root package's `CLMDB` is not a product, so the
        // benchmarks carry their own module map under another module name.
        .systemLibrary(name: "CLMDBBench", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        .target(name: "RawLMDB", dependencies: ["CLMDBBench"]),
        .target(
            name: "BenchSupport",
            dependencies: [
                "RawLMDB",
                .product(name: "TweetieDB", package: "TweetieDB"),
                .product(name: "TweetieSync", package: "TweetieDB"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "TweetieBenchmarks",
            dependencies: [
                "BenchSupport",
                "RawLMDB",
                .product(name: "TweetieDB", package: "TweetieDB"),
                .product(name: "TweetieSync", package: "TweetieDB"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "TweetieBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Suite 2's small commits, or suite 4's writes (`--changes 100`), alone, to trace (strace, perf).
        .executableTarget(name: "CommitLoop", dependencies: ["BenchSupport", .product(name: "TweetieDB", package: "TweetieDB"), .product(name: "TweetieSync", package: "TweetieDB")]),
        // Suite 6's export and import alone, to profile.
        .executableTarget(name: "TransferLoop", dependencies: ["BenchSupport", .product(name: "TweetieDB", package: "TweetieDB")]),
        // Suite 8's observation starts alone, to profile.
        .executableTarget(name: "StartLoop", dependencies: ["BenchSupport", .product(name: "TweetieDB", package: "TweetieDB")]),
        .executableTarget(
            name: "BenchCompare",
            dependencies: [
                "BenchSupport",
                .product(name: "TweetieDB", package: "TweetieDB"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
