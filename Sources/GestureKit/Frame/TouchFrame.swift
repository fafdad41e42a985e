/// The physical surface a frame comes from, in screen orientation.
public struct Surface: Sendable, Equatable {
    /// Width and height in millimetres, after rotation.
    public var widthMM: Double
    public var heightMM: Double
    /// A touchscreen (direct) rather than a touchpad (indirect).
    public var isDirect: Bool

    public init(widthMM: Double, heightMM: Double, isDirect: Bool) {
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.isDirect = isDirect
    }

    /// Converts a point in millimetres to normalized coordinates of this surface (no calibration).
    @inlinable public func normalized(_ mm: Point) -> Point {
        Point(x: mm.x / widthMM, y: mm.y / heightMM)
    }
}

/// Everything a device reported between two SYN_REPORTs: the state of every contact that is
/// down, plus those that ended or were cancelled in this frame.
///
/// Frames are handed to recognizers by reference to the tracker's reusable storage: a recognizer
/// must not keep a frame (copy what it needs), so that steady-state input allocates nothing.
public struct TouchFrame: Sendable {
    /// Seconds, from the kernel's event timestamp (CLOCK_MONOTONIC) or the recording.
    public var time: Double
    public var surface: Surface
    /// Contacts down in this frame, and those that ended or were cancelled in it.
    public var contacts: [Contact]

    public init(time: Double, surface: Surface, contacts: [Contact] = []) {
        self.time = time
        self.surface = surface
        self.contacts = contacts
    }

    /// Number of contacts still on the surface after this frame.
    @inlinable public var downCount: Int {
        var n = 0
        for c in contacts where c.phase.isDown { n += 1 }
        return n
    }

    /// True when this frame's touches are the first of a sequence: some began, none was down before.
    @inlinable public var startsSequence: Bool {
        var began = false
        for c in contacts {
            if c.phase == .began { began = true } else if c.phase.isDown { return false }
        }
        return began
    }

    /// True when some contact was cancelled in this frame.
    @inlinable public var hasCancellation: Bool {
        for c in contacts where c.phase == .cancelled { return true }
        return false
    }
}
