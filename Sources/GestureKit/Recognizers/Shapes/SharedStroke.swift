/// One finger's stroke, kept once for every shape recognizer of an arena that follows that finger
/// (circle, checkmark, tickle, taught shapes: RecognizerContext hands them the same one). Each of
/// them offers the frame's sample; the first offer appends it and the rest are repeats of the last
/// point, which a Stroke skips — so the stroke is exactly the one each reader would have kept on
/// its own, built once per frame instead of once per recognizer.
///
/// Readers follow the same finger when they see the same contacts. One whose view differs (a
/// region excluded for it alone hides another finger) may start on a finger of its own: `join`
/// refuses it, and it keeps a stroke of its own instead.
public final class SharedStroke {
    public private(set) var stroke = Stroke()
    private var contactID: Int32 = 0
    /// Recognizers following the stroke; it is started afresh only when none is.
    private var readers = 0

    public init() {}

    /// A reader starts following contact `id`, which touched down at `mm`: it joins the stroke when
    /// that is the same touch-down (its one sample), starts it when no one reads the stroke, and
    /// is refused (false) when others follow a different touch.
    func join(_ id: Int32, mm: Point, position: Point) -> Bool {
        if readers == 0 {
            stroke.removeAll()
            contactID = id
            stroke.append(mm: mm, position: position)
        } else {
            guard id == contactID, stroke.count == 1, stroke.samples[0] == Stroke.Sample(mm: mm, position: position) else {
                return false
            }
        }
        readers += 1
        return true
    }

    /// The followed finger's sample of this frame: the one way a stroke grows once started
    /// (the arena for the shapes it does not hand the frame, each shape for the frames it is
    /// handed). Every reader offers it; the first offer appends it, the rest repeat the last
    /// point, which Stroke.append skips.
    @inline(__always)
    func offer(_ c: Contact) { stroke.append(mm: c.mm, position: c.position) }

    /// The last sample.
    var last: Stroke.Sample { stroke.samples[stroke.count - 1] }

    /// A reader is done with the stroke (it was reset).
    func leave() { readers -= 1 }
}
