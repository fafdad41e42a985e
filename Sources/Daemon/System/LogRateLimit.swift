import GestureKit

/// The log's ceiling. Input can make a log site repeat without end: a flapping device, a
/// flood of socket clients or bad commands, SYN_DROPPED on a busy panel, a command that fails
/// each time it is bound to run. Each site (a source file and line: its values — a devnode,
/// an errno, a client's number — vary, the site does not) gets a token bucket, and all of them
/// share one more; a line is written only if both have a token. The next line a site writes
/// after some were suppressed is preceded by their count, so nothing is dropped silently.
///
/// The ceiling: in any `t` seconds at most `overall.burst + overall.perSecond × t` lines, and
/// as many count lines (one before each written line at most); one site alone
/// `site.burst + site.perSecond × t`. Debug and trace lines are not limited: the operator
/// asked for them (`--verbose`).
public struct LogRateLimit: Sendable {
    /// `burst` lines at once, then `perSecond`.
    public struct Policy: Sendable {
        public let burst: Double
        public let perSecond: Double
    }

    /// A site may repeat a burst of 30 lines (a hotplug's devices, a reload's notices), then 2 a
    /// second: 7,200 an hour for a site that repeats forever.
    public static let site = Policy(burst: 30, perSecond: 2)
    /// All sites together: a start-up with many devices fits in the burst; 20 lines a second
    /// at most sustained, 72,000 an hour.
    public static let overall = Policy(burst: 300, perSecond: 20)
    /// Sites are code locations, so finitely many; the bound keeps the table's memory explicit.
    /// A site past it shares the overall bucket only.
    public static let maxSites = 4096

    /// Where a line is logged from.
    public struct Site: Hashable, Sendable {
        public let file: String
        public let line: UInt
        public init(file: String, line: UInt) {
            self.file = file
            self.line = line
        }
    }

    public enum Verdict: Equatable, Sendable {
        /// Write the line; `suppressed` lines of this site were not written in the `seconds`
        /// before it (0: none).
        case write(suppressed: Int, seconds: Double)
        case suppress
    }

    struct Bucket: Sendable {
        let policy: Policy
        var tokens: Double
        var last: Double

        init(_ policy: Policy, now: Double) {
            self.policy = policy
            tokens = policy.burst
            last = now
        }

        mutating func refill(_ now: Double) {
            tokens = min(policy.burst, tokens + max(0, now - last) * policy.perSecond)
            last = max(last, now)
        }
    }

    private struct SiteState: Sendable {
        var bucket: Bucket
        var suppressed = 0
        var firstSuppressed = 0.0
    }

    private let sitePolicy: Policy
    private var overall: Bucket?
    private let overallPolicy: Policy
    private var sites: [Site: SiteState] = [:]
    private let maxSites: Int

    public init(site: Policy = Self.site, overall: Policy = Self.overall, maxSites: Int = Self.maxSites) {
        sitePolicy = site
        overallPolicy = overall
        self.maxSites = maxSites
    }

    /// Whether a line from `site` at `now` (seconds, monotonic) is written.
    public mutating func admit(_ site: Site, now: Double) -> Verdict {
        var all = overall ?? Bucket(overallPolicy, now: now)
        all.refill(now)
        defer { overall = all }
        guard var s = sites[site] ?? (sites.count < maxSites ? SiteState(bucket: Bucket(sitePolicy, now: now)) : nil) else {
            guard all.tokens >= 1 else { return .suppress }
            all.tokens -= 1
            return .write(suppressed: 0, seconds: 0)
        }
        s.bucket.refill(now)
        defer { sites[site] = s }
        guard s.bucket.tokens >= 1, all.tokens >= 1 else {
            if s.suppressed == 0 { s.firstSuppressed = now }
            s.suppressed += 1
            return .suppress
        }
        s.bucket.tokens -= 1
        all.tokens -= 1
        let verdict = Verdict.write(suppressed: s.suppressed, seconds: s.suppressed > 0 ? now - s.firstSuppressed : 0)
        s.suppressed = 0
        return verdict
    }

    /// The line written before a site's next line when some were suppressed.
    public static func countLine(suppressed: Int, seconds: Double) -> String {
        "log rate limit: \(suppressed) line\(suppressed == 1 ? "" : "s") like the next not written in the last \(DecimalText.string(seconds, places: 1)) s"
    }
}
