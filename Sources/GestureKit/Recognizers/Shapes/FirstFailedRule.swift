/// A shape analysis's rules tried in order: the first that fails is the verdict. Each rule is
/// tried once its measure is known; a complete analysis measures on (a trace shows every
/// measure), a deciding one stops at the first failure (the recognizer needs only the verdict).
struct FirstFailedRule<Verdict> {
    let complete: Bool
    private(set) var verdict: Verdict?

    init(complete: Bool) { self.complete = complete }

    /// Notes `v` when the rule `failed` and none before it did; true when the analysis stops here.
    mutating func check(_ failed: Bool, _ v: Verdict) -> Bool {
        if verdict == nil && failed { verdict = v }
        return verdict != nil && !complete
    }
}
