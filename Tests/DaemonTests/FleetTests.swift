import Foundation
import Glibc
import Testing

/// `[mqtt]` against a real mosquitto broker on loopback, checked with mosquitto_sub and
/// mosquitto_pub as an operator of a fleet would.
@Suite(.serialized) struct FleetTests {
    /// Commands on, unless `commands` says otherwise (nil: the key left out, the default).
    static func config(_ broker: Broker, prefix: String, extra: String = "", commands: Bool? = true) -> String {
        """
        [socket]
        mode = "0600"

        [mqtt]
        url = "\(broker.url)"
        topic = "\(prefix)"
        reconnect_max = 1
        \(commands.map { "commands = \($0)" } ?? "")
        \(extra)
        """
    }

    static func json(_ s: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(s.utf8))) as? [String: Any] ?? [:]
    }

    static func mqttStatus(_ c: Client) throws -> [String: Any] {
        let s = try c.command(#"{"status":true}"#)
        return (s["status"] as? [String: Any])?["mqtt"] as? [String: Any] ?? [:]
    }

    @Test func aReplayedCircleArrivesOnItsGestureTopic() throws {
        let broker = try Broker()
        let prefix = "museum/kiosk17"
        let sub = try Subscriber(broker, topic: prefix + "/#", id: "circle")
        let d = try DaemonHarness(config: Self.config(broker, prefix: prefix), replays: [DaemonHarness.circleRecording])
        #expect(sub.wait(for: 1, on: prefix + "/status") == ["online"], "\(d.log)")
        let c = try d.connect()
        try d.replayAndWait(c)
        let circles = sub.wait(for: 1, on: prefix + "/gesture/circle")
        let circle = Self.json(try #require(circles.first, "\(sub.messages)\n\(d.log)"))
        #expect(circle["gesture"] as? String == "circle" && circle["phase"] as? String == "recognized")
        #expect(circle["device"] as? String == "Wacom ISDv4 E6 Finger")
        // The same line the socket's clients get.
        let socketCircle = try #require(c.collectEvents(for: 0.3).first { $0["gesture"] as? String == "circle" })
        #expect(socketCircle["radius_mm"] as? Double == circle["radius_mm"] as? Double)
        let device = Self.json(try #require(sub.messages(on: prefix + "/device").first))
        #expect(device["event"] as? String == "added" && device["device_id"] as? String == "Wacom_ISDv4_E6_Finger.single-center-circle")
        let m = try Self.mqttStatus(c)
        #expect(m["connected"] as? Bool == true && m["topic"] as? String == prefix && m["dropped"] as? Int == 0, "\(m)")
    }

    @Test func disableOnTheFleetTopicStopsCircles() throws {
        let broker = try Broker()
        let prefix = "museum/kiosk9"
        let sub = try Subscriber(broker, topic: prefix + "/#", id: "disable")
        let d = try DaemonHarness(config: Self.config(broker, prefix: prefix), replays: [DaemonHarness.circleRecording])
        sub.wait(for: 1, on: prefix + "/status")

        try broker.publish("gestured/all/command", #"{"disable":"circle"}"#)
        let reply = Self.json(try #require(sub.wait(for: 1, on: prefix + "/reply").first, "\(d.log)"))
        #expect(reply["ok"] as? Bool == true && reply["enabled"] as? Bool == false && reply["devices"] as? [String] == ["Wacom ISDv4 E6 Finger"])
        // The socket's validation, word for word.
        try broker.publish(prefix + "/command", #"{"disable":"lasso"}"#)
        try broker.publish(prefix + "/command", "not json")
        let replies = sub.wait(for: 3, on: prefix + "/reply")
        #expect(replies.count == 3 && replies[1].contains(#"no recognizer \"lasso\""#) && replies[2].hasPrefix(#"{"error":"expected one JSON object"#), "\(replies)")
        let bad = try d.connect().command(#"{"disable":"lasso"}"#)
        #expect(replies.count == 3 && Self.json(replies[1])["error"] as? String == bad["error"] as? String)

        let c = try d.connect()
        try d.replayAndWait(c)
        #expect(!c.collectEvents(for: 0.5).contains { $0["gesture"] as? String == "circle" })
        #expect(sub.messages(on: prefix + "/gesture/circle").isEmpty, "\(sub.messages)")
        let status = try c.command(#"{"status":true}"#)
        let recognizers = (((status["status"] as? [String: Any])?["devices"] as? [[String: Any]])?.first?["recognizers"] as? [[String: Any]]) ?? []
        #expect(recognizers.contains { $0["name"] as? String == "circle" && $0["enabled"] as? Bool == false })
    }

    /// Commands are the operator's choice: by default the broker's are not heard at all; turned
    /// on, a retained command (the broker's memory of an old one, handed to every connection) is
    /// still never obeyed, while one sent live is.
    @Test func commandsAreOffByDefaultAndARetainedOneIsNeverObeyed() throws {
        let broker = try Broker()
        let prefix = "museum/kiosk31"
        let config = "[[mode]]\nname = \"normal\"\n[[mode]]\nname = \"locked\"\n"
        try broker.publish(prefix + "/command", #"{"mode":"locked"}"#, retain: true)
        let sub = try Subscriber(broker, topic: prefix + "/#", id: "retained")
        do {
            let off = try DaemonHarness(config: config + Self.config(broker, prefix: prefix, commands: nil), replays: [DaemonHarness.circleRecording])
            sub.wait(for: 1, on: prefix + "/status")
            try broker.publish("gestured/all/command", #"{"mode":"locked"}"#)
            try broker.publish(prefix + "/command", #"{"mode":"locked"}"#)
            usleep(500_000)
            let c = try off.connect()
            #expect((try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String == "normal", "\(off.log)")
            #expect(sub.messages(on: prefix + "/reply").isEmpty, "\(sub.messages)")
        }
        // The command topic's retained message is there still; with commands on it is ignored
        // (and logged), and a live one obeyed.
        try broker.publish(prefix + "/command", #"{"mode":"locked"}"#, retain: true)
        let on = try DaemonHarness(config: config + Self.config(broker, prefix: prefix), replays: [DaemonHarness.circleRecording])
        sub.wait(for: 2, on: prefix + "/status")
        let deadline = Date().addingTimeInterval(5)
        while !on.log.contains("retained command"), Date() < deadline { usleep(50_000) }
        #expect(on.log.contains("a retained command on \(prefix)/command ignored"), "\(on.log)")
        let c = try on.connect()
        #expect((try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String == "normal", "\(on.log)")
        try broker.publish(prefix + "/command", #"{"mode":"locked"}"#)
        let reply = Self.json(try #require(sub.wait(for: 1, on: prefix + "/reply").first, "\(on.log)"))
        #expect(reply["ok"] as? Bool == true && reply["mode"] as? String == "locked", "\(reply)")
    }

    /// A secret sequence's steps are the secret: a gesture that is one (here the replayed circle,
    /// the first step) reaches neither the broker nor socket clients, while its binding still runs
    /// and every other gesture is published as before. In a mode where the sequence does not
    /// run, the circle is an ordinary gesture again.
    @Test func aSequencesStepsNeverReachTheBroker() throws {
        let broker = try Broker()
        let prefix = "museum/kiosk35"
        let sub = try Subscriber(broker, topic: prefix + "/#", id: "secret")
        let config = """
            [[mode]]
            name = "locked"
            [[mode]]
            name = "open"
            [[sequence]]
            name = "unlock"
            steps = [{ gesture = "circle" }, { gesture = "swipe", direction = "up" }]
            in_mode = "locked"
            switch_mode = "open"
            [[bind]]
            gesture = "circle"
            run = ["/usr/bin/touch", "$DIR/bound"]

            """
        let d = try DaemonHarness(config: config + Self.config(broker, prefix: prefix), replays: [DaemonHarness.circleRecording])
        sub.wait(for: 1, on: prefix + "/status")
        let c = try d.connect()
        try d.replayAndWait(c)
        #expect(DaemonHarness.waitForFile(d.dir + "/bound"), "the binding on the step did not run:\n\(d.log)")
        #expect(!c.collectEvents(for: 0.5).contains { $0["gesture"] as? String == "circle" }, "a step reached a socket client")
        usleep(500_000)
        #expect(sub.messages(on: prefix + "/gesture/circle").isEmpty, "a step reached the broker: \(sub.messages)")
        // Outside the sequence's mode the same circle is published.
        #expect(try c.command(#"{"mode":"open"}"#)["ok"] as? Bool == true)
        try d.replayAndWait(c)
        #expect(sub.wait(for: 1, on: prefix + "/gesture/circle").count == 1, "\(sub.messages)\n\(d.log)")
    }

    /// Slow (SIGSTOP) and then dead (SIGKILL): socket clients and bound commands carry on as if
    /// nothing happened; what the broker missed is queued up to `max_queue` and sent when it is back.
    @Test func aBrokerFrozenOrKilledMidReplayCostsNothingElse() throws {
        let broker = try Broker()
        let prefix = "museum/kiosk3"
        let extra = """
            qos = 1
            max_queue = 3
            [[mqtt.publish]]
            gesture = "circle"

            [[bind]]
            gesture = "circle"
            run = ["/bin/sh", "-c", "echo run >> $DIR/runs.txt"]
            """
        let sub = try Subscriber(broker, topic: prefix + "/gesture/#", id: "kill")
        let d = try DaemonHarness(config: Self.config(broker, prefix: prefix, extra: extra), replays: [DaemonHarness.circleRecording])
        let c = try d.connect()
        let deadline = Date().addingTimeInterval(5)
        while try Self.mqttStatus(c)["connected"] as? Bool != true, Date() < deadline { usleep(50_000) }
        let topic = prefix + "/gesture/circle"
        let runs = d.dir + "/runs.txt"
        var expectedRuns = 0

        /// One replay: the circle reaches the socket and its command runs within a second.
        func replayOnce() throws {
            try d.replayAndWait(c)
            expectedRuns += 1
            let circles = c.collectEvents(for: 0.2).filter { $0["gesture"] as? String == "circle" }
            #expect(circles.count == 1, "\(d.log)")
            let t0 = Date()
            while ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count < expectedRuns, Date().timeIntervalSince(t0) < 1 { usleep(10_000) }
            #expect(((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count == expectedRuns, "bound command late or missing:\n\(d.log)")
        }

        try replayOnce()
        #expect(sub.wait(for: 1, on: topic).count == 1)

        // Frozen: the TCP connection stays up but nothing is read.
        kill(broker.pid, SIGSTOP)
        try replayOnce()
        try replayOnce()
        kill(broker.pid, SIGCONT)
        #expect(sub.wait(for: 3, on: topic).count == 3, "\(d.log)")

        // Dead: five circles while it is gone; the queue keeps the last three. The first may have
        // gone to libmosquitto before the daemon saw the connection drop: then libmosquitto holds
        // it (QoS 1) and sends it on reconnection, and only one is dropped. Whichever happened,
        // every circle is either delivered or counted as dropped.
        try broker.persist()
        broker.kill()
        for _ in 1...5 { try replayOnce() }
        let down = try Self.mqttStatus(c)
        let dropped = down["dropped"] as? Int ?? -1
        #expect(down["connected"] as? Bool == false && down["queued"] as? Int == 3 && (1...2).contains(dropped), "\(down)")

        try broker.start()
        let delivered = 8 - dropped
        let after = sub.wait(for: delivered, on: topic, timeout: 15)
        #expect(after.count == delivered, "\(after)\n\(d.log)")
        usleep(500_000)
        #expect(sub.messages(on: topic).count == delivered)
        let up = try Self.mqttStatus(c)
        #expect(up["connected"] as? Bool == true && up["queued"] as? Int == 0 && up["dropped"] as? Int == dropped, "\(up)")
        // And new gestures flow again.
        try replayOnce()
        #expect(sub.wait(for: delivered + 1, on: topic).count == delivered + 1)
    }

    /// A broker that stops answering holds up neither commands nor the daemon's exit.
    @Test func aFrozenBrokerDoesNotHoldUpStopping() throws {
        let broker = try Broker()
        let prefix = "museum/kiosk8"
        let d = try DaemonHarness(config: Self.config(broker, prefix: prefix), replays: [DaemonHarness.circleRecording])
        #expect(try broker.receive(prefix + "/status") == ["online"], "\(d.log)")
        kill(broker.pid, SIGSTOP)
        defer { kill(broker.pid, SIGCONT) }
        let c = try d.connect()
        let t0 = Date()
        #expect(try c.command(#"{"status":true}"#)["status"] != nil)
        try d.replayAndWait(c)
        #expect(c.collectEvents(for: 0.2).contains { $0["gesture"] as? String == "circle" })
        d.signal(SIGTERM)
        #expect(d.waitForExit(timeout: 5) == 0, "\(d.log)")
        // The daemon waits at most 1 s for the broker to take `offline`.
        #expect(Date().timeIntervalSince(t0) < 3, "\(d.log)")
    }

    @Test func sigkillLeavesOfflineRetainedAndSigtermSaysSo() throws {
        let broker = try Broker()
        for (prefix, signal) in [("museum/kiosk5", SIGKILL), ("museum/kiosk6", SIGTERM)] {
            let d = try DaemonHarness(config: Self.config(broker, prefix: prefix), replays: [DaemonHarness.circleRecording])
            #expect(try broker.receive(prefix + "/status") == ["online"], "\(d.log)")
            d.signal(signal)
            #expect(d.waitForExit(timeout: 5) != nil)
            // Retained: a subscriber that comes later still learns the kiosk is gone.
            var status: [String] = []
            let deadline = Date().addingTimeInterval(5)
            repeat { status = try broker.receive(prefix + "/status", timeout: 1) } while status != ["offline"] && Date() < deadline
            #expect(status == ["offline"], "\(signal == SIGKILL ? "SIGKILL" : "SIGTERM"): \(status)\n\(d.log)")
        }
    }

    /// A message over the limit (64 KiB) is ignored before it is copied: no reply, no effect, one
    /// log line however many come; the next command that fits is obeyed as usual.
    @Test func aCommandOverThePayloadLimitIsIgnored() throws {
        let broker = try Broker()
        let prefix = "museum/kiosk47"
        let config = "[[mode]]\nname = \"normal\"\n[[mode]]\nname = \"locked\"\n"
        let sub = try Subscriber(broker, topic: prefix + "/#", id: "oversize")
        let d = try DaemonHarness(config: config + Self.config(broker, prefix: prefix), replays: [DaemonHarness.circleRecording])
        sub.wait(for: 1, on: prefix + "/status")
        // A valid command, padded past the limit with spaces JSON allows.
        let padded = #"{"mode":"locked"}"# + String(repeating: " ", count: 70_000)
        for _ in 1...3 { try broker.publish(prefix + "/command", padded) }
        try broker.publish(prefix + "/command", #"{"status":true}"#)
        let replies = sub.wait(for: 1, on: prefix + "/reply")
        usleep(300_000)
        #expect(sub.messages(on: prefix + "/reply").count == 1, "\(sub.messages(on: prefix + "/reply"))\n\(d.log)")
        #expect(Self.json(try #require(replies.first))["status"] != nil, "\(replies)")
        let c = try d.connect()
        #expect((try c.command(#"{"status":true}"#)["status"] as? [String: Any])?["mode"] as? String == "normal", "\(d.log)")
        let logged = d.log.split(separator: "\n").filter { $0.contains("bytes on \(prefix)/command ignored (at most 65536 bytes are taken)") }
        #expect(logged.count == 1, "\(d.log)")
    }
}
