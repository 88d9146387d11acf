import Foundation

extension DownloadEndpoint where Self == DownloadRequest {
    /// A download of `path` to a file; with `resumingAt`, kept there so a failed download
    /// resumes where it stopped.
    public static func file(
        _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:], resumingAt resumableFileURL: URL? = nil
    ) -> Self {
        DownloadRequest(path: path, query: query, headers: headers, resumableFileURL: resumableFileURL)
    }
}
