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
        // The HTTP server: its own product, so that tweetie-db and `make demo` never build the HTTP stack.
        .executable(name: "tweetie-serve", targets: ["tweetie-serve"]),
        // Replication through PostgreSQL: a library and its command, behind the Replicate trait.
        .library(name: "TweetieReplication", targets: ["TweetieReplication"]),
        .executable(name: "tweetie-replicate", targets: ["tweetie-replicate"]),
    ],
    // A package that depends on this one resolves only what its products need. SwiftPM prunes a
    // dependency whose every use is conditioned on a trait that is off, so what only the executables
    // use sits behind a trait, and no trait is on by default: a package that depends on this one and
    // asks for nothing resolves swift-syntax (for `@Record`) and swift-log (TweetieSync's logging)
    // and nothing else.
    // - `Tools`: the command-line tools' packages, swift-argument-parser and hdrhistogram-swift (with
    //   swift-numerics). Every executable target needs it.
    // - `Serve` (it turns `Tools` on): tweetie-serve's HTTP stack, Hummingbird, SwiftNIO,
    //   swift-prometheus and what they need, about twenty packages.
    // - `Replicate`: replication through PostgreSQL, the TweetieReplication library and
    //   tweetie-replicate (postgres-nio, which brings SwiftNIO, swift-nio-ssl and swift-crypto).
    // The Makefile's targets ask for what they run (`make test`: both; `make demo` on a fresh clone:
    // `Tools` only, so that it never fetches the HTTP stack). By hand: `swift build --traits Tools,Serve`.
    traits: [
        .trait(name: "Tools", description: "The command-line tools tweetie-db, tweetie-torture and tweetie-serve (swift-argument-parser, hdrhistogram-swift)."),
        .trait(name: "Serve", description: "The tweetie-serve HTTP server and its benchmark (Hummingbird, SwiftNIO, swift-prometheus).", enabledTraits: ["Tools"]),
        .trait(name: "Replicate", description: "Replication through PostgreSQL: the TweetieReplication library and tweetie-replicate (postgres-nio)."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        // Commit-latency percentiles of `tweetie-db bench writes` (one file; it brings swift-numerics).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // tweetie-serve (the Serve trait): HTTP/SSE (without hummingbird's swift-configuration trait) and
        // /metrics in Prometheus text.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // TweetieReplication (the Replicate trait): the PostgreSQL client, and swift-nio-ssl for TLS URLs.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        // `make docs`: the DocC archives of TweetieDB and TweetieSync (a command plugin; no target uses it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `@Record` (a macro: SwiftSyntax, SwiftSyntaxMacros, SwiftCompilerPlugin and what they need).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // The store, without the macros: it depends on nothing that needs swift-syntax, so it
        // compiles while swift-syntax and the macro plugin do (a fresh `make demo` waited for them).
        .target(
            name: "TweetieDBCore",
            dependencies: ["CLMDB"]
        ),
        // What users import: the `@Record` macros, and TweetieDBCore re-exported.
        .target(
            name: "TweetieDB",
            dependencies: ["TweetieDBCore", "TweetieDBMacros"]
        ),
        .target(
            name: "TweetieSync",
            dependencies: [
                "TweetieDB",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "tweetie-db",
            dependencies: [
                "TweetieDB",
                "TweetieSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift", condition: .when(traits: ["Tools"])),
            ],
            // `feed --schema`: the published schema, embedded (a link to schemas/tweetie-feed.schema.json).
            resources: [.embedInCode("Resources/tweetie-feed.schema.json")]
        ),
        .executableTarget(
            name: "tweetie-torture",
            dependencies: [
                "TweetieDB",
                "TweetieSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
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
        .testTarget(name: "TweetieDBTests", dependencies: ["TweetieDB", "TweetieDBCore", "TweetieTestSupport"]),
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
        .target(
            name: "TweetieServe",
            dependencies: [
                "TweetieDB",
                "TweetieSync",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Serve"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Serve"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Serve"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Serve"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Serve"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Serve"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Serve"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [
                .embedInCode("Page/index.html"),
                .embedInCode("Page/app.css"),
                .embedInCode("Page/app.js"),
                .embedInCode("Page/favicon.svg"),
            ]
        ),
        .executableTarget(
            name: "tweetie-serve",
            dependencies: ["TweetieServe", .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"]))]
        ),
        .executableTarget(
            name: "tweetie-serve-bench",
            dependencies: [
                "TweetieDB",
                "TweetieServe",
                "TweetieSync",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Serve"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "Histogram", package: "hdrhistogram-swift", condition: .when(traits: ["Tools"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Serve"])),
            ]
        ),
        .testTarget(
            name: "TweetieServeTests",
            dependencies: ["TweetieServe", "TweetieSync", "TweetieDB", "tweetie-serve", "tweetie-db", "TweetieTestSupport"]
        ),
        .target(
            name: "TweetieReplication",
            dependencies: [
                "TweetieDB",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Replicate"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Replicate"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The published PostgreSQL schema, embedded (a link to schemas/postgres/001-replication.sql).
            resources: [.embedInCode("Resources/replication-v1.sql")]
        ),
        .executableTarget(
            name: "tweetie-replicate",
            dependencies: [
                "TweetieReplication",
                "TweetieSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The replication benchmark (BENCHMARKS.md): not a product, built by `make bench-replication`.
        .executableTarget(
            name: "tweetie-replicate-bench",
            dependencies: [
                "TweetieReplication",
                "TweetieSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TweetieReplicationTests",
            dependencies: ["TweetieReplication", "TweetieSync", "TweetieDB", "tweetie-replicate", "tweetie-db", "TweetieTestSupport"]
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
