import ArgumentParser
import BookKit
import Foundation

/// `book-demo upload-cover ID FILE`
struct UploadCover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload-cover", abstract: "Upload an image file as a book's cover, with a progress bar.")
    @OptionGroup var options: Options
    @Argument(help: "The book's id.") var id: Int
    @Argument(help: "The image file (png, jpg, gif or webp).") var file: String

    func validate() throws {
        guard FileManager.default.isReadableFile(atPath: file) else { throw ValidationError("cannot read \(file)") }
    }

    func run() async throws {
        try await options.run { session in
            let url = URL(fileURLWithPath: file)
            let bar = ProgressBar("uploading", .upload, enabled: !options.json)
            try await session.books.uploadCover(id: id, from: url, progress: bar.update)
            bar.finish()
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            session.output.print(["book": id, "bytes": size]) { "uploaded \(size) bytes as the cover of book \(id)" }
        }
    }
}

/// `book-demo download-cover ID [--output FILE]`
struct DownloadCover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download-cover", abstract: "Download a book's cover to a file, with a progress bar.")
    @OptionGroup var options: Options
    @Argument(help: "The book's id.") var id: Int
    @Option(help: "Where to write it (default: cover-ID in the current directory).") var output: String?

    func run() async throws {
        try await options.run { session in
            let destination = URL(fileURLWithPath: output ?? "cover-\(id)")
            let bar = ProgressBar("downloading", .download, enabled: !options.json)
            let file = try await session.books.downloadCover(id: id, to: destination, progress: bar.update)
            bar.finish()
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            session.output.print(["book": "\(id)", "file": file.path, "bytes": "\(size)"]) { "saved the cover of book \(id) to \(file.path) (\(size) bytes)" }
        }
    }
}
