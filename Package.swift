// swift-tools-version: 6.0
import PackageDescription

// Layers, from the inside out: GestureKit (pure core) → Evdev (input) → Trace, Daemon → gestured
// (README, "Source layout").

// The per-event path (tracker, recognizers, arena) mutates class state on every frame; Swift's
// dynamic exclusivity checks made it 3.5× slower (docs/performance.md). Release builds of the
// hot-path targets drop them; debug builds, which run the tests, keep them on. The daemon's own
// per-wakeup code (DeviceSession, the service loop, the socket hub) is hot too: its checks
// (swift_beginAccess + AccessSet::insert) were 6.8 % of the whole daemon's instructions per
// frame in the VM (issue 27), so Daemon, gestured and gestured-bench drop them as well.
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

// Only the members of modules a file imports itself are visible. Without this, TOMLKit's (the TOML parser until issue 48)
// `import struct Foundation.Date` leaks Foundation's String methods (range(of:) …) into every
// file that imports TOMLKit's importers, and one such call links all of Foundation and ICU into
// the static binary (+49 MB, +12 MB resident, measured on the daemon).
let ownImports: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

// The daemon's release binary (scripts/run.sh, make, the benchmarks all build it with
// `swift build -c release --static-swift-stdlib`) has its relocations packed (DT_RELR, GNU ld;
// gold cannot): the 980 KiB of .rela.dyn that the loader reads at every start, and that then
// stay resident, become 8 KiB (docs/performance.md). Needs glibc ≥ 2.36 (Debian 12).
// `-z separate-code` (GNU ld's default on x86-64, not on aarch64): Swift for aarch64 emits some
// `.rodata` sections writable, and GNU ld for aarch64 put them with the code, so the arm64 binary
// was one read-write-execute segment, which systemd's MemoryDenyWriteExecute refuses to map
// (the service died of SIGSEGV at exec; found by the arm64 boot test). The code gets its own
// segment; the same on x86-64.
let leanDaemon: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=bfd", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xlinker", "-z", "-Xlinker", "separate-code"], .when(configuration: .release)),
]

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gestured-bench", targets: ["gestured-bench"]),
        .library(name: "GestureKit", targets: ["GestureKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Pure Swift, standard library only: geometry, frames, recognizers, arena, events.
        .target(name: "GestureKit", swiftSettings: hotPath),

        // C libraries from Debian's -dev packages, found through pkg-config.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CMtdev", pkgConfig: "mtdev", providers: [.apt(["libmtdev-dev"])]),
        // The reference MQTT client, for [mqtt] (a fleet's broker).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // Linux headers Glibc's module leaves out (epoll, timerfd, signalfd) for the daemon's loop, and
        // the raw read(2) and epoll_wait(2) of the wakeup path (shim.h).
        .systemLibrary(name: "CLinux"),

        // Input: devices, udev, recordings, the contact tracker, the per-device pipeline.
        .target(
            name: "Evdev",
            dependencies: ["GestureKit", "CLibevdev", "CLibudev", "CMtdev", "CLinux"],
            swiftSettings: hotPath
        ),

        // `gestured trace`: a recording replayed stroke by stroke, what each shape recognizer
        // measured, drawn as SVG. Only the CLI and its tests use it.
        .target(name: "Trace", dependencies: ["GestureKit", "Evdev"]),

        // The service: configuration, event loop, socket hub, actions, systemd.
        .target(
            name: "Daemon",
            dependencies: [
                "GestureKit", "Evdev", "CLinux", "CMosquitto",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: ownImports + hotPath
        ),

        .executableTarget(
            name: "gestured",
            dependencies: [
                "GestureKit", "Evdev", "Daemon", "Trace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: ownImports + hotPath,
            linkerSettings: leanDaemon
        ),

        // The unistroke corpus (five people's strokes in Tests/Fixtures) read through the real
        // recording parser and tracker: what the accuracy figures and tests are measured on.
        .target(name: "Corpus", dependencies: ["GestureKit", "Evdev"]),

        // Benchmarks: a release-mode executable that replays recordings through the full
        // pipeline and prints figures (docs/performance.md). The allocation counter is linked
        // into this executable only.
        .target(name: "CMallocCounter"),
        .executableTarget(
            name: "gestured-bench",
            dependencies: [
                "GestureKit", "Evdev", "Corpus", "CMallocCounter", "Daemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: hotPath
        ),

        .testTarget(name: "GestureKitTests", dependencies: ["GestureKit"]),
        .testTarget(name: "EvdevTests", dependencies: ["Evdev", "GestureKit", "Corpus", "Trace"]),
        .testTarget(name: "DaemonTests", dependencies: ["Daemon", "Evdev", "GestureKit"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz targets (docs/testing.md): declared only when scripts/fuzz.sh builds with
// GESTURED_FUZZ=1 and -sanitize=fuzzer (libFuzzer supplies their main) in .build-fuzz, so a
// plain `swift build` never sees them.
if Context.environment["GESTURED_FUZZ"] == "1" {
    package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/Driver"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["CFuzzDriver", "Evdev", "GestureKit"], path: "Fuzz/Support"))
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("Evemu", ["Evdev", "FuzzSupport"]),
        ("LibinputRecord", ["Evdev", "FuzzSupport"]),
        ("Config", ["Daemon", "FuzzSupport"]),
        ("ClientCommand", ["Daemon", "FuzzSupport"]),
        ("Shape", ["GestureKit", "FuzzSupport"]),
    ]
    for (name, dependencies) in fuzzTargets {
        package.targets.append(.executableTarget(
            name: "fuzz-\(name)", dependencies: dependencies, path: "Fuzz/\(name)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
