/**
 * The OpenAPI 3.1 document, derived from the HttpApi description (never edited by hand), with the
 * configured server address. Parameters, bodies, responses and their headers, the 304 and the
 * security requirements are the endpoints' own (api/api.ts, api/security.ts); one transform
 * (`transform`, below) adds only what HttpApi cannot say. The per-status error classes share one
 * shape, so their components are folded into a single `Error` schema: one envelope, referenced by
 * every error response.
 */
import * as HttpApi from "effect/http-api/HttpApi"
import * as OpenApi from "effect/http-api/OpenApi"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { MarketplaceApi } from "../api/api.ts"
import { type DescribedSettings, describeApi } from "../api/description.ts"
import { type AppSettings, isEmbeddedIssuer, issuerOf } from "../config/settings.ts"
import { madeOnce } from "../read_cache.ts"

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

/** An operation of the document, as far as the transforms below read and change it. */
type Operation = {
  operationId?: string
  parameters?: Array<unknown>
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> }
  responses?: Record<string, { description?: string; headers?: Record<string, unknown>; content?: unknown }>
}

const operationsOf = (paths: Record<string, Record<string, Operation>>) =>
  Object.values(paths).flatMap((methods) => Object.values(methods))

/**
 * Request bodies are open: the service ignores members it does not know (a draft reports each as
 * an `unrecognized` warning), while Effect's OpenAPI derivation closes every object with
 * `additionalProperties: false`. Every schema a request body reaches — its members, items and
 * branches, and the components they refer to (a result's `Artifact`) — is opened, saying so
 * (`additionalProperties: true`), so the document does not call invalid what the service accepts. A component shared with a response (`Artifact`)
 * is open there too, which stays true of every response.
 */
const withOpenRequestBodies = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const schemas = structuredClone(spec.components.schemas) as Record<string, Record<string, unknown>>
  const opened = new Set<Record<string, unknown>>()
  const open = (schema: Record<string, unknown> | undefined) => {
    if (schema === undefined || opened.has(schema)) return
    opened.add(schema)
    if (schema.additionalProperties === false) schema.additionalProperties = true
    const ref = typeof schema.$ref === "string" ? schema.$ref.replace("#/components/schemas/", "") : undefined
    if (ref !== undefined) open(schemas[ref])
    const nested = [
      ...Object.values((schema.properties ?? {}) as Record<string, Record<string, unknown>>),
      ...((schema.anyOf ?? []) as Array<Record<string, unknown>>),
      ...((schema.oneOf ?? []) as Array<Record<string, unknown>>),
      ...((schema.allOf ?? []) as Array<Record<string, unknown>>),
      ...(typeof schema.items === "object" && schema.items !== null ? [schema.items as Record<string, unknown>] : [])
    ]
    for (const child of nested) open(child)
  }
  for (const operation of operationsOf(spec.paths as never)) {
    open(operation.requestBody?.content?.["application/json"]?.schema as Record<string, unknown> | undefined)
  }
  return { ...spec, components: { ...spec.components, schemas: schemas as never } }
}

const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({ description, schema })

/**
 * The headers the service's middlewares (server.ts) add to responses no endpoint produces itself,
 * which no endpoint can therefore declare. The headers an operation's own answer carries (a
 * task's ETag, a file's disposition) are declared by its success schema (api/api.ts).
 */
const responseHeaders = {
  "x-request-id": header(
    "The request's id (the caller's x-request-id when it is sane, else a new UUID); quote it in reports."
  ),
  "ratelimit-limit": header("Requests allowed per window for this client (when rate limiting is on).", {
    type: "integer"
  }),
  "ratelimit-remaining": header("Requests left in the current window.", { type: "integer" }),
  "ratelimit-reset": header("Seconds until the window resets.", { type: "integer" }),
  "retry-after": header("Seconds to wait before retrying.", { type: "integer" }),
  "www-authenticate": header('The credential expected: Bearer, with resource_metadata="…" (RFC 9728).'),
  allow: header("The methods this path accepts.")
} as const

type HeaderName = keyof typeof responseHeaders

/** The headers each response status carries, besides those every response carries. */
const headersByStatus: Record<string, ReadonlyArray<HeaderName>> = {
  "401": ["www-authenticate"],
  "405": ["allow"],
  "429": ["retry-after"],
  "503": ["retry-after"]
}

/** Every response documents the headers the middleware adds to it. Health checks are not rate limited. */
const withMiddlewareHeaders = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const paths = structuredClone(spec.paths) as Record<string, Record<string, Operation>>
  const ref = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` })
  for (const [path, methods] of Object.entries(paths)) {
    const limited = path !== "/healthz" && path !== "/readyz"
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const names: Array<HeaderName> = ["x-request-id"]
        if (limited) names.push("ratelimit-limit", "ratelimit-remaining", "ratelimit-reset")
        names.push(...(headersByStatus[status] ?? []))
        response.headers = { ...Object.fromEntries(names.map((name) => [name, ref(name)])), ...response.headers }
      }
    }
  }
  return {
    ...spec,
    paths: paths as OpenApi.OpenAPISpec["paths"],
    components: { ...spec.components, headers: responseHeaders } as OpenApi.OpenAPISpec["components"]
  }
}

/**
 * A query parameter travels as text, and HttpApi documents it by that text (a string and its
 * pattern); a parameter decoded to a number (api/parameters.ts) is documented by what it decodes
 * to instead — `limit` an integer from 1 to 500, `wait` a number from 0 to 60 — as OpenAPI means a
 * typed parameter: the value a client writes into the URL. Read from each endpoint's own query
 * schema, so the document cannot say other than what is decoded.
 */
const withTypedQueryParameters = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const typed = new Map<string, Record<string, unknown>>()
  HttpApi.reflect(MarketplaceApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (endpoint.query === undefined) return
      const { schema } = Schema.toJsonSchemaDocument(Schema.toType(endpoint.query))
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
      for (const [name, property] of Object.entries(properties)) {
        if (property.type !== "string") typed.set(`${endpoint.identifier} ${name}`, property)
      }
    }
  })
  const paths = structuredClone(spec.paths) as Record<string, Record<string, Operation>>
  for (const operation of operationsOf(paths)) {
    if (operation.parameters === undefined) continue
    operation.parameters = operation.parameters.map((parameter) => {
      const { name, in: where } = parameter as { name: string; in: string }
      const schema = where === "query" ? typed.get(`${operation.operationId} ${name}`) : undefined
      return schema === undefined ? parameter : { ...(parameter as object), schema }
    })
  }
  return { ...spec, paths: paths as OpenApi.OpenAPISpec["paths"] }
}

/**
 * A streamed request body (an upload's bytes) is documented by HttpApi as a fixed `binary` string,
 * without the payload's own description. The service refuses an empty file (400 invalid_request,
 * "The file is empty."), so the document says a file has at least one byte, and gives the
 * payload's description.
 */
const withStreamedBodies = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const described = new Map<string, string | undefined>()
  HttpApi.reflect(MarketplaceApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      for (const [contentType, payload] of endpoint.payload)
        if (payload.encoding._tag === "Stream")
          described.set(
            `${endpoint.identifier} ${contentType}`,
            SchemaAST.resolveDescription((payload.schemas[0] as Schema.Top).ast)
          )
    }
  })
  const paths = structuredClone(spec.paths) as Record<string, Record<string, Operation>>
  for (const operation of operationsOf(paths)) {
    for (const [contentType, media] of Object.entries(operation.requestBody?.content ?? {})) {
      const key = `${operation.operationId} ${contentType}`
      if (!described.has(key)) continue
      const description = described.get(key)
      const schema = (media as { schema?: Record<string, unknown> }).schema
      ;(media as { schema?: Record<string, unknown> }).schema = {
        ...schema,
        minLength: 1,
        ...(description === undefined ? {} : { description })
      }
    }
  }
  return { ...spec, paths: paths as OpenApi.OpenAPISpec["paths"] }
}

/** Every operation that names a task by the `reference` of the 201 that created it. */
const taskLinks = {
  getTask: {
    operationId: "getTask",
    parameters: { reference: "$response.body#/reference", "header.if-none-match": "$response.header.etag" },
    description: "Read the task; with this ETag as If-None-Match it is answered 304 until it changes."
  },
  cancelTask: {
    operationId: "cancelTask",
    parameters: { reference: "$response.body#/reference" },
    description: "Cancel it, with the task_token of this body as the taskToken bearer credential."
  },
  reviewTask: {
    operationId: "reviewTask",
    parameters: { reference: "$response.body#/reference" },
    description: "Review its submitted result, with the task_token of this body as the taskToken bearer credential."
  },
  listDeliveries: {
    operationId: "listDeliveries",
    parameters: { reference: "$response.body#/reference" },
    description: "Its webhook deliveries, with the task_token of this body as the taskToken bearer credential."
  }
} as const

/** The 201 of POST /tasks links to the operations on the task it created (OpenAPI links). */
const withTaskLinks = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const paths = structuredClone(spec.paths) as Record<string, Record<string, Operation>>
  for (const operation of operationsOf(paths)) {
    const created = operation.operationId === "createTask" ? operation.responses?.["201"] : undefined
    if (created !== undefined) Object.assign(created, { links: taskLinks })
  }
  return { ...spec, paths: paths as OpenApi.OpenAPISpec["paths"] }
}

/**
 * The participant's credential as what it is: an OAuth 2.1 access token, got by the authorization
 * code flow with PKCE (S256) (HttpApi's security schemes are HTTP, API key or basic, with no OAuth
 * flow). From the embedded authorization server, at its addresses (as its metadata names them,
 * operations/discovery.ts); from another issuer, found by its discovery document. OpenAPI has no
 * field for PKCE: the description says it, and `x-usePkce` asks tools that know it (Swagger UI)
 * to use it.
 */
const participantCredential = (settings: Pick<AppSettings, "publicBaseUrl" | "oauthIssuer">) => {
  const issuer = issuerOf(settings)
  const description =
    "An OAuth 2.1 access token of the authorization server named by /.well-known/oauth-protected-resource, got by the authorization code flow with PKCE (S256 only). The operator links the token's subject to a participant."
  if (!isEmbeddedIssuer(settings)) {
    return { type: "openIdConnect", description, openIdConnectUrl: `${issuer}/.well-known/openid-configuration` }
  }
  return {
    type: "oauth2",
    description,
    flows: {
      authorizationCode: {
        authorizationUrl: `${issuer}/auth`,
        tokenUrl: `${issuer}/token`,
        refreshUrl: `${issuer}/token`,
        scopes: {
          openid: "Sign in: the token's subject is the participant's account.",
          email: "The account's email address.",
          profile: "The account's name."
        }
      }
    },
    "x-usePkce": "SHA-256"
  }
}

/**
 * The one transform of the derived document, for what HttpApi cannot say: query parameters by
 * their decoded types, an upload's bytes as at least one, the OpenAPI links of a created task, the headers the global middleware adds,
 * request bodies that are open, the error classes folded into one envelope, and the participant's
 * credential as OAuth 2.0 (`participantCredential`, per deployment).
 */
const transform = (spec: OpenApi.OpenAPISpec) =>
  withTaskLinks(
    withStreamedBodies(withTypedQueryParameters(withMiddlewareHeaders(withOpenRequestBodies(foldErrorSchemas(spec)))))
  )

/** Derived on first use, not at start-up: most processes serve it rarely (docs/performance.md). */
const derived = madeOnce(() => transform(OpenApi.fromApi(MarketplaceApi)))

/**
 * The document this deployment serves: its server address, its authorization server, and the
 * description (the docs page's prose) stating its own timeouts and limits.
 */
export const openApiDocument = (
  settings: DescribedSettings & Pick<AppSettings, "publicBaseUrl" | "oauthIssuer">
): OpenApi.OpenAPISpec => {
  const document = derived()
  const securitySchemes = {
    ...document.components.securitySchemes,
    participantAccessToken: participantCredential(settings)
  } as unknown as OpenApi.OpenAPIComponents["securitySchemes"]
  return {
    ...document,
    info: { ...document.info, description: describeApi(settings) },
    components: { ...document.components, securitySchemes },
    servers: [{ url: settings.publicBaseUrl, description: "This deployment" }]
  }
}
