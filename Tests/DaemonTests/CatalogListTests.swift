import Foundation
import GestureKit
import Testing

/// The lists of recognizers written by hand in the README and docs/arbitration.md, checked
/// against `RecognizerCatalog`: a recognizer added, renamed or re-ruled without them fails here.
@Suite struct CatalogListTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: DaemonHarness.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// A rule's key or member as the docs write it (a String, or a GestureKind's raw value).
    static func name(_ x: Any) -> String {
        if let r = x as? any RawRepresentable { return "\(r.rawValue)" }
        return "\(x)"
    }

    static var catalog: [String] { RecognizerCatalog.all.map(\.name) }

    /// The rows of the first Markdown table after `heading`, as trimmed cells.
    static func table(in text: String, after heading: String) -> [[String]] {
        guard let start = text.range(of: heading) else { return [] }
        var rows: [[String]] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            if line.hasPrefix("|") {
                rows.append(line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                    .map { $0.trimmingCharacters(in: .whitespaces) })
            } else if !rows.isEmpty {
                break
            }
        }
        return Array(rows.dropFirst(2))  // header and separator
    }

    static func names(_ cell: String) -> [String] {
        cell == "—" ? [] : cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
    }

    @Test func theReadmeGestureTableHasEveryRecognizer() throws {
        let rows = Self.table(in: try Self.text("README.md"), after: "## Gestures")
        #expect(Set(rows.map { $0[0].replacingOccurrences(of: "`", with: "") }) == Set(Self.catalog))
    }

    @Test func arbitrationNamesTheCatalogOrder() throws {
        let text = try Self.text("docs/arbitration.md")
        let start = try #require(text.range(of: "(`RecognizerCatalog.all`: "))
        let end = try #require(text[start.upperBound...].firstIndex(of: ")"))
        let listed = text[start.upperBound..<end].split(whereSeparator: { $0 == "," || $0 == "\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(listed == Self.catalog)
    }

    @Test func arbitrationsRuleTableIsTheDefaultRules() throws {
        let rules = RecognizerCatalog.defaultRules
        func relation(_ r: [some Hashable: [some Any]], _ name: String) -> Set<String> {
            Set(r.first { Self.name($0.key) == name }?.value.map(Self.name) ?? [])
        }
        let groups = rules.simultaneous.map { $0.map(Self.name) }
        let rows = Self.table(in: try Self.text("docs/arbitration.md"), after: "## Default rules")
        var described: Set<String> = []
        for row in rows {
            let names = Self.names(row[0])
            for name in names {
                described.insert(name)
                #expect(Set(Self.names(row[1])) == relation(rules.requiresFailureOf, name), "\(name): requires failure of")
                #expect(Set(Self.names(row[2])) == relation(rules.yieldsTo, name), "\(name): yields to")
                let partners = Set(groups.filter { $0.contains(name) }.flatMap { $0 }).subtracting([name])
                let written = Set(Self.names(row[3]).flatMap { $0 == "each other" ? names.filter { $0 != name } : [$0] })
                #expect(written == partners, "\(name): runs with")
            }
        }
        let ruled = Set(rules.requiresFailureOf.keys.map(Self.name)).union(rules.yieldsTo.keys.map(Self.name))
            .union(groups.filter { !$0.contains("long_press") }.flatMap { $0 }).union(["long_press"])
        #expect(ruled.isSubset(of: described), "recognizers with rules but no row: \(ruled.subtracting(described))")
    }
}
