/// Asked at the first touch of each sequence on any device: true when the app gets none of that
/// sequence (it woke a dark screen). The modes answer (ModeControl).
protocol TouchGate: AnyObject {
    func touchDown() -> Bool
}
