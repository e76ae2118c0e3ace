/**
 * The OpenAPI 3.1 document, derived from the HttpApi description (never edited by hand), with the
 * configured server address; its security schemes come from the security middleware (api/security.ts). The per-status error classes share one shape, so their components
 * are folded into a single `Error` schema: one envelope, referenced by every error response.
 */
import * as OpenApi from "effect/http-api/OpenApi"
import { MarketplaceApi } from "../api/api.ts"
import { type DescribedSettings, describeApi } from "../api/description.ts"

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

/** The response headers the service sends (the middlewares in server.ts and the task handlers set them). */
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
  allow: header("The methods this path accepts."),
  etag: header(
    "A task's version (send it back as If-None-Match to be answered 304 while nothing changed); a file's SHA-256."
  ),
  location: header("The new task's URL."),
  "content-disposition": header("attachment, with the file's name (RFC 6266, the name in RFC 8187's UTF-8 form)."),
  "content-length": header("The file's size in bytes.", { type: "integer" }),
  "x-content-type-options": header("nosniff: the file is never read as another type.", {
    type: "string",
    enum: ["nosniff"]
  }),
  "content-security-policy": header("default-src 'none'; sandbox: a file opened anyway runs nothing."),
  "cache-control": header("private, no-store: no cache keeps a participant's file."),
  "idempotent-replayed": header("true when this 201 replays an earlier submission with the same idempotency key.", {
    type: "string",
    enum: ["true"]
  })
} as const

type HeaderName = keyof typeof responseHeaders

/** The headers each response status carries, besides those every response carries. */
const headersByStatus: Record<string, ReadonlyArray<HeaderName>> = {
  "401": ["www-authenticate"],
  "405": ["allow"],
  "429": ["retry-after"],
  "503": ["retry-after"]
}

/** The headers of each operation's successful answer. */
const headersByOperation: Record<string, ReadonlyArray<HeaderName>> = {
  createTask: ["location", "etag", "idempotent-replayed"],
  getTask: ["etag"],
  downloadArtifact: [
    "content-length",
    "content-disposition",
    "etag",
    "x-content-type-options",
    "content-security-policy",
    "cache-control"
  ]
}

/**
 * Every response documents the headers it carries, and GET /tasks/{reference} its conditional
 * form: the If-None-Match request header and the 304 answer. Health checks are not rate limited.
 */
const withHeaders = (spec: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const paths = structuredClone(spec.paths) as Record<string, Record<string, Operation>>
  const ref = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` })
  for (const [path, methods] of Object.entries(paths)) {
    const limited = path !== "/healthz" && path !== "/readyz"
    for (const operation of Object.values(methods)) {
      const own = headersByOperation[operation.operationId ?? ""] ?? []
      if (operation.operationId === "getTask") {
        operation.parameters = [
          ...(operation.parameters ?? []),
          {
            name: "if-none-match",
            in: "header",
            required: false,
            description: "The ETag of the last read: an unchanged task is answered 304 with no body.",
            schema: { type: "string" }
          }
        ]
        operation.responses = {
          ...operation.responses,
          "304": { description: "Not Modified: the task is as the ETag named it." }
        }
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const names: Array<HeaderName> = ["x-request-id"]
        if (limited) names.push("ratelimit-limit", "ratelimit-remaining", "ratelimit-reset")
        names.push(...(headersByStatus[status] ?? []))
        if (status.startsWith("2") || status === "304") names.push(...own)
        response.headers = Object.fromEntries(names.map((name) => [name, ref(name)]))
      }
    }
  }
  return {
    ...spec,
    paths: paths as OpenApi.OpenAPISpec["paths"],
    components: { ...spec.components, headers: responseHeaders } as OpenApi.OpenAPISpec["components"]
  }
}

// Derived on first use, not at start-up (deriving it is ~8% of start-up; most processes serve it rarely).
let document: OpenApi.OpenAPISpec | undefined

/**
 * The document this deployment serves: its server address, and the description (the docs page's
 * prose) stating its own timeouts and limits.
 */
export const openApiDocument = (
  settings: DescribedSettings & { readonly publicBaseUrl: string }
): OpenApi.OpenAPISpec => {
  document ??= withHeaders(withOpenRequestBodies(foldErrorSchemas(OpenApi.fromApi(MarketplaceApi))))
  return {
    ...document,
    info: { ...document.info, description: describeApi(settings) },
    servers: [{ url: settings.publicBaseUrl, description: "This deployment" }]
  }
}
