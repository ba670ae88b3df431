// swift-tools-version: 6.1
//
// Benchmarks for Dynamics, in their own package so that library users never resolve the harness.
// Run from the repository root with `make bench`, or here with
//   swift package --allow-writing-to-package-directory benchmark
import PackageDescription

let package = Package(
    name: "DynamicsBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "StreamTriad", path: "Sources/StreamTriad"),
        .target(name: "TriadSupport", dependencies: ["StreamTriad"], path: "Sources/TriadSupport"),
        .executableTarget(
            name: "Integration",
            dependencies: [
                .product(name: "Dynamics", package: "main"),
                .product(name: "DynamicsScenes", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
                "TriadSupport",
            ],
            path: "Benchmarks/Integration",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Fields",
            dependencies: [
                .product(name: "Dynamics", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
                "TriadSupport",
            ],
            path: "Benchmarks/Fields",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
