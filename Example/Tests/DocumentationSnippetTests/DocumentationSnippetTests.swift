import XCTest

/// The code samples of README.md and Documentation/ are compiled into this target:
/// `Scripts/snippets.py` writes them next to this file (as `Generated-*.swift`, not committed)
/// before `Scripts/test.sh` runs the example's tests, so a sample that stops compiling fails
/// the test command. Samples are compiled, not run: they call APIs that do not exist.
final class DocumentationSnippetTests: XCTestCase {
    func testTheSamplesWereGenerated() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("Generated-") }
        try XCTSkipIf(files.isEmpty, "run Scripts/snippets.py first (Scripts/test.sh does)")
        XCTAssertGreaterThanOrEqual(files.count, 10, "one file per page with samples")
    }
}
