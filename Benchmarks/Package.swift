// swift-tools-version: 6.1
// QixKit's benchmarks, kept in a nested package so that the main build and test run
// never compile the benchmark framework. Run from this folder: `swift package benchmark`.
import PackageDescription

let package = Package(
    name: "QixKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "QixKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Helpers shared by the benchmark targets.
        .target(name: "BenchmarkCorpus", path: "Sources/BenchmarkCorpus"),
        .executableTarget(
            name: "AudioBenchmarks",
            dependencies: [
                "BenchmarkCorpus",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "QixAudio", package: "QixKit"),
            ],
            path: "Benchmarks/AudioBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "ScanBenchmarks",
            dependencies: [
                "BenchmarkCorpus",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "QixScan", package: "QixKit"),
                .product(name: "QixWatermark", package: "QixKit"),
                .product(name: "QixAudio", package: "QixKit"),
            ],
            path: "Benchmarks/ScanBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "WatermarkBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "QixWatermark", package: "QixKit"),
                .product(name: "QixAudio", package: "QixKit"),
            ],
            path: "Benchmarks/WatermarkBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "DynamicsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "QixDynamics", package: "QixKit"),
                .product(name: "QixCards", package: "QixKit"),
            ],
            path: "Benchmarks/DynamicsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "ListenBenchmarks",
            dependencies: [
                "BenchmarkCorpus",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "QixWatermark", package: "QixKit"),
                .product(name: "QixAudio", package: "QixKit"),
            ],
            path: "Benchmarks/ListenBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
