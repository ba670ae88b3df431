// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
//
// Benchmarks for Dynamics, in their own package so that library users never resolve the harness.
// Run from the repository root with `make bench`, or here with
//   swift package --allow-writing-to-package-directory benchmark
import Foundation
import PackageDescription

// A path dependency's package identity is its folder's name: the checkout's, whatever it is called.
let dynamics = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

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
                .product(name: "Dynamics", package: dynamics),
                .product(name: "DynamicsScenes", package: dynamics),
                .product(name: "Benchmark", package: "benchmark"),
                "TriadSupport",
            ],
            path: "Benchmarks/Integration",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Fields",
            dependencies: [
                .product(name: "Dynamics", package: dynamics),
                .product(name: "Benchmark", package: "benchmark"),
                "TriadSupport",
            ],
            path: "Benchmarks/Fields",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Churn",
            dependencies: [
                .product(name: "Dynamics", package: dynamics),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Churn",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Queries",
            dependencies: [
                .product(name: "Dynamics", package: dynamics),
                .product(name: "DynamicsScenes", package: dynamics),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Queries",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Springs",
            dependencies: [
                .product(name: "Dynamics", package: dynamics),
                .product(name: "Benchmark", package: "benchmark"),
                "TriadSupport",
            ],
            path: "Benchmarks/Springs",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
