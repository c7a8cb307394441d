// swift-tools-version: 6.1
// QixKit: an audio watermark codec and a deterministic 2D dynamics engine, with the `qix` CLI.
import PackageDescription

let package = Package(
    name: "QixKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "QixDSP", targets: ["QixDSP"]),
        .library(name: "QixAudio", targets: ["QixAudio"]),
        .library(name: "QixWatermark", targets: ["QixWatermark"]),
        .library(name: "QixScan", targets: ["QixScan"]),
        .library(name: "QixDynamics", targets: ["QixDynamics"]),
        .library(name: "QixScenes", targets: ["QixScenes"]),
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

        // FFmpeg's libraries, for what libsndfile does not read: AAC (ADTS, MP4/M4A), MPEG-TS,
        // AC-3 and the audio of video files; libswresample only converts sample formats.
        .systemLibrary(
            name: "CAVFormat", pkgConfig: "libavformat libavcodec libswresample libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev"]),
                        .brew(["ffmpeg"])]),

        // The analysis decimator's filter loop in C, built for baseline x86-64 and for AVX2
        // from one source (function attributes, no target flags), chosen at run time.
        .target(name: "CFilterKernel"),
        // QixKit's own FLAC frame decoder (FLACFrameReader), faster than libFLAC on the 16-bit
        // stereo recordings scans read; libFLAC takes every frame it refuses.
        .target(name: "CFLACFrame"),
        // Signal processing on samples in memory: buffers, FFTs, resampling, mixing, levels,
        // and the error every library throws. Knows no files.
        .target(name: "QixDSP", dependencies: ["CFFTW", "CSoxr", "CFilterKernel"]),
        // Audio files and streams: reading every format (libsndfile, libFLAC, FFmpeg's libraries), writing atomically, raw PCM.
        .target(name: "QixAudio", dependencies: ["QixDSP", "CSndFile", "CFLAC", "CFLACFrame", "CAVFormat"]),
        // The codec works on samples (QixDSP) and knows no files.
        .target(
            name: "QixWatermark",
            dependencies: ["QixDSP", .product(name: "Crypto", package: "swift-crypto")]),
        // The robustness harness of `qix eval`: attacks (codecs through files, rooms, noise).
        .target(name: "QixEval", dependencies: ["QixAudio", "QixWatermark"]),
        .target(
            name: "QixScan",
            dependencies: [
                "QixAudio", "QixWatermark", "QixMarkup",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Swift's rounding (`rounded()`) calls libm's rint/floor/trunc; on Linux nothing else
        // links libm into a package that uses only these modules, so say it here.
        .target(name: "QixMarkup", linkerSettings: [.linkedLibrary("m")]),
        // The contact solver's hot loops in C, built for baseline x86-64 and for AVX2 from one
        // source (function attributes, no target flags), chosen at run time by QixDynamics.
        .target(name: "CContactKernel"),
        // The engine: bodies, behaviours, collision, solver and events; no file formats, no drawing.
        // libm: rint, floor, sqrt and friends (Swift's rounding and square roots in debug builds).
        .target(name: "QixDynamics", dependencies: ["CContactKernel"], linkerSettings: [.linkedLibrary("m")]),
        // Scene files, traces, state hashes, film strips and the outline animation over the engine.
        .target(name: "QixScenes", dependencies: ["QixDynamics", "QixMarkup"]),
        .target(name: "QixCards", dependencies: ["QixDynamics", "QixScenes", "QixMarkup"]),
        .executableTarget(
            name: "qix",
            dependencies: [
                "QixDSP", "QixAudio", "QixWatermark", "QixEval", "QixScan", "QixDynamics", "QixScenes", "QixCards", "QixMarkup",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Test signals, folders and the seeded generator shared by the tests (not a product).
        .target(name: "QixTestSupport", dependencies: ["QixDSP"], path: "Tests/QixTestSupport"),
        .testTarget(name: "QixDSPTests", dependencies: ["QixDSP", "QixTestSupport"]),
        // Fixtures: small damaged FLAC files the decoders are held to, read by path.
        .testTarget(name: "QixAudioTests", dependencies: ["QixAudio", "QixTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "QixWatermarkTests", dependencies: ["QixWatermark", "QixAudio", "QixTestSupport"]),
        .testTarget(name: "QixEvalTests", dependencies: ["QixEval", "QixWatermark", "QixAudio"]),
        .testTarget(name: "QixScanTests", dependencies: ["QixScan", "QixTestSupport", "QixAudio", "QixWatermark"]),
        .testTarget(name: "QixDynamicsTests", dependencies: ["QixDynamics", "QixScenes", "QixTestSupport"]),
        .testTarget(name: "QixScenesTests", dependencies: ["QixScenes", "QixDynamics"]),
        .testTarget(name: "QixCardsTests", dependencies: ["QixCards", "QixScenes", "QixDynamics", "QixTestSupport"]),
        // docs/architecture.md's rules, checked against Package.swift and every import.
        .testTarget(name: "ArchitectureTests"),
        .testTarget(name: "qixTests", dependencies: ["qix", "QixAudio", "QixWatermark", "QixScan", "QixTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
