// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
//
// Dynamics: UIKit Dynamics for Linux and servers, as a batch solver.
// The C kernel links Debian's libblas-dev (`make test` and `make run` install it).
// No unsafe compiler or linker flags: the package stays usable as a versioned dependency.
import PackageDescription

// The commit `dynamics --version` reports: `make dist` passes it as DYNAMICS_COMMIT (hex digits and
// "-dirty" only); any other build says "unknown".
let commit = Context.environment["DYNAMICS_COMMIT"].flatMap { value in
    value.allSatisfy { $0.isHexDigit || "-dirty".contains($0) } && !value.isEmpty && value.count <= 48 ? value : nil
} ?? "unknown"

let package = Package(
    name: "Dynamics",
    products: [
        .library(name: "Dynamics", targets: ["Dynamics"]),
        .library(name: "DynamicsScenes", targets: ["DynamicsScenes"]),
        .executable(name: "dynamics", targets: ["DynamicsCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "DynamicsKernel",
            path: "CSources/DynamicsKernel",
            cSettings: [
                .define("_POSIX_C_SOURCE", to: "200809L"), .define("DK_BUILD_COMMIT", to: "\"\(commit)\""),
                // The kernel's self-checks that cost a pass of their own (the places kept in the constraint layouts): debug builds only.
                .define("DK_SELF_CHECKS", .when(configuration: .debug)),
            ],
            linkerSettings: [.linkedLibrary("blas"), .linkedLibrary("m")]
        ),
        .target(name: "Dynamics", dependencies: ["DynamicsKernel"]),
        .target(
            name: "DynamicsScenes",
            dependencies: ["Dynamics", .product(name: "Yams", package: "Yams")],
            resources: [.copy("Resources/scene.schema.json"), .copy("Resources/examples")]
        ),
        .executableTarget(
            name: "DynamicsCLI",
            dependencies: [
                "Dynamics", "DynamicsScenes",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DynamicsTests",
            dependencies: ["Dynamics", "DynamicsScenes", .product(name: "PropertyBased", package: "swift-property-based"),
                           .product(name: "Yams", package: "Yams")]
        ),
        .testTarget(name: "DynamicsKernelTests", dependencies: ["DynamicsKernel"]),
        // The scene reader's fuzz target (`make fuzz`); built plainly, it replays the corpus it is given.
        .executableTarget(name: "SceneFuzzer", dependencies: ["Dynamics", "DynamicsScenes"], path: "Tests/Fuzz", exclude: ["corpus"]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
