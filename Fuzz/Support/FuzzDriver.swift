import CFuzzDriver

/// A fuzz target's main: hands the command line and the target to libFuzzer.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, target)
}

/// The input as text (invalid UTF-8 repaired, as the daemon's readers do).
public func fuzzText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}
