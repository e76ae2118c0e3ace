/**
 * The OpenAPI 3.1 document, derived from the HttpApi description (never edited by hand), with the
 * configured server address.
 */
import { OpenApi } from "effect/http-api"
import { MarketplaceApi } from "../api/api.ts"

export const openApiDocument = (publicBaseUrl: string): OpenApi.OpenAPISpec => ({
  ...OpenApi.fromApi(MarketplaceApi),
  servers: [{ url: publicBaseUrl, description: "This deployment" }]
})
