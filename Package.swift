// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TweetieDB",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "TweetieDB", targets: ["TweetieDB"]),
        .library(name: "TweetieSync", targets: ["TweetieSync"]),
        .executable(name: "tweetie-db", targets: ["tweetie-db"]),
        .executable(name: "tweetie-fuzz", targets: ["tweetie-fuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        // Commit-latency percentiles of `tweetie-db bench writes` (one file; it brings swift-numerics).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // `make docs`: the DocC archives of TweetieDB and TweetieSync (a command plugin; no target uses it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        .target(
            name: "TweetieDB",
            dependencies: ["CLMDB"]
        ),
        .target(
            name: "TweetieSync",
            dependencies: [
                "TweetieDB",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .executableTarget(
            name: "tweetie-db",
            dependencies: [
                "TweetieDB",
                "TweetieSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "tweetie-torture",
            dependencies: [
                "TweetieDB",
                "TweetieSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TweetieFuzzing",
            dependencies: ["TweetieDB", "TweetieSync"]
        ),
        .executableTarget(
            name: "tweetie-fuzz",
            dependencies: ["TweetieDB", "TweetieFuzzing"]
        ),
        .testTarget(name: "TweetieDBTests", dependencies: ["TweetieDB", "TweetieTestSupport"]),
        .testTarget(
            name: "TweetieCLITests",
            dependencies: ["TweetieSync", "tweetie-db", "TweetieTestSupport"]
        ),
        .testTarget(
            name: "TweetieTortureTests",
            dependencies: ["tweetie-torture", "tweetie-db", "TweetieTestSupport"]
        ),
        .testTarget(
            name: "TweetieSyncTests",
            dependencies: ["TweetieSync", "TweetieDB", "TweetieFuzzing", "TweetieTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        // What every test target shares: hang guards, the seeded generator, temporary directories,
        // the child-process runner, the unprivileged test user and small disks. A plain target
        // under Tests/ (not a product, never linked into a library): only test targets depend on it.
        .target(name: "TweetieTestSupport", path: "Tests/TweetieTestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
