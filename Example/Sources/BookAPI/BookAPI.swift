// The book API's client is generated from openapi.yaml by swift-openapi-generator's build
// plugin (types and client, public). `book-demo openapi` runs it on EndpointKitTransport.
