import Daemon
import FuzzSupport

/// libFuzzer target: a configuration file's text through the whole loader (limits, TOML,
/// validation, line index). Built only by scripts/fuzz.sh; see docs/testing.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    _ = try? ConfigLoader().parse(text, file: "fuzz.toml")
    return 0
}

/// SwiftPM links an executable with main = <module>_main: libFuzzer's loop starts from there.
@_cdecl("fuzz_Config_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzOne)
}
