import Foundation

/// µs per call of `body` called `count` times in a row (given the call's index, unique across
/// runs): the median of 3 runs, so a first run on cold caches does not count.
func microsecondsPerCall(_ count: Int, _ body: (Int) async throws -> Void) async throws -> Double {
    var runs: [Double] = []
    for run in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count { try await body(run * count + index) }
        runs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(count))
    }
    return runs.sorted()[1]
}
