import FuzzSupport
import GestureKit

/// libFuzzer target: a taught shape's `.shape` text through `ShapeFile.parse`, and what parsed
/// written back with `ShapeFile.text`. Built only by scripts/fuzz.sh; see docs/testing.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let shape = try? ShapeFile.parse(fuzzText(data, size)) else { return 0 }
    _ = ShapeFile.text(shape)
    return 0
}

/// SwiftPM links an executable with main = <module>_main: libFuzzer's loop starts from there.
@_cdecl("fuzz_Shape_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzOne)
}
