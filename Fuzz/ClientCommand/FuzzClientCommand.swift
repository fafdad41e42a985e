import Daemon
import FuzzSupport

/// libFuzzer target: what a socket client sends, split into lines as the hub does, each
/// parsed as a command. Built only by scripts/fuzz.sh; see docs/testing.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    for line in UnsafeBufferPointer(start: data, count: size).split(separator: 10) {
        _ = ClientCommand.parse(String(decoding: line, as: UTF8.self))
    }
    return 0
}

/// SwiftPM links an executable with main = <module>_main: libFuzzer's loop starts from there.
@_cdecl("fuzz_ClientCommand_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzOne)
}
