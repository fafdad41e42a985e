@testable import Daemon
import Testing

/// The relay's request to the command runner: what crosses, and what a runner refuses.
struct RunnerRequestTests {
    @Test func aRequestComesBackAsItWasSent() throws {
        let r = RunnerRequest(argv: ["/bin/sh", "-c", "echo \"a b\"\nnext line", ""], variables: ["GESTURE_NAME=circle", "GESTURE_REGION="])
        let bytes = r.encoded()
        let decoded = try #require(try RunnerRequest.decode(bytes))
        #expect(decoded.request == r)
        #expect(decoded.length == bytes.count)
        // Whatever follows the request (the first `signal` line) is left for the lines after it.
        let more = try #require(try RunnerRequest.decode(bytes + Array("signal 15\n".utf8)))
        #expect(more.length == bytes.count)
    }

    @Test func anIncompleteRequestWaitsForMore() throws {
        let bytes = RunnerRequest(argv: ["/bin/true"], variables: ["GESTURE_NAME=tap"]).encoded()
        for cut in 0..<bytes.count { #expect(try RunnerRequest.decode(Array(bytes[..<cut])) == nil, "cut at \(cut)") }
    }

    @Test(arguments: [
        ("v" + "LD_PRELOAD=/tmp/x.so\0\0", "not a gesture's"),
        ("a/bin/true\0vGESTURE_=x\0\0", "not a gesture's"),
        ("a/bin/true\0vGESTURE_name=x\0\0", "not a gesture's"),
        ("a/bin/true\0vGESTURE_NAME\0\0", "not a gesture's"),
        ("\0", "no program"),
        ("a\0\0", "an empty program name"),
        ("x/bin/true\0\0", "neither an argument nor a variable"),
    ])
    func aRequestNoRelaySendsIsRefused(_ text: String, _ why: String) throws {
        let refusal = try requireThrown(RunnerRequest.Refusal.self) { _ = try RunnerRequest.decode(Array(text.utf8)) }
        #expect(refusal.description.contains(why), "\(refusal)")
    }

    @Test func everyLimitIsARefusal() throws {
        let arguments = RunnerRequest(argv: Array(repeating: "x", count: RunnerRequest.maxArguments + 1), variables: [])
        #expect(try requireThrown(RunnerRequest.Refusal.self) { _ = try RunnerRequest.decode(arguments.encoded()) }.description
            .contains("arguments"))
        let variables = RunnerRequest(argv: ["/bin/true"], variables: Array(repeating: "GESTURE_X=1", count: RunnerRequest.maxVariables + 1))
        #expect(try requireThrown(RunnerRequest.Refusal.self) { _ = try RunnerRequest.decode(variables.encoded()) }.description
            .contains("variables"))
        // A request that never ends is refused once it passes the byte limit, not read forever.
        let endless = Array(("a" + String(repeating: "y", count: RunnerRequest.maxBytes)).utf8)
        #expect(try requireThrown(RunnerRequest.Refusal.self) { _ = try RunnerRequest.decode(endless) }.description.contains("bytes"))
    }

    @Test func insideTheServiceACommandRunsOnlyThroughTheRunner() throws {
        #expect(CommandLaunch.forThisProcess(environment: [:]) == .direct)
        guard case .refused(let why) = CommandLaunch.forThisProcess(environment: ["GESTURED_GRANTS": "uinput,network"]) else {
            Issue.record("a service without the grant started commands itself"); return
        }
        #expect(why.contains("systemctl daemon-reload"))
        guard case .runner(let exe, let socket) = CommandLaunch.forThisProcess(environment: ["GESTURED_GRANTS": "commands"]) else {
            Issue.record("a service with the grant did not use the runner"); return
        }
        #expect(socket == ServiceGrant.runnerSocket && exe.hasPrefix("/"))
        guard case .runner(_, let other) = CommandLaunch.forThisProcess(environment: ["GESTURED_COMMAND_RUNNER": "/tmp/r.sock"]) else {
            Issue.record("the runner's socket variable was ignored"); return
        }
        #expect(other == "/tmp/r.sock")
        #expect(try CommandLaunch.runner(executable: "/usr/bin/gestured", socket: "/s").arguments(for: ["/bin/sh", "-c", "x"])
            == ["/usr/bin/gestured", "relay-command", "/s", "--", "/bin/sh", "-c", "x"])
    }
}
