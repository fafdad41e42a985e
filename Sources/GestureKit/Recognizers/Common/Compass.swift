/// Turns a displacement in screen terms (y down) into a direction word, with 4 or 8 sectors.
public enum Compass {
    /// The direction of `d`: four sectors of 90° (up, down, left, right) or eight of 45°.
    public static func direction(of d: Point, sectors: Int) -> Direction {
        // Angle measured with y up, so that 0 = right and π/2 = up.
        let a = Angle.atan2(-d.y, d.x)
        let eighth = Angle.pi / 4
        if sectors >= 8 {
            // Sector k is centred on k·45°.
            var k = Int(((a + eighth / 2) / eighth).rounded(.down))
            if k < 0 { k += 8 }
            switch k % 8 {
            case 0: return .right
            case 1: return .upRight
            case 2: return .up
            case 3: return .upLeft
            case 4: return .left
            case 5: return .downLeft
            case 6: return .down
            default: return .downRight
            }
        }
        let ax = d.x < 0 ? -d.x : d.x
        let ay = d.y < 0 ? -d.y : d.y
        if ax >= ay { return d.x >= 0 ? .right : .left }
        return d.y >= 0 ? .down : .up
    }
}
