static let client: any Client = URLSessionClient(baseURL: URL(fileURLWithPath: "/"))
static let jpeg = URL(fileURLWithPath: "/tmp/cover.jpg")
static let exportsFolder = URL(fileURLWithPath: "/tmp")
static let endpoint = UploadCover(bookID: 1, file: jpeg)
@Sendable static func cursorRows() -> AsyncThrowingStream<Data, any Error> {
    AsyncThrowingStream { $0.yield(Data("1,Dune\n".utf8)); $0.finish() }
}
