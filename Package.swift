// swift-tools-version: 6.1
// QixKit: an audio watermark codec and a deterministic 2D dynamics engine, with the `qix` CLI.
import PackageDescription

let package = Package(
    name: "QixKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "QixAudio", targets: ["QixAudio"]),
        .library(name: "QixWatermark", targets: ["QixWatermark"]),
        .library(name: "QixScan", targets: ["QixScan"]),
        .library(name: "QixDynamics", targets: ["QixDynamics"]),
        .library(name: "QixCards", targets: ["QixCards"]),
        .executable(name: "qix", targets: ["qix"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // System libraries, found through pkg-config; the shim headers stop the build
        // with an install hint when a -dev package is missing.
        .systemLibrary(
            name: "CFFTW", pkgConfig: "fftw3f",
            providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]),
        .systemLibrary(
            name: "CSndFile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),
        .systemLibrary(
            name: "CSoxr", pkgConfig: "soxr",
            providers: [.apt(["libsoxr-dev"]), .brew(["libsoxr"])]),
        // libFLAC directly (libsndfile's own dependency): FLAC files decode about 20 % faster
        // without libsndfile's per-sample conversion layer.
        .systemLibrary(
            name: "CFLAC", pkgConfig: "flac",
            providers: [.apt(["libflac-dev"]), .brew(["flac"])]),

        // The analysis decimator's filter loop in C, built for baseline x86-64 and for AVX2
        // from one source (function attributes, no target flags), chosen at run time.
        .target(name: "CFilterKernel"),
        // QixKit's own FLAC frame decoder (FLACFrameReader), faster than libFLAC on the 16-bit
        // stereo recordings scans read; libFLAC takes every frame it refuses.
        .target(name: "CFLACFrame"),
        .target(name: "QixAudio", dependencies: ["CFFTW", "CSndFile", "CSoxr", "CFLAC", "CFilterKernel", "CFLACFrame"]),
        .target(
            name: "QixWatermark",
            dependencies: ["QixAudio", .product(name: "Crypto", package: "swift-crypto")]),
        // The robustness harness of `qix eval`: attacks (codecs through files, rooms, noise).
        .target(name: "QixEval", dependencies: ["QixAudio", "QixWatermark"]),
        .target(
            name: "QixScan",
            dependencies: [
                "QixAudio", "QixWatermark", "QixMarkup",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(name: "QixMarkup"),
        // The contact solver's hot loops in C, built for baseline x86-64 and for AVX2 from one
        // source (function attributes, no target flags), chosen at run time by QixDynamics.
        .target(name: "CContactKernel"),
        .target(name: "QixDynamics", dependencies: ["QixMarkup", "CContactKernel"]),
        .target(name: "QixCards", dependencies: ["QixDynamics"]),
        .executableTarget(
            name: "qix",
            dependencies: [
                "QixAudio", "QixWatermark", "QixEval", "QixScan", "QixDynamics", "QixCards",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "QixAudioTests", dependencies: ["QixAudio"]),
        .testTarget(name: "QixWatermarkTests", dependencies: ["QixWatermark"]),
        .testTarget(name: "QixEvalTests", dependencies: ["QixEval", "QixWatermark", "QixAudio"]),
        .testTarget(name: "QixScanTests", dependencies: ["QixScan"]),
        .testTarget(name: "QixDynamicsTests", dependencies: ["QixDynamics"]),
        .testTarget(name: "QixCardsTests", dependencies: ["QixCards", "QixDynamics"]),
        .testTarget(name: "qixTests", dependencies: ["qix", "QixAudio", "QixWatermark", "QixScan"]),
    ],
    swiftLanguageModes: [.v6]
)
