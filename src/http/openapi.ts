/**
 * The OpenAPI 3.1 document, derived from the HttpApi description (never edited by hand), with the
 * configured server address. The per-status error classes share one shape, so their components
 * are folded into a single `Error` schema: one envelope, referenced by every error response.
 */
import * as OpenApi from "effect/http-api/OpenApi"
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

/** Operations that take a credential, by the party that presents it. */
const agentOperations = ["/api/public/v1/tasks/{reference}/cancel", "/api/public/v1/tasks/{reference}/review"]
const participantOperations = [
  "/api/public/v1/me",
  "/api/public/v1/me/tasks",
  "/api/public/v1/tasks/{reference}/accept",
  "/api/public/v1/tasks/{reference}/decline",
  "/api/public/v1/tasks/{reference}/start",
  "/api/public/v1/tasks/{reference}/submit"
]

/**
 * The two bearer credentials, as security schemes: the task token (agent) and the OAuth 2.1
 * access token (participant). Handlers check them themselves; this documents them.
 */
const withSecurity = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const paths = structuredClone(spec.paths) as Record<string, Record<string, { security?: unknown }>>
  const secure = (list: ReadonlyArray<string>, scheme: string) => {
    for (const path of list)
      for (const operation of Object.values(paths[path] ?? {})) operation.security = [{ [scheme]: [] }]
  }
  secure(agentOperations, "taskToken")
  secure(participantOperations, "participantAccessToken")
  return {
    ...spec,
    paths: paths as OpenApi.OpenAPISpec["paths"],
    components: {
      ...spec.components,
      securitySchemes: {
        ...spec.components.securitySchemes,
        taskToken: {
          type: "http",
          scheme: "bearer",
          description: "The task_token from the 201 response that created the task."
        },
        participantAccessToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "An OAuth 2.1 access token of the authorization server named by /.well-known/oauth-protected-resource."
        }
      }
    }
  }
}

// Derived on first use, not at start-up (deriving it is ~8% of start-up; most processes serve it rarely).
let document: OpenApi.OpenAPISpec | undefined

export const openApiDocument = (publicBaseUrl: string): OpenApi.OpenAPISpec => {
  document ??= withSecurity(foldErrorSchemas(OpenApi.fromApi(MarketplaceApi)))
  return { ...document, servers: [{ url: publicBaseUrl, description: "This deployment" }] }
}
