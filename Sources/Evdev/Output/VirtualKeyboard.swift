/// The one virtual keyboard gestured types on (`keys = …` bindings). It offers every key
/// (KEY_*, none of the buttons), so a reload with new chords never needs a new device, and udev
/// tags it as a keyboard only (ID_INPUT_KEYBOARD), as libinput and compositors expect.
public enum VirtualKeyboard {
    public static let name = "gestured virtual keyboard"

    public static var spec: UInputSpec {
        UInputSpec(name: name, keys: (UInt16(1)...UInt16(0x2ff)).filter(KeyChord.isKey))
    }
}
