import GestureKit

/// The figures of one benchmark run, as a table for people and JSON for tools.
struct BenchReport {
    var pipelines: [PipelineBench.Result] = []
    var circleFits: [CircleFitBench.Result] = []
    var passthrough: [PassthroughBench.Result] = []
    var memory: (rss: Int, peak: Int)?

    func table() -> String {
        var out = "pipeline (tracker + default recognizers + arena + JSON encoding)\n"
        out += pad("recording", 58) + pad("events", 8) + pad("gestures", 9) + pad("ns/ev med", 11)
            + pad("ns/ev p99", 11) + pad("no-JSON med", 12) + pad("Mev/s", 8) + pad("alloc/ev", 10) + "input allocs/pass\n"
        for p in pipelines {
            let name = String(p.recording.split(separator: "/").last ?? "")
            out += pad(name, 58) + pad("\(p.events)", 8) + pad("\(p.gestures)", 9)
                + pad(fmt(p.nsPerEvent.median, 1), 11) + pad(fmt(p.nsPerEvent.p99, 1), 11) + pad(fmt(p.inputNsPerEvent.median, 1), 12)
                + pad(fmt(1e3 / p.nsPerEvent.median, 2), 8) + pad(fmt(p.allocationsPerEvent, 4), 10)
                + "\(p.inputPathAllocations)\n"
        }
        out += "\npassthrough (read of a frame's first event → the clone's write; frames written to /dev/null)\n"
        out += pad("recording", 58) + pad("frames", 8) + pad("µs/frame med", 14) + pad("p99", 8)
            + pad("without med", 13) + pad("added med", 11) + "alloc/ev\n"
        for p in passthrough {
            let name = String(p.recording.split(separator: "/").last ?? "")
            out += pad(name, 58) + pad("\(p.frames)", 8) + pad(fmt(p.nsPerFrame.median / 1000, 2), 14)
                + pad(fmt(p.nsPerFrame.p99 / 1000, 2), 8) + pad(fmt(p.pipelineNsPerFrame.median / 1000, 2), 13)
                + pad(fmt((p.nsPerFrame.median - p.pipelineNsPerFrame.median) / 1000, 2), 11) + fmt(p.allocationsPerEvent, 4) + "\n"
        }
        out += "\ncircle fit (Taubin)\n"
        for c in circleFits {
            out += pad("\(c.points) points", 14) + fmt(c.nanoseconds.median / 1000, 3) + " µs median, "
                + fmt(c.nanoseconds.p99 / 1000, 3) + " µs p99\n"
        }
        if let m = memory {
            out += "\nbenchmark process resident memory: \(m.rss) kB (peak \(m.peak) kB)\n"
        }
        return out
    }

    func json() -> String {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.objects("pipelines", pipelines) { w, p in
            w.key("recording"); w.string(p.recording)
            w.key("events"); w.int(p.events)
            w.key("gestures_per_pass"); w.int(p.gestures)
            w.key("ns_per_event_median"); w.number(p.nsPerEvent.median, decimals: 1)
            w.key("ns_per_event_p99"); w.number(p.nsPerEvent.p99, decimals: 1)
            w.key("ns_per_event_without_json_median"); w.number(p.inputNsPerEvent.median, decimals: 1)
            w.key("events_per_second"); w.number(1e9 / p.nsPerEvent.median, decimals: 0)
            w.key("allocations_per_event"); w.number(p.allocationsPerEvent, decimals: 5)
            w.key("input_path_allocations_per_pass"); w.int(p.inputPathAllocations)
        }
        w.objects("passthrough", passthrough) { w, p in
            w.key("recording"); w.string(p.recording)
            w.key("frames"); w.int(p.frames)
            w.key("ns_per_frame_median"); w.number(p.nsPerFrame.median, decimals: 0)
            w.key("ns_per_frame_p99"); w.number(p.nsPerFrame.p99, decimals: 0)
            w.key("ns_per_frame_without_passthrough_median"); w.number(p.pipelineNsPerFrame.median, decimals: 0)
            w.key("allocations_per_event"); w.number(p.allocationsPerEvent, decimals: 5)
        }
        w.objects("circle_fit", circleFits) { w, c in
            w.key("points"); w.int(c.points)
            w.key("ns_median"); w.number(c.nanoseconds.median, decimals: 0)
            w.key("ns_p99"); w.number(c.nanoseconds.p99, decimals: 0)
        }
        if let m = memory {
            w.key("rss_kb"); w.int(m.rss)
            w.key("peak_rss_kb"); w.int(m.peak)
        }
        w.endObject()
        return w.text
    }

    private func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }

    private func fmt(_ x: Double, _ decimals: Int) -> String { DecimalText.string(x, places: decimals) }
}
