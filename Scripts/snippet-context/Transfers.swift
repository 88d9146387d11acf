static let client: any Client = URLSessionClient(baseURL: URL(fileURLWithPath: "/"))
static let jpeg = URL(fileURLWithPath: "/tmp/cover.jpg")
static let exportsFolder = URL(fileURLWithPath: "/tmp")
static let endpoint = UploadCover(bookID: 1, file: jpeg)
