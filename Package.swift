// swift-tools-version: 6.0
import PackageDescription

// Layers, from the inside out: GestureKit (pure core) → Evdev (input) → Daemon → gestured.
let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .library(name: "GestureKit", targets: ["GestureKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // Pure Swift, standard library only: geometry, frames, recognizers, arena, events.
        .target(name: "GestureKit"),

        // C libraries from Debian's -dev packages, found through pkg-config.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CMtdev", pkgConfig: "mtdev", providers: [.apt(["libmtdev-dev"])]),
        // Linux headers Glibc's module leaves out (epoll, timerfd, signalfd) for the daemon's loop.
        .systemLibrary(name: "CLinux"),

        // Input: devices, udev, recordings, the contact tracker, the per-device pipeline.
        .target(
            name: "Evdev",
            dependencies: [
                "GestureKit", "CLibevdev", "CLibudev", "CMtdev",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // The service: configuration, event loop, socket hub, actions, systemd.
        .target(
            name: "Daemon",
            dependencies: [
                "GestureKit", "Evdev", "CLinux",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        .executableTarget(
            name: "gestured",
            dependencies: [
                "GestureKit", "Evdev", "Daemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "GestureKitTests", dependencies: ["GestureKit"]),
        .testTarget(name: "EvdevTests", dependencies: ["Evdev", "GestureKit"]),
        .testTarget(name: "DaemonTests", dependencies: ["Daemon", "Evdev", "GestureKit"]),
    ],
    swiftLanguageModes: [.v6]
)
