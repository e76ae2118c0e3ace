/**
 * Runs the real HTTP server on a free loopback port for a test file, with the settings (and, when
 * a test needs it, the service layers) it chooses.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Exit, Layer, References, Schema, Scope } from "effect"
import { type AppServices, ServerServicesLayer, serveOn } from "../../src/app.ts"
import type { AppConfig } from "../../src/config/app_config.ts"
import type { AppSettings } from "../../src/config/settings.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { makeNodeServer } from "../../src/http/server.ts"
import { asPayload, exchange } from "./api_client.ts"
import { backend, freshDatabase, type TestDatabase } from "./database.ts"
import { freePort } from "./process.ts"
import { testConfig } from "./settings.ts"

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string
  readonly api: (path: string) => string
  readonly close: () => Promise<void>
}

export interface StartOptions {
  /** A database the caller owns (and drops); by default each server gets a fresh one it drops on close. */
  readonly database?: TestDatabase
  readonly settings?: Partial<AppSettings>
  /** Replaces the production services (defaults to the real ones over the configured database). */
  readonly services?: Layer.Layer<AppServices, unknown, AppConfig>
  /** Where the server's logs (warnings and errors) go, e.g. `captureLogs().layer`; by default nowhere. */
  readonly logs?: Layer.Layer<never>
  /** The server's clock, e.g. `movableClock().layer` (support/clock.ts); by default the real one. */
  readonly clock?: Layer.Layer<never>
}

export const startServer = async (options: StartOptions = {}): Promise<TestServer> => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  // SQLite in memory is fresh by construction; on Postgres each server gets its own database.
  const owned = options.database === undefined && backend === "postgres" ? await freshDatabase() : undefined
  const database = options.database ?? owned
  // Uploaded files go beside a SQLite file (in its temporary directory) or, on Postgres, under the
  // working directory: each server on Postgres gets a temporary directory of its own instead.
  const artifactDirectory =
    database?.config._tag === "Postgres" && options.settings?.artifacts === undefined
      ? mkdtempSync(join(tmpdir(), "tm-artifacts-"))
      : undefined
  const config = testConfig({
    ...(database === undefined ? {} : { database: database.config }),
    ...(artifactDirectory === undefined
      ? {}
      : {
          artifacts: {
            store: { _tag: "Files", directory: artifactDirectory },
            maxFileBytes: 25 * 1024 * 1024,
            maxFiles: 10
          }
        }),
    port,
    publicBaseUrl: url,
    docsUrl: `${url}/docs`,
    mcpUrl: `${url}/mcp`,
    mcpAllowedOrigins: [url],
    oauthAudience: `${url}/api/public/v1`,
    ...options.settings
  })
  const server = serveOn(
    NodeHttpServer.layer(() => makeNodeServer(`${url}/docs`, options.settings?.httpTimeouts), {
      port,
      host: "127.0.0.1"
    }),
    (options.services ?? ServerServicesLayer) as typeof ServerServicesLayer
  ).pipe(Layer.provide(options.clock === undefined ? config : Layer.merge(config, options.clock)))
  const scope = Effect.runSync(Scope.make())
  await Effect.runPromise(
    (options.logs === undefined
      ? Layer.buildWithScope(server, scope).pipe(Effect.provideService(References.MinimumLogLevel, "None"))
      : Layer.buildWithScope(server, scope).pipe(
          Effect.provide(options.logs),
          Effect.provideService(References.MinimumLogLevel, "Warn")
        )) as Effect.Effect<unknown, unknown, never>
  )
  return {
    url,
    api: (path) => `${url}/api/public/v1${path}`,
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await owned?.drop()
      if (artifactDirectory !== undefined) rmSync(artifactDirectory, { recursive: true, force: true })
    }
  }
}

export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body)
})

/**
 * Submits a draft to `tasksUrl` (POST /tasks, through the typed client: a draft the document
 * accepts, sent as written), expects 201, and returns the new task's reference and token. Headers
 * other than Idempotency-Key (a traceparent, say) go as given.
 */
export const submitTask = async (
  tasksUrl: string,
  draft: Record<string, unknown>,
  headers: Record<string, string> = {}
): Promise<{ reference: string; token: string }> => {
  const { "idempotency-key": idempotencyKey, ...others } = headers
  const response = await exchange(
    { url: new URL(tasksUrl).origin },
    (c) =>
      c.createTask({
        payload: asPayload(TaskDraft, draft),
        headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }
      }),
    { headers: others }
  )
  const text = await response.text()
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${text}`)
  const { reference, task_token: token } = JSON.parse(text) as { reference: string; task_token: string }
  return { reference, token }
}

/** A complete, valid draft; override members per test. */
export const validDraft = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  action: "Photograph the storefront of Bäckerei Sonne, Torstraße 12",
  execution_mode: "physical",
  location: "Berlin, Germany",
  timing: "2030-12-01T17:00:00Z",
  expected_result: "Five geotagged photos of the storefront and opening-hours sign, plus a JSON checklist",
  acceptance_test: "The photos show the shop sign and the opening hours legibly",
  principal: "ACME Retail Research GmbH",
  agent: "acme-research-bot/2.1",
  ...overrides
})

/** A digital draft (testing a web shop's checkout) that digital participants can take, or be named for. */
export const digitalDraft = (overrides: Record<string, unknown> = {}): Record<string, unknown> =>
  validDraft({
    action: "Test the checkout flow of our web shop on a mobile phone and report every bug",
    execution_mode: "digital",
    location: undefined,
    expected_result: "A list of bugs with steps to reproduce and screenshots",
    acceptance_test: "Every bug listed can be reproduced from its steps",
    ...overrides
  })

/** Asserts the published error envelope and returns its body. */
export const expectEnvelope = async (response: Response, status: number, code: string) => {
  const text = await response.text()
  if (response.status !== status) throw new Error(`expected ${status} ${code}, got ${response.status}: ${text}`)
  if (!response.headers.get("content-type")?.includes("application/json")) {
    throw new Error(`expected JSON, got ${response.headers.get("content-type")}: ${text.slice(0, 200)}`)
  }
  const body = JSON.parse(text)
  const error = body.error
  if (error?.code !== code) throw new Error(`expected code ${code}, got ${text}`)
  if (error.status !== status) throw new Error(`error.status ${error.status} != ${status}`)
  if (typeof error.message !== "string" || error.message === "") throw new Error("error.message missing")
  if (typeof error.documentation_url !== "string" || !/^https?:\/\//.test(error.documentation_url)) {
    throw new Error("error.documentation_url must be an absolute URI")
  }
  const allowed = new Set(["code", "message", "status", "hint", "details", "documentation_url"])
  for (const key of Object.keys(error)) if (!allowed.has(key)) throw new Error(`unexpected envelope member ${key}`)
  if (Object.keys(body).length !== 1) throw new Error(`unexpected top-level members: ${Object.keys(body)}`)
  return error as {
    code: string
    message: string
    status: number
    hint?: string
    details?: Array<{ field: string; code: string; message: string }>
  }
}

/**
 * Why a JSON body is not exactly an instance of `schema` (a member more, one missing or of the
 * wrong shape, or a value the schema would decode differently), or undefined when it is. For
 * answers the handlers make as JSON themselves while the API declares their schema.
 */
export const notExactly = (schema: Schema.Top, body: unknown): string | undefined => {
  try {
    const decoded = Schema.decodeUnknownSync(schema as Schema.Codec<unknown>)(body, { onExcessProperty: "error" })
    return isDeepStrictEqual(decoded, body) ? undefined : "decodes to a different value"
  } catch (cause) {
    return String(cause).slice(0, 300)
  }
}

/** A server on a durable database of its own, which the test can also read (and link accounts in). */
export interface ServerOnDatabase {
  readonly server: TestServer
  readonly database: TestDatabase
  /** Closes the server, then drops the database. */
  readonly close: () => Promise<void>
}

export const startOnFreshDatabase = async (options: Omit<StartOptions, "database"> = {}): Promise<ServerOnDatabase> => {
  const database = await freshDatabase()
  const server = await startServer({ ...options, database })
  return {
    server,
    database,
    close: async () => {
      await server.close()
      await database.drop()
    }
  }
}

/**
 * Reads a task (GET `taskUrl`, `/tasks/{reference}`, through the typed client) until `until`
 * holds, or fails after `timeoutMs` saying where it stayed: first as it is, then long-polling with
 * its ETag, so that each poll answers at the task's next change. (A poll without If-None-Match
 * waits for a change even when the task is already as awaited: `?wait=1` alone costs a second a
 * call.)
 */
export const awaitTask = async (
  taskUrl: string,
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
  until: (task: any) => boolean,
  { timeoutMs = 15_000 }: { readonly timeoutMs?: number } = {}
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
): Promise<any> => {
  const url = new URL(taskUrl)
  const reference = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf("/") + 1))
  const deadline = Date.now() + timeoutMs
  let etag: string | null = null
  let last: unknown
  for (;;) {
    const response: Response = await exchange({ url: url.origin }, (c) =>
      c.getTask({
        params: { reference },
        query: etag === null ? {} : { wait: 1 },
        headers: etag === null ? {} : { "if-none-match": etag }
      })
    )
    if (response.status === 200) {
      etag = response.headers.get("etag")
      last = await response.json()
      if (until(last)) return last
    } else if (response.status !== 304) {
      throw new Error(`GET ${taskUrl}: ${response.status} ${await response.text()}`)
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting; the task is ${JSON.stringify(last)}`)
  }
}
