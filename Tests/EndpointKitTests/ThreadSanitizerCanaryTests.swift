import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Thread Sanitizer's suppressions (Scripts/tsan-suppressions.txt) hide only the Swift runtime's
/// known false positive: a real race inside a continuation's body, checked or unsafe, is still
/// reported. The test re-runs this binary as a child that races on purpose, with this run's
/// TSAN_OPTIONS, and reads the child's report.
final class ThreadSanitizerCanaryTests: XCTestCase {
    /// Shared on purpose without a lock: the race the child makes.
    final class Unguarded: @unchecked Sendable {
        var value = 0
    }

    func testARaceInsideAContinuationBodyIsReported() throws {
        #if os(Linux)
            guard dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil else {
                throw XCTSkip("this test binary is not built with Thread Sanitizer")
            }
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["EndpointKitTests.ThreadSanitizerCanaryTests/testChildRacesInsideAContinuation"]
            // The same TSAN_OPTIONS, so the same suppressions, as this run.
            child.environment = ProcessInfo.processInfo.environment.merging(["TSAN_CANARY": "1"]) { $1 }
            let report = Pipe()
            child.standardError = report
            child.standardOutput = FileHandle.nullDevice
            try child.run()
            let text = String(decoding: report.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            let lines = text.split(separator: "\n")
            let warnings = lines.filter { $0.contains("WARNING: ThreadSanitizer:") }
            // One race in a withCheckedContinuation body, one in a withUnsafeContinuation body.
            XCTAssertEqual(warnings.count, 2, "the deliberate races were not both reported:\n\(text)")
            XCTAssertTrue(text.contains("withCheckedContinuation") && text.contains("withUnsafeContinuation"), text)
            XCTAssertNotEqual(child.terminationStatus, 0, "a reported race fails the child")
            print("Thread Sanitizer canary: \(warnings.count) of 2 deliberate races reported: \(warnings.first ?? "")")
        #else
            throw XCTSkip("re-runs the test binary, which is an executable on Linux only")
        #endif
    }

    /// The child of the test above: runs only when started by it.
    func testChildRacesInsideAContinuation() async throws {
        guard ProcessInfo.processInfo.environment["TSAN_CANARY"] != nil else {
            throw XCTSkip("the child process of testARaceInsideAContinuationBodyIsReported")
        }
        let checked = Unguarded()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                checked.value += 1
                continuation.resume()
            }
            checked.value += 1
        }
        let unsafe = Unguarded()
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            Thread.detachNewThread {
                unsafe.value += 1
                continuation.resume()
            }
            unsafe.value += 1
        }
    }
}
