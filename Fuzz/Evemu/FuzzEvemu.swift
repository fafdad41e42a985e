import Evdev
import FuzzSupport

/// libFuzzer target: evemu text → Recording → the full pipeline (tracker, recognizers, arena).
/// Built only by scripts/fuzz.sh; see docs/testing.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzReplay.run(try? Recording.parse(fuzzText(data, size), path: "fuzz.events"))
    return 0
}

/// SwiftPM links an executable with main = <module>_main: libFuzzer's loop starts from there.
@_cdecl("fuzz_Evemu_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzOne)
}
