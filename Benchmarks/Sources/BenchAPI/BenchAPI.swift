// The benchmark API client is generated from openapi.yaml by swift-openapi-generator.
