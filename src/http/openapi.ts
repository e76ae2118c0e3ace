/**
 * The OpenAPI 3.1 document, derived from the HttpApi description (never edited by hand), with the
 * configured server address. The per-status error classes share one shape, so their components
 * are folded into a single `Error` schema: one envelope, referenced by every error response.
 */
import { OpenApi } from "effect/http-api"
import { MarketplaceApi } from "../api/api.ts"

const envelopeShape = JSON.stringify({
  type: "object",
  properties: { error: { $ref: "#/components/schemas/ErrorBody" } },
  required: ["error"],
  additionalProperties: false
})

const foldErrorSchemas = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const schemas = { ...spec.components.schemas }
  const folded = Object.keys(schemas).filter((name) => JSON.stringify(schemas[name]) === envelopeShape)
  for (const name of folded) delete schemas[name]
  schemas.Error = { ...JSON.parse(envelopeShape), description: "Every error is this JSON envelope." }
  let text = JSON.stringify({ ...spec, components: { ...spec.components, schemas } })
  for (const name of folded) text = text.replaceAll(`"#/components/schemas/${name}"`, '"#/components/schemas/Error"')
  return JSON.parse(text)
}

const document = foldErrorSchemas(OpenApi.fromApi(MarketplaceApi))

export const openApiDocument = (publicBaseUrl: string): OpenApi.OpenAPISpec => ({
  ...document,
  servers: [{ url: publicBaseUrl, description: "This deployment" }]
})
