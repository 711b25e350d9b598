// swift-tools-version: 6.1
import CompilerPluginSupport
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
        // `@Record` (a macro: SwiftSyntax, SwiftSyntaxMacros, SwiftCompilerPlugin and what they need).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        .target(
            name: "TweetieDB",
            dependencies: ["CLMDB", "TweetieDBMacros"]
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
        .testTarget(name: "TweetieDBTests", dependencies: ["TweetieDB"]),
        .testTarget(
            name: "TweetieCLITests",
            dependencies: ["TweetieSync", "tweetie-db"]
        ),
        .testTarget(
            name: "TweetieTortureTests",
            dependencies: ["tweetie-torture", "tweetie-db"]
        ),
        .testTarget(
            name: "TweetieSyncTests",
            dependencies: ["TweetieSync", "TweetieDB", "TweetieFuzzing", .product(name: "Logging", package: "swift-log")]
        ),
        .macro(
            name: "TweetieDBMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "TweetieDBMacrosTests",
            dependencies: [
                "TweetieDBMacros",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
