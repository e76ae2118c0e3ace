/**
 * Every setting of the service, typed, read once from the environment with defaults.
 *
 * A bad value stops start-up with a message naming the variable and what it accepts, rather than
 * surfacing later as a confusing runtime error.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

export type DatabaseConfig =
  | { readonly _tag: "Sqlite"; readonly filename: string }
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string> }

export interface AppSettings {
  readonly port: number
  readonly host: string
  readonly database: DatabaseConfig
  /** Absolute base of every `url` member, without a trailing slash. */
  readonly publicBaseUrl: string
  readonly logLevel: "All" | "Trace" | "Debug" | "Info" | "Warn" | "Error" | "Fatal" | "None"
  /** Base of `documentation_url` members; defaults to `<publicBaseUrl>/docs`. */
  readonly docsUrl: string
  /** Address of the optional MCP interface announced in the service index. */
  readonly mcpUrl: string
  /** OAuth authorization server(s) named by the protected-resource metadata (RFC 9728). */
  readonly oauthIssuer: string | undefined
  /** Secret the task tokens are derived from; when absent one is generated and kept in the database. */
  readonly taskTokenSecret: Redacted.Redacted<string> | undefined
  /** Whether to load the sample catalogue into an empty participant directory. */
  readonly seedSampleCatalogue: boolean
  /** Expected `aud` of participants' access tokens (defaults to the API's base URL). */
  readonly oauthAudience: string
  /** Where the issuer's signing keys are; discovered from the issuer's metadata when unset. */
  readonly oauthJwksUri: string | undefined
  /** How long a participant has to accept an offer. */
  readonly offerTimeoutMs: number
  /** How long the agent has to review a result before it is accepted automatically. */
  readonly reviewWindowMs: number
  /** How often each process sweeps for due timers (they are also swept right after a change). */
  readonly timerSweepMs: number
  /** Per-client request limits (DECISIONS §11); `undefined` when RATE_LIMIT=off. */
  readonly rateLimit: RateLimitSettings | undefined
  /** Where rate-limit counters live when several processes must share them; in-process otherwise. */
  readonly redisUrl: Redacted.Redacted<string> | undefined
  /** Prefix of every key this service writes to Redis (several deployments may share one). */
  readonly redisKeyPrefix: string
  /** How long a client may take to send a request, and to stay idle between requests (DECISIONS §11). */
  readonly httpTimeouts: HttpTimeouts
  /** Where spans are exported (OTLP over HTTP, JSON); `undefined` when no collector is configured. */
  readonly tracing: TracingSettings | undefined
}

/** The OpenTelemetry exporter settings, read from the standard `OTEL_*` variables. */
export interface TracingSettings {
  /** The collector's traces address, e.g. http://collector:4318/v1/traces. */
  readonly url: string
  readonly serviceName: string
  /** Sent with every export (often a collector's API key): never logged. */
  readonly headers: Redacted.Redacted<Record<string, string>>
  /** How often finished spans are sent. */
  readonly exportIntervalMs: number
  /** Which traces are recorded (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). */
  readonly sampler: Sampler
}

/**
 * OpenTelemetry's samplers: `always_on` (ratio 1), `always_off` (0), `traceidratio` (the ratio),
 * each also `parentbased_…` (a caller's `traceparent` decides when present). Default:
 * `parentbased_always_on`.
 */
export interface Sampler {
  readonly parentBased: boolean
  readonly ratio: number
}

/** Slow-client protection, applied by node:http itself (`makeNodeServer`). */
export interface HttpTimeouts {
  /** The request line and headers must arrive within this, from the connection or the request's first byte. */
  readonly headersMs: number
  /** The whole request, body included, must arrive within this (never shorter than `headersMs`). */
  readonly requestMs: number
  /** A kept-alive connection idle longer than this between requests is closed. */
  readonly keepAliveMs: number
}

export const defaultHttpTimeouts: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5000 }

export interface RateLimitSettings {
  readonly readsPerWindow: number
  readonly writesPerWindow: number
  /** The window the limits count over (one minute unless RATE_LIMIT_WINDOW says otherwise). */
  readonly windowMs: number
}

export class AppConfig extends Context.Service<AppConfig, AppSettings>()("task-marketplace/AppConfig") {
  static readonly layer = Layer.effect(
    AppConfig,
    Effect.suspend(() => loadSettings)
  )

  /** Settings for tests: in-memory SQLite, fixed base URL; override what a test needs. */
  static readonly layerWith = (overrides: Partial<AppSettings> = {}) =>
    Layer.succeed(AppConfig, AppConfig.of({ ...testDefaults, ...overrides }))
}

const testDefaults: AppSettings = {
  port: 0,
  host: "127.0.0.1",
  database: { _tag: "Sqlite", filename: ":memory:" },
  publicBaseUrl: "http://127.0.0.1:8080",
  logLevel: "None",
  docsUrl: "http://127.0.0.1:8080/docs",
  mcpUrl: "http://127.0.0.1:8080/mcp",
  oauthIssuer: undefined,
  taskTokenSecret: undefined,
  seedSampleCatalogue: true,
  oauthAudience: "http://127.0.0.1:8080/api/public/v1",
  oauthJwksUri: undefined,
  offerTimeoutMs: 24 * 3600_000,
  reviewWindowMs: 72 * 3600_000,
  timerSweepMs: 1000,
  // Test suites run with the limits off unless they test them (DECISIONS §11).
  rateLimit: undefined,
  redisUrl: undefined,
  redisKeyPrefix: "task-marketplace:",
  httpTimeouts: defaultHttpTimeouts,
  tracing: undefined
}

/** Parses a duration: `90` (seconds), `500ms`, `30s`, `15m`, `24h`, `3d`. */
export const parseDuration = (value: string): number | undefined => {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(value.trim().toLowerCase())
  if (match === null) return undefined
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 }[
    (match[2] ?? "s") as "ms" | "s" | "m" | "h" | "d"
  ]
  return Math.round(Number(match[1]) * unit)
}

export const defaultSqliteFile = "./data/marketplace.sqlite"

/** Parses `DATABASE_URL`: unset → the embedded file, `sqlite:<path>`, `sqlite::memory:`, `postgres://…`. */
export const parseDatabaseUrl = (value: string | undefined): DatabaseConfig | string => {
  if (value === undefined || value.trim() === "") return { _tag: "Sqlite", filename: defaultSqliteFile }
  const url = value.trim()
  if (url.startsWith("sqlite:")) {
    const path = url.slice("sqlite:".length).replace(/^\/\//, "")
    if (path === "") return "sqlite: needs a path, e.g. sqlite:./data/marketplace.sqlite or sqlite::memory:"
    return { _tag: "Sqlite", filename: path }
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    return { _tag: "Postgres", url: Redacted.make(url) }
  }
  return "expected sqlite:<path>, sqlite::memory: or postgres://user@host:port/database"
}

const logLevels = ["All", "Trace", "Debug", "Info", "Warn", "Error", "Fatal", "None"] as const

/** Reads and validates every setting from the environment. */
export const loadSettings = Effect.gen(function* () {
  const portRaw = (yield* Config.String("PORT").pipe(Config.withDefault("8080"))).trim()
  const port = /^\d{1,5}$/.test(portRaw) ? Number(portRaw) : Number.NaN
  if (!(port >= 0 && port <= 65535)) {
    return yield* Effect.fail(
      new InvalidConfig("PORT", `expected a port number from 0 to 65535, got ${JSON.stringify(portRaw)}`)
    )
  }
  const host = yield* Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))
  const databaseUrl = yield* Config.String("DATABASE_URL").pipe(Config.option, Config.map(Option.getOrUndefined))
  const database = parseDatabaseUrl(databaseUrl)
  if (typeof database === "string") return yield* Effect.fail(new InvalidConfig("DATABASE_URL", database))

  const baseRaw = yield* Config.String("PUBLIC_BASE_URL").pipe(Config.option, Config.map(Option.getOrUndefined))
  const publicBaseUrl = baseRaw === undefined || baseRaw.trim() === "" ? `http://${hostForUrl(host)}:${port}` : baseRaw
  if (!isHttpUrl(publicBaseUrl)) {
    return yield* Effect.fail(new InvalidConfig("PUBLIC_BASE_URL", "expected an absolute http(s) URL"))
  }
  const base = publicBaseUrl.replace(/\/+$/, "")

  const logLevelRaw = yield* Config.String("LOG_LEVEL").pipe(Config.withDefault("Info"))
  const logLevel = logLevels.find((level) => level.toLowerCase() === logLevelRaw.trim().toLowerCase())
  if (logLevel === undefined) {
    return yield* Effect.fail(new InvalidConfig("LOG_LEVEL", `expected one of ${logLevels.join(", ")}`))
  }

  const docsUrl = yield* optionalUrl("DOCS_URL")
  const mcpUrl = yield* optionalUrl("MCP_URL")
  const oauthIssuer = yield* optionalUrl("OAUTH_ISSUER")
  const taskTokenSecret = yield* Config.Redacted("TASK_TOKEN_SECRET").pipe(
    Config.option,
    Config.map(Option.getOrUndefined)
  )
  if (taskTokenSecret !== undefined && Redacted.value(taskTokenSecret).length < 32) {
    return yield* Effect.fail(new InvalidConfig("TASK_TOKEN_SECRET", "expected at least 32 characters"))
  }
  const duration = (name: string, fallback: string, min: number, max = Number.POSITIVE_INFINITY) =>
    Effect.gen(function* () {
      const raw = yield* Config.String(name).pipe(Config.withDefault(fallback))
      const ms = parseDuration(raw)
      if (ms === undefined || ms < min || ms > max) {
        const expected =
          max === Number.POSITIVE_INFINITY
            ? `a duration such as 30s, 15m, 24h or 3d (at least ${min} ms)`
            : `a duration such as 500ms, 10s or 2m (from ${min} ms to ${max / 60_000} minutes)`
        return yield* Effect.fail(new InvalidConfig(name, `expected ${expected}, got ${JSON.stringify(raw)}`))
      }
      return ms
    })
  const offerTimeoutMs = yield* duration("OFFER_TIMEOUT", "24h", 100)
  const reviewWindowMs = yield* duration("REVIEW_WINDOW", "72h", 100)
  const timerSweepMs = yield* duration("TIMER_SWEEP_INTERVAL", "1s", 10)
  const audienceRaw = yield* Config.String("OAUTH_AUDIENCE").pipe(Config.withDefault(""))
  const oauthAudience = audienceRaw.trim() === "" ? `${base}/api/public/v1` : audienceRaw.trim()
  const oauthJwksUri = yield* optionalUrl("OAUTH_JWKS_URI")
  const rateLimitSwitch = (yield* Config.String("RATE_LIMIT").pipe(Config.withDefault("on"))).trim().toLowerCase()
  if (!["on", "off", "true", "false", "1", "0"].includes(rateLimitSwitch)) {
    return yield* Effect.fail(new InvalidConfig("RATE_LIMIT", "expected on or off"))
  }
  const perWindow = (name: string, fallback: number) =>
    Effect.gen(function* () {
      const raw = (yield* Config.String(name).pipe(Config.withDefault(String(fallback)))).trim()
      const n = /^\d{1,9}$/.test(raw) ? Number(raw) : 0
      if (n < 1) return yield* Effect.fail(new InvalidConfig(name, "expected a whole number of requests, at least 1"))
      return n
    })
  const rateLimit = ["off", "false", "0"].includes(rateLimitSwitch)
    ? undefined
    : {
        readsPerWindow: yield* perWindow("RATE_LIMIT_READS_PER_MINUTE", 600),
        writesPerWindow: yield* perWindow("RATE_LIMIT_WRITES_PER_MINUTE", 120),
        windowMs: yield* duration("RATE_LIMIT_WINDOW", "60s", 100)
      }
  const redisRaw = yield* Config.String("REDIS_URL").pipe(Config.withDefault(""))
  if (redisRaw.trim() !== "" && !/^rediss?:\/\//.test(redisRaw.trim())) {
    return yield* Effect.fail(new InvalidConfig("REDIS_URL", "expected redis://host:port or rediss://…"))
  }
  const redisUrl = redisRaw.trim() === "" ? undefined : Redacted.make(redisRaw.trim())
  const redisKeyPrefix = (yield* Config.String("REDIS_KEY_PREFIX").pipe(Config.withDefault("task-marketplace:"))).trim()
  const httpTimeouts: HttpTimeouts = {
    headersMs: yield* duration("HEADERS_TIMEOUT", "10s", 100, 3600_000),
    requestMs: yield* duration("REQUEST_TIMEOUT", "30s", 100, 3600_000),
    // Node announces it in whole seconds (`Keep-Alive: timeout=N`), so at least one.
    keepAliveMs: yield* duration("KEEP_ALIVE_TIMEOUT", "5s", 1000, 3600_000)
  }
  // node:http refuses a headers timeout longer than the request timeout (the headers are part of the request).
  if (httpTimeouts.headersMs > httpTimeouts.requestMs) {
    return yield* Effect.fail(
      new InvalidConfig("HEADERS_TIMEOUT", `must not be longer than REQUEST_TIMEOUT (${httpTimeouts.requestMs} ms)`)
    )
  }
  const tracing = yield* tracingSettings
  const seedRaw = yield* Config.String("SEED_SAMPLE_CATALOGUE").pipe(Config.withDefault("true"))
  const seedSampleCatalogue = !["false", "0", "no", "off"].includes(seedRaw.trim().toLowerCase())

  return AppConfig.of({
    port,
    host,
    database,
    publicBaseUrl: base,
    logLevel,
    docsUrl: (docsUrl ?? `${base}/docs`).replace(/\/+$/, ""),
    mcpUrl: mcpUrl ?? `${base}/mcp`,
    oauthIssuer,
    taskTokenSecret,
    seedSampleCatalogue,
    oauthAudience,
    oauthJwksUri,
    offerTimeoutMs,
    reviewWindowMs,
    timerSweepMs,
    rateLimit,
    redisUrl,
    redisKeyPrefix,
    httpTimeouts,
    tracing
  })
}).pipe(
  Effect.catchTag("ConfigError", (error) =>
    Effect.fail(new InvalidConfig(configErrorName(error), String(error.message)))
  )
)

/**
 * OpenTelemetry's standard variables: a collector address (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as
 * is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces) turns tracing on, unless OTEL_SDK_DISABLED=true
 * or OTEL_TRACES_EXPORTER names no `otlp` exporter (e.g. `none`).
 */
const tracingSettings = Effect.gen(function* () {
  const text = (name: string) => Config.String(name).pipe(Config.withDefault(""))
  const disabled = (yield* text("OTEL_SDK_DISABLED")).trim().toLowerCase() === "true"
  const exporters = (yield* text("OTEL_TRACES_EXPORTER")).trim()
  if (disabled || (exporters !== "" && !exporters.split(",").some((e) => e.trim() === "otlp"))) return undefined
  const tracesEndpoint = (yield* text("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")).trim()
  const baseEndpoint = (yield* text("OTEL_EXPORTER_OTLP_ENDPOINT")).trim()
  const name = tracesEndpoint !== "" ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT"
  const endpoint =
    tracesEndpoint !== "" ? tracesEndpoint : baseEndpoint === "" ? "" : `${baseEndpoint.replace(/\/+$/, "")}/v1/traces`
  if (endpoint === "") return undefined
  if (!/^https?:\/\/[^/\s]+/.test(endpoint) || !URL.canParse(endpoint)) {
    return yield* Effect.fail(new InvalidConfig(name, "expected the collector's http:// or https:// address"))
  }
  const tracesHeaders = yield* Config.Redacted("OTEL_EXPORTER_OTLP_TRACES_HEADERS").pipe(Config.withDefault(undefined))
  const headersName = tracesHeaders !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_HEADERS" : "OTEL_EXPORTER_OTLP_HEADERS"
  const headerText =
    tracesHeaders ?? (yield* Config.Redacted("OTEL_EXPORTER_OTLP_HEADERS").pipe(Config.withDefault(undefined)))
  const headers = headerText === undefined ? {} : parseHeaderList(Redacted.value(headerText))
  if (headers === undefined) {
    // The value is never repeated: it usually holds the collector's key.
    return yield* Effect.fail(
      new InvalidConfig(headersName, "expected name=value pairs separated by commas (values URL-encoded)")
    )
  }
  return {
    url: endpoint,
    serviceName: (yield* text("OTEL_SERVICE_NAME")).trim() || "task-marketplace",
    headers: Redacted.make(headers),
    exportIntervalMs: yield* exportInterval,
    sampler: yield* sampler
  } satisfies TracingSettings
})

/** OpenTelemetry's header list, `name=value,name2=value2` (URL-encoded); undefined when malformed. */
const parseHeaderList = (text: string): Record<string, string> | undefined => {
  const headers: Record<string, string> = {}
  for (const pair of text.split(",")) {
    if (pair.trim() === "") continue
    const at = pair.indexOf("=")
    if (at <= 0) return undefined
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim())
    } catch {
      return undefined
    }
  }
  return headers
}

const samplers = ["always_on", "always_off", "traceidratio"] as const

const sampler = Effect.gen(function* () {
  const name = (yield* Config.String("OTEL_TRACES_SAMPLER").pipe(Config.withDefault("parentbased_always_on")))
    .trim()
    .toLowerCase()
  const parentBased = name.startsWith("parentbased_")
  const kind = samplers.find((s) => s === (parentBased ? name.slice("parentbased_".length) : name))
  if (kind === undefined) {
    return yield* Effect.fail(
      new InvalidConfig(
        "OTEL_TRACES_SAMPLER",
        `expected one of ${samplers.flatMap((s) => [s, `parentbased_${s}`]).join(", ")}`
      )
    )
  }
  if (kind !== "traceidratio") return { parentBased, ratio: kind === "always_on" ? 1 : 0 } satisfies Sampler
  const raw = (yield* Config.String("OTEL_TRACES_SAMPLER_ARG").pipe(Config.withDefault("1"))).trim()
  const ratio = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN
  if (!(ratio >= 0 && ratio <= 1)) {
    return yield* Effect.fail(
      new InvalidConfig("OTEL_TRACES_SAMPLER_ARG", `expected a ratio from 0 to 1, got ${JSON.stringify(raw)}`)
    )
  }
  return { parentBased, ratio } satisfies Sampler
})

/** OTEL_BSP_SCHEDULE_DELAY: whole milliseconds, as OpenTelemetry defines it (default 5000). */
const exportInterval = Effect.gen(function* () {
  const raw = (yield* Config.String("OTEL_BSP_SCHEDULE_DELAY").pipe(Config.withDefault("5000"))).trim()
  const ms = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN
  if (!(ms >= 10 && ms <= 3600_000)) {
    return yield* Effect.fail(
      new InvalidConfig(
        "OTEL_BSP_SCHEDULE_DELAY",
        `expected whole milliseconds from 10 to 3600000, got ${JSON.stringify(raw)}`
      )
    )
  }
  return ms
})

const optionalUrl = (name: string) =>
  Effect.gen(function* () {
    const value = yield* Config.String(name).pipe(Config.option, Config.map(Option.getOrUndefined))
    if (value === undefined || value.trim() === "") return undefined
    if (!isHttpUrl(value.trim())) return yield* Effect.fail(new InvalidConfig(name, "expected an absolute http(s) URL"))
    return value.trim()
  })

const configErrorName = (error: { readonly message: string }) => /[A-Z_]{3,}/.exec(error.message)?.[0] ?? "environment"

const hostForUrl = (host: string) =>
  host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** A setting that cannot be used; the message names the variable and what it accepts. */
export class InvalidConfig extends Error {
  readonly _tag = "InvalidConfig"
  readonly variable: string
  constructor(variable: string, expected: string) {
    super(`Invalid configuration: ${variable}: ${expected}`)
    this.variable = variable
  }
}
