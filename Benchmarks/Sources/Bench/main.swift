import Foundation

// bench [--quick]                         the full table
// bench loop CLIENT COUNT                 COUNT small GETs in a row with one client (for profilers)
// bench hammer CLIENT SECONDS CONCURRENCY  small GETs at a concurrency: req/s and CPU µs per request
//                                          (loop and hammer: BENCH_PATH="bytes?count=1048576" for 1 MB;
//                                          both also know "raw AHC delegate API + HTTPURLResponse",
//                                          "raw AHC future API + HTTPURLResponse", the streams and
//                                          the OpenAPI rows)
// bench paired A B SECONDS CONCURRENCY  two clients in alternating quarter-second phases: the
//                                          median ratio of neighbouring phases (throughput, CPU
//                                          per request), steady where a shared VM's speed drifts; each
//                                          with its own HTTPClient. "pipeline over raw AHC delegate API" is
//                                          EndpointKit's steps over a transport that sends as the raw row does
// bench latency | memory | allocations | cancellation | cache   one section of the table
// bench openapi [--quick]                a generated OpenAPI client on each transport
// bench overload [--quick]               a fleet of client processes against a failing dependency
// bench overload-child …                  one of them (run by the table)
// bench burst COUNT --server URL          COUNT GETs at once, then with 2 in 3 cancelled
// bench http2 H2URL H1URL               small GETs over HTTP/2 and HTTP/1.1 (TLS), both clients
//                                          (Scripts/bench-nginx.sh serves both: 8443 and 8444)
// bench stress [COUNT]                    10,000 calls against a faulty server, random cancels
// bench pipeline COUNT                    EndpointKit's own steps of a call: a transport that answers at once
//                                          (PIPELINE_ONCE=1: only with the Foundation response made once)
// bench pipeline-suspending COUNT WIDTH    the same steps, each call suspending once in its transport, WIDTH at once
// bench lines MB                          a streamed body split into lines, from memory
// bench memory-child SCENARIO URL BYTES   one memory scenario (run by the table in a child)
// bench alloc-child CLIENT URL COUNT       allocations of one client (run by the table in a child)
// bench serve SECONDS                      the in-process server alone, for a profiled client in another process
// bench smoke                              every row of the latency, OpenAPI and pipeline tables, for a moment
//                                          each: that they all run to the end (the README's test command runs it)
// --server URL                             loop, hammer, latency, openapi and allocations against a server out of this
//                                          process (serving `json`, a small JSON, and `bytes`,
//                                          1 MiB), instead of the in-process one
// BENCH_LOOPS=N (hammer, paired)           each HTTPClient on a group of N event loops of its own, not the
//                                          singleton group the in-process server shares (BENCH_CONNECTIONS:
//                                          the pool's soft limit, 64; BENCH_TRACING=off: no tracer)

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "memory-child", let url = URL(string: arguments[3]), let bytes = Int(arguments[4]) {
    try await MemoryScenario.run(arguments[2], baseURL: url, bytes: bytes)
    exit(0)
}

if arguments.count == 7, arguments[1] == "overload-child", let url = URL(string: arguments[4]), let seconds = Double(arguments[5]),
    let recoveryAt = UInt64(arguments[6])
{
    try await Overload.child(arguments[2], defence: arguments[3], url: url, seconds: seconds, recoveryAt: recoveryAt)
    exit(0)
}

if arguments.count == 5, arguments[1] == "alloc-child", let url = URL(string: arguments[3]), let count = Int(arguments[4]) {
    try await Allocations.child(name: arguments[2], baseURL: url, count: count)
    exit(0)
}

if arguments.count == 4, arguments[1] == "http2", let http2 = URL(string: arguments[2]), let http1 = URL(string: arguments[3]) {
    try await HTTP2.run(http2: http2, http1: http1, seconds: 3)
    exit(0)
}

if arguments.count == 3, arguments[1] == "lines", let megabytes = Int(arguments[2]) {
    try await LinesCost.run(megabytes: megabytes)
    exit(0)
}

if arguments.count == 4, arguments[1] == "pipeline-suspending", let count = Int(arguments[2]), let width = Int(arguments[3]) {
    try await PipelineCost.suspending(count: count, width: width)
    exit(0)
}

if arguments.count == 3, arguments[1] == "pipeline", let count = Int(arguments[2]) {
    try await PipelineCost.run(count: count)
    exit(0)
}

let quick = arguments.contains("--quick")
// `--server URL`: the server of the loop, hammer, latency, openapi and allocations sections, out of this process.
let outside = arguments.firstIndex(of: "--server").flatMap { $0 + 1 < arguments.count ? URL(string: arguments[$0 + 1]) : nil }
let positional = arguments.firstIndex(of: "--server").map { Array(arguments[..<$0]) + arguments[min($0 + 2, arguments.count)...] } ?? arguments
if let outside, positional.count == 4, positional[1] == "loop", let count = Int(positional[3]) {
    try await Latency.loop(client: positional[2], baseURL: outside, count: count)
    exit(0)
}
if let outside, positional.count == 5, positional[1] == "hammer", let seconds = Double(positional[3]), let concurrency = Int(positional[4]) {
    try await Latency.hammer(client: positional[2], baseURL: outside, seconds: seconds, concurrency: concurrency, serverInProcess: false)
    exit(0)
}
if let outside, positional.count == 6, positional[1] == "paired", let seconds = Double(positional[4]), let concurrency = Int(positional[5]) {
    try await Paired.run(positional[2], positional[3], baseURL: outside, seconds: seconds, concurrency: concurrency)
    exit(0)
}
if let outside, positional.count >= 3, positional[1] == "burst", let count = Int(positional[2]) {
    try await Burst.table(baseURL: outside, path: ProcessInfo.processInfo.environment["BENCH_PATH"] ?? "json", count: count)
    exit(0)
}
if let outside, positional.count >= 2, ["latency", "openapi", "allocations"].contains(positional[1]) {
    print("Against \(outside), out of this process")
    switch positional[1] {
    case "latency": try await Latency.run(baseURL: outside, seconds: 3)
    case "openapi": try await OpenAPIRows.run(baseURL: outside, seconds: quick ? 1 : 3)
    default: try Allocations.run(baseURL: outside)
    }
    exit(0)
}
let server = try await BenchServer.start()
if arguments.count == 3, arguments[1] == "serve", let seconds = Double(arguments[2]) {
    FileHandle.standardOutput.write(Data("\(server.baseURL)\n".utf8))
    try await Task.sleep(for: .seconds(seconds))
    exit(0)
}
if arguments.count == 2, arguments[1] == "smoke" {
    try await Latency.run(baseURL: server.baseURL, seconds: 0.02)
    try await OpenAPIRows.run(baseURL: server.baseURL, seconds: 0.02)
    try await PipelineCost.run(count: 100)
    await server.stop()
    exit(0)
}
if arguments.count == 4, arguments[1] == "loop", let count = Int(arguments[3]) {
    try await Latency.loop(client: arguments[2], baseURL: server.baseURL, count: count)
    exit(0)
}
if arguments.count == 5, arguments[1] == "hammer", let seconds = Double(arguments[3]), let concurrency = Int(arguments[4]) {
    try await Latency.hammer(client: arguments[2], baseURL: server.baseURL, seconds: seconds, concurrency: concurrency, serverInProcess: true)
    exit(0)
}
if arguments.count == 6, arguments[1] == "paired", let seconds = Double(arguments[4]), let concurrency = Int(arguments[5]) {
    try await Paired.run(arguments[2], arguments[3], baseURL: server.baseURL, seconds: seconds, concurrency: concurrency)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "latency" {
    try await Latency.run(baseURL: server.baseURL, seconds: 3)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "memory" {
    try MemoryScenario.table(baseURL: server.baseURL, bytes: quick ? 256 << 20 : 1 << 30)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "allocations" {
    try Allocations.run(baseURL: server.baseURL)
    try MonitorCost.run(baseURL: server.baseURL)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "cancellation" {
    try await Cancellation.run(baseURL: server.baseURL, rounds: 100)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "cache" {
    try await CacheCost.run(baseURL: server.baseURL, quick: quick)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "openapi" {
    try await OpenAPIRows.run(baseURL: server.baseURL, seconds: quick ? 1 : 3)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "overload" {
    try await Overload.run(seconds: quick ? 3 : 10)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "stress" {
    try await Stress.run(baseURL: server.baseURL, count: arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000)
    exit(0)
}
print("EndpointKit benchmarks: release build, loopback server on \(server.baseURL), \(ProcessInfo.processInfo.activeProcessorCount) cores\n")

try MemoryScenario.table(baseURL: server.baseURL, bytes: quick ? 256 << 20 : 1 << 30)

print("\nThroughput against raw URLSession (median of rounds, measured alternately in this run)")
print("  transfer                        raw URLSession   EndpointKit   ratio")
for row in try await Throughput.run(baseURL: server.baseURL, rounds: quick ? 2 : 5) {
    print("  " + row.name.padding(toLength: 30, withPad: " ", startingAt: 0)
        + String(format: "%11.0f MB/s %10.0f MB/s %7.2f", row.baseline, row.measured, row.ratio))
}
try await Latency.run(baseURL: server.baseURL, seconds: quick ? 1 : 3)
try await PipelineCost.run(count: quick ? 10_000 : 100_000)
try await Cancellation.run(baseURL: server.baseURL, rounds: quick ? 20 : 100)
try await CacheCost.run(baseURL: server.baseURL, quick: quick)
try Allocations.run(baseURL: server.baseURL)
try MonitorCost.run(baseURL: server.baseURL)
try await OpenAPIRows.run(baseURL: server.baseURL, seconds: quick ? 1 : 3)
try await Overload.run(seconds: quick ? 3 : 10)
await server.stop()
