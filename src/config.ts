/**
 * Every setting of the service, typed, read once from the environment with defaults.
 *
 * Each variable is declared once (`variables` below) as a `Config` built from a Schema: the form its
 * text takes, its bounds as schema checks, its default. A bad value stops start-up with
 * `InvalidConfig`, whose message names the variable and says what it accepts, rather than surfacing
 * later as a confusing runtime error. The value itself is never repeated: it may be a secret.
 */

import { dirname, join } from "node:path"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { moveLimits } from "./domain/task.ts"

export type DatabaseConfig =
  | { readonly _tag: "Sqlite"; readonly filename: string }
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string> }

/**
 * Where uploaded files (evidence) are kept: files under a directory, or an S3-compatible bucket
 * (keys under `prefix`, addressed at `endpoint` when one is set, else AWS's own).
 */
export type ArtifactStore =
  | { readonly _tag: "Files"; readonly directory: string }
  | { readonly _tag: "S3"; readonly bucket: string; readonly prefix: string; readonly endpoint: string | undefined }

/** Uploaded files: where they go and how large and many they may be. */
export interface ArtifactSettings {
  /** ARTIFACT_STORE; undefined: beside the database (`artifactStoreOf`). */
  readonly store: ArtifactStore | undefined
  /** The most bytes one file may have (ARTIFACT_MAX_FILE_BYTES). */
  readonly maxFileBytes: number
  /** The most files one result may carry (ARTIFACT_MAX_FILES). */
  readonly maxFiles: number
}

export interface AppSettings {
  readonly port: number
  readonly host: string
  readonly database: DatabaseConfig
  /** Absolute base of every `url` member, without a trailing slash. */
  readonly publicBaseUrl: string
  readonly logLevel: LogLevel
  /** Base of `documentation_url` members; defaults to `<publicBaseUrl>/docs`. */
  readonly docsUrl: string
  /** Address of the MCP interface; served by this server when it is under publicBaseUrl. */
  readonly mcpUrl: string
  /**
   * Browser origins allowed to call the MCP interface (requests without `Origin` always are): the
   * MCP transport requires the check, against DNS rebinding. Defaults to publicBaseUrl's origin.
   */
  readonly mcpAllowedOrigins: ReadonlyArray<string>
  /**
   * An external OAuth authorization server, when one is set (OAUTH_ISSUER); when unset the service
   * runs its own, embedded at `<publicBaseUrl>/oauth` (`issuerOf`).
   */
  readonly oauthIssuer: string | undefined
  /** How long the embedded server's access tokens last (at most 10 minutes: a JWT outlives a revocation). */
  readonly oauthAccessTokenTtlMs: number
  /** Dynamic client registrations the embedded server accepts per client address and hour. */
  readonly oauthRegistrationsPerHour: number
  /**
   * Whether a person without an invitation may create an account and a profile from the embedded
   * server's sign-in page (`open`); the profile stays unlisted until the operator approves it.
   */
  readonly participantSignup: "open" | "closed"
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
  /** Uploaded files (evidence): their store and limits. */
  readonly artifacts: ArtifactSettings
  /** Signed webhooks: where they may go and how their deliveries are retried. */
  readonly webhooks: WebhookSettings
  /**
   * SANDBOX: the service runs as a sandbox — simulated participants, a clock that can be moved
   * forward — on a database that holds nothing else (docs/decisions.md, "The sandbox").
   */
  readonly sandbox: boolean
}

/** Signed webhooks (services/webhook_delivery.ts). */
export interface WebhookSettings {
  /**
   * WEBHOOK_ALLOW_PRIVATE: whether a webhook may go to plain http and to loopback, private,
   * link-local and other non-public addresses (development and tests only).
   */
  readonly allowPrivate: boolean
  /**
   * WEBHOOK_RETRY_SCHEDULE: the waits between attempts, in order; an event whose last retry fails
   * too is marked failed. The default spans a little over 24 hours.
   */
  readonly retryScheduleMs: ReadonlyArray<number>
  /** WEBHOOK_TIMEOUT: how long an attempt may take, from connecting to the answer's status. */
  readonly timeoutMs: number
}

/** 5s, 30s, 2m, 10m, 1h, 3h, 6h, 14h: nine attempts over 24 h 12 min 35 s. */
export const defaultWebhookRetrySchedule: ReadonlyArray<number> = [
  5_000, 30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 50_400_000
]

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

/** The issuer participants' access tokens come from: the external one, or the embedded server at `/oauth`. */
export const issuerOf = (settings: Pick<AppSettings, "oauthIssuer" | "publicBaseUrl">): string =>
  settings.oauthIssuer ?? `${settings.publicBaseUrl}/oauth`

/**
 * The participant's MCP endpoint, `<MCP_URL>/participant`: where a participant's own assistant
 * connects, and the OAuth resource (RFC 8707 resource indicator, the access tokens' `aud`) it is.
 * The REST API stays its own resource (`oauthAudience`).
 */
export const participantMcpUrlOf = (settings: Pick<AppSettings, "mcpUrl">): string =>
  `${settings.mcpUrl.split(/[?#]/, 1)[0]!.replace(/\/+$/, "")}/participant`

/** The path of `url` on this server (under PUBLIC_BASE_URL, without a trailing slash), or undefined when it is elsewhere. */
export const pathOnThisServer = (settings: Pick<AppSettings, "publicBaseUrl">, url: string): string | undefined => {
  if (!url.startsWith(`${settings.publicBaseUrl}/`)) return undefined
  return url.slice(settings.publicBaseUrl.length).split(/[?#]/, 1)[0]!.replace(/\/+$/, "") || undefined
}

/**
 * Where uploaded files are kept: ARTIFACT_STORE when set; else `artifacts/` beside the SQLite file
 * (`./data/artifacts` for the default database); for `sqlite::memory:`, a fresh temporary directory
 * that goes with the process, as the database does; for Postgres `./data/artifacts` under the working
 * directory (processes on several machines sharing one Postgres need ARTIFACT_STORE=s3://…).
 */
export const artifactStoreOf = (
  settings: Pick<AppSettings, "artifacts" | "database">
): ArtifactStore | { readonly _tag: "Temporary" } => {
  if (settings.artifacts.store !== undefined) return settings.artifacts.store
  const { database } = settings
  if (database._tag === "Postgres") return { _tag: "Files", directory: defaultArtifactDirectory }
  if (database.filename === ":memory:" || database.filename === "") return { _tag: "Temporary" }
  return { _tag: "Files", directory: join(dirname(database.filename), "artifacts") }
}

const defaultArtifactDirectory = "./data/artifacts"

/** Whether this service runs the authorization server itself (OAUTH_ISSUER unset). */
export const isEmbeddedIssuer = (settings: Pick<AppSettings, "oauthIssuer">): boolean =>
  settings.oauthIssuer === undefined

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
  mcpAllowedOrigins: ["http://127.0.0.1:8080"],
  oauthIssuer: undefined,
  oauthAccessTokenTtlMs: 10 * 60_000,
  oauthRegistrationsPerHour: 100,
  participantSignup: "closed",
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
  tracing: undefined,
  artifacts: { store: undefined, maxFileBytes: 25 * 1024 * 1024, maxFiles: 10 },
  webhooks: { allowPrivate: false, retryScheduleMs: defaultWebhookRetrySchedule, timeoutMs: 10_000 },
  sandbox: false
}

// ---------------------------------------------------------------------------------------------------
// What a variable's text may say: one small Schema per kind of value, from the (trimmed) text.
// ---------------------------------------------------------------------------------------------------

/** The message of a refused value: what the variable accepts (the value is never repeated). */
const accepts = (what: string) => ({ message: `expected ${what}` })

/** Decodes text with `parse`; text it cannot read (undefined) is refused saying `what` is accepted. */
const parsing = <A>(parse: (text: string) => A | undefined, format: (value: A) => string, what: string) =>
  SchemaTransformation.transformEffect<A, string>({
    decode: (text) => {
      const value = parse(text)
      return value === undefined ? Effect.fail(new SchemaIssue.InvalidValue(accepts(what))) : Effect.succeed(value)
    },
    encode: (value) => Effect.succeed(format(value))
  })

const second = 1000
const minute = 60 * second
const hour = 60 * minute
const day = 24 * hour
const durationUnits = { d: day, h: hour, m: minute, s: second, ms: 1 } as const

const parseDuration = (text: string): number | undefined => {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(text.toLowerCase())
  if (match === null) return undefined
  return Math.round(Number(match[1]) * durationUnits[(match[2] ?? "s") as keyof typeof durationUnits])
}

/** Whole milliseconds in the largest unit that divides them: 86400000 → `1d`, 1500 → `1500ms`. */
const formatDuration = (ms: number): string => {
  for (const [unit, size] of Object.entries(durationUnits)) {
    if (ms !== 0 && ms % size === 0) return `${ms / size}${unit}`
  }
  return `${ms}ms`
}

/**
 * A duration in whole milliseconds, written `90` (seconds), `500ms`, `30s`, `15m`, `24h` or `3d`
 * (fractions such as `1.5s` allowed, units in any case); encodes as `formatDuration` writes it.
 */
export const DurationMs: Schema.Codec<number, string> = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Number,
    parsing(parseDuration, formatDuration, "a duration such as 90 (seconds), 500ms, 30s, 15m, 24h or 3d")
  )
)

/** Durations separated by commas (`5s,30s,2m`), each within bounds; at most `most` of them. */
const DurationList = (minimum: number, maximum: number, most: number) => {
  const what = `durations from ${formatDuration(minimum)} to ${formatDuration(maximum)} separated by commas (at most ${most}), e.g. 5s,30s,2m,10m,1h`
  return Schema.String.pipe(
    Schema.decodeTo(
      Schema.Array(Schema.Number),
      parsing<ReadonlyArray<number>>(
        (text) => {
          const parts = text.split(",").map((part) => parseDuration(part.trim()))
          return parts.length <= most && parts.every((ms) => ms !== undefined && ms >= minimum && ms <= maximum)
            ? (parts as ReadonlyArray<number>)
            : undefined
        },
        (waits) => waits.map(formatDuration).join(","),
        what
      )
    )
  )
}

/** A duration within bounds; the bounds are part of the message. */
const DurationBetween = (minimum: number, maximum: number) =>
  DurationMs.check(
    Schema.isBetween(
      { minimum, maximum },
      accepts(`a duration from ${formatDuration(minimum)} to ${formatDuration(maximum)}`)
    )
  )

/** A number written in digits (a fraction only when `fractions`), within bounds. */
const NumberBetween = (minimum: number, maximum: number, what: string, fractions = false) =>
  Schema.Trim.pipe(
    Schema.decodeTo(
      Schema.Number.check(Schema.isBetween({ minimum, maximum }, accepts(what))),
      parsing((text) => ((fractions ? /^\d+(\.\d+)?$/ : /^\d+$/).test(text) ? Number(text) : undefined), String, what)
    )
  )

const Port = NumberBetween(0, 65535, "a port number from 0 to 65535")

/** A rate limit: requests per window. */
const Requests = NumberBetween(1, 999_999_999, "a whole number of requests from 1 to 999999999")

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** An absolute http:// or https:// URL. */
const HttpUrl = Schema.Trim.check(Schema.makeFilter(isHttpUrl, accepts("an absolute http(s) URL")))

/** `scheme://host[:port]`, as a browser sends it in `Origin`. */
const originOf = (url: string) => new URL(url).origin

/** Origins separated by commas, each an http(s) origin (no path). */
const OriginList = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Array(Schema.String),
    parsing<ReadonlyArray<string>>(
      (text) => {
        const origins = text
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== "")
        return origins.every((o) => isHttpUrl(o) && originOf(o) === o.replace(/\/$/, ""))
          ? origins.map(originOf)
          : undefined
      },
      (origins: ReadonlyArray<string>) => origins.join(","),
      "http(s) origins (scheme://host[:port]) separated by commas"
    )
  )
)

/** Text read as it is, trimmed. */
const Text = Schema.Trim

export const defaultSqliteFile = "./data/marketplace.sqlite"

const Database = Schema.Union([
  Schema.TaggedStruct("Sqlite", { filename: Schema.String }),
  Schema.TaggedStruct("Postgres", { url: Schema.Redacted(Schema.String) })
])

const parseDatabaseUrl = (url: string): DatabaseConfig | undefined => {
  if (url.startsWith("sqlite:")) return { _tag: "Sqlite", filename: url.slice("sqlite:".length).replace(/^\/\//, "") }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    return { _tag: "Postgres", url: Redacted.make(url) }
  }
  return undefined
}

/**
 * `DATABASE_URL`: `sqlite:<path>`, `sqlite::memory:` or `postgres://…` (kept redacted: it may hold a
 * password).
 */
export const DatabaseUrl: Schema.Codec<DatabaseConfig, string> = Schema.Trim.check(
  Schema.makeFilter(
    (url: string) => !/^sqlite:(\/\/)?$/.test(url),
    accepts("a path after sqlite:, e.g. sqlite:./data/marketplace.sqlite or sqlite::memory:")
  )
).pipe(
  Schema.decodeTo(
    Database,
    parsing(
      parseDatabaseUrl,
      (database) => (database._tag === "Sqlite" ? `sqlite:${database.filename}` : Redacted.value(database.url)),
      "sqlite:<path>, sqlite::memory: or postgres://user@host:port/database"
    )
  )
)

const logLevels = ["All", "Trace", "Debug", "Info", "Warn", "Error", "Fatal", "None"] as const
export type LogLevel = (typeof logLevels)[number]

/** A log level in any case: `debug`, `Debug` and `DEBUG` are `Debug`. */
const LogLevelName = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Literals(logLevels),
    parsing(
      (text) => logLevels.find((level) => level.toLowerCase() === text.toLowerCase()),
      (level) => level,
      `one of ${logLevels.join(", ")}`
    )
  )
)

const switchWords = new Map([
  ["on", true],
  ["true", true],
  ["1", true],
  ["yes", true],
  ["off", false],
  ["false", false],
  ["0", false],
  ["no", false]
])

/** PARTICIPANT_SIGNUP: `open` or `closed`, in any case. */
const signupModes = ["open", "closed"] as const
const SignupMode = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Literals(signupModes),
    parsing(
      (text) => signupModes.find((mode) => mode === text.toLowerCase()),
      (mode) => mode,
      "open or closed"
    )
  )
)

/** A switch: `on`/`off`, `true`/`false`, `1`/`0`, `yes`/`no`, in any case. */
const Switch = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Boolean,
    parsing(
      (text) => switchWords.get(text.toLowerCase()),
      (on) => (on ? "on" : "off"),
      "on or off (or true/false, 1/0, yes/no)"
    )
  )
)

/** A secret of at least `minLength` characters, kept redacted. */
const Secret = (minLength: number) =>
  Schema.RedactedFromValue(
    Schema.String.check(Schema.isMinLength(minLength, accepts(`at least ${minLength} characters`)))
  )

/** A Redis address, kept redacted (it may hold a password). */
const RedisUrl = Schema.RedactedFromValue(
  Schema.Trim.check(Schema.isPattern(/^rediss?:\/\//, accepts("redis://host:port or rediss://…")))
)

/** An OpenTelemetry collector's address (`http://collector:4318`, …). */
const CollectorUrl = Schema.Trim.check(
  Schema.makeFilter(
    (url: string) => /^https?:\/\/[^/\s]+/.test(url) && URL.canParse(url),
    accepts("the collector's http:// or https:// address")
  )
)

/** OpenTelemetry's boolean: `true` in any case is true, anything else false (its specification). */
const OtelBoolean = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({ decode: (text) => text.toLowerCase() === "true", encode: String })
  )
)

/** OTEL_TRACES_EXPORTER, a comma-separated list of exporters: whether it names `otlp`. */
const OtlpExporterChosen = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (text) => text.split(",").some((exporter) => exporter.trim() === "otlp"),
      encode: (chosen) => (chosen ? "otlp" : "none")
    })
  )
)

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

/** OpenTelemetry's header list, kept redacted: it usually holds a collector's key. */
const HeaderList = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Redacted(Schema.Record(Schema.String, Schema.String)),
    parsing(
      (text) => {
        const headers = parseHeaderList(text)
        return headers === undefined ? undefined : Redacted.make(headers)
      },
      (headers) =>
        Object.entries(Redacted.value(headers))
          .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
          .join(","),
      "name=value pairs separated by commas (values URL-encoded)"
    )
  )
)

const samplerNames = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio"
] as const

/** OTEL_TRACES_SAMPLER, in any case. */
const SamplerName = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Literals(samplerNames),
    parsing(
      (text) => samplerNames.find((name) => name === text.toLowerCase()),
      (name) => name,
      `one of ${samplerNames.join(", ")}`
    )
  )
)

const byteUnits: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3
}

const parseByteSize = (text: string): number | undefined => {
  const match = /^(\d+)\s*([kmg]i?b|b)?$/.exec(text.toLowerCase())
  return match === null ? undefined : Number(match[1]) * byteUnits[match[2] ?? "b"]!
}

/** Bytes in the largest binary unit that divides them: 26214400 → `25MiB`. */
const formatByteSize = (bytes: number): string => {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024]
  ] as const) {
    if (bytes !== 0 && bytes % size === 0) return `${bytes / size}${unit}`
  }
  return String(bytes)
}

/** A size in bytes, written `26214400`, `25MiB`, `512 KiB` or `10MB` (units in any case), within bounds. */
export const ByteSize = (minimum: number, maximum: number) => {
  const what = `a size from ${formatByteSize(minimum)} to ${formatByteSize(maximum)}, in bytes or with a unit (KiB, MiB, GiB, KB, MB, GB), e.g. 25MiB`
  return Schema.Trim.pipe(
    Schema.decodeTo(
      Schema.Number.check(Schema.isBetween({ minimum, maximum }, accepts(what))),
      parsing(parseByteSize, formatByteSize, what)
    )
  )
}

/** An S3 bucket name as S3 allows it (3–63 lower-case letters, digits, dots and hyphens). */
const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

/** `file:<directory>` or `s3://bucket[/prefix]`; the S3 endpoint is joined later (ARTIFACT_S3_ENDPOINT). */
const parseArtifactStore = (text: string): ArtifactStore | undefined => {
  if (text.startsWith("file:")) {
    const directory = text.slice("file:".length).replace(/^\/\//, "")
    return directory.trim() === "" ? undefined : { _tag: "Files", directory }
  }
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(text)
  if (match === null || !bucketName.test(match[1]!)) return undefined
  return { _tag: "S3", bucket: match[1]!, prefix: (match[2] ?? "").replace(/^\/+|\/+$/g, ""), endpoint: undefined }
}

/** ARTIFACT_STORE: `file:<directory>` or `s3://bucket/prefix`. */
export const ArtifactStoreUrl: Schema.Codec<ArtifactStore, string> = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Union([
      Schema.TaggedStruct("Files", { directory: Schema.String }),
      Schema.TaggedStruct("S3", {
        bucket: Schema.String,
        prefix: Schema.String,
        endpoint: Schema.UndefinedOr(Schema.String)
      })
    ]),
    parsing(
      parseArtifactStore,
      (store) =>
        store._tag === "Files"
          ? `file:${store.directory}`
          : `s3://${store.bucket}${store.prefix === "" ? "" : `/${store.prefix}`}`,
      "file:<directory> or s3://<bucket>/<prefix> (a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens)"
    )
  )
)

// ---------------------------------------------------------------------------------------------------
// Every variable, declared once: its schema and its default.
// ---------------------------------------------------------------------------------------------------

/** Unset, empty and blank are the same: the default applies. */
const blankAsUnset = SchemaTransformation.transform<string | undefined, string>({
  decode: (text) => (text.trim() === "" ? undefined : text),
  encode: (text) => text ?? ""
})

/** One variable read through its schema; `fallback` when it is unset, empty or blank. */
const variable = <A, const D>(name: string, schema: Schema.Codec<A, string>, fallback: D): Config.Config<A | D> =>
  Config.schema(Schema.String.pipe(Schema.decodeTo(Schema.UndefinedOr(schema), blankAsUnset)), name).pipe(
    Config.withDefault(undefined),
    Config.map((value) => (value === undefined ? fallback : value))
  )

const variables = {
  PORT: variable("PORT", Port, 8080),
  HOST: variable("HOST", Text, "127.0.0.1"),
  DATABASE_URL: variable("DATABASE_URL", DatabaseUrl, { _tag: "Sqlite", filename: defaultSqliteFile }),
  PUBLIC_BASE_URL: variable("PUBLIC_BASE_URL", HttpUrl, undefined),
  LOG_LEVEL: variable("LOG_LEVEL", LogLevelName, "Info"),
  DOCS_URL: variable("DOCS_URL", HttpUrl, undefined),
  MCP_URL: variable("MCP_URL", HttpUrl, undefined),
  MCP_ALLOWED_ORIGINS: variable("MCP_ALLOWED_ORIGINS", OriginList, undefined),
  OAUTH_ISSUER: variable("OAUTH_ISSUER", HttpUrl, undefined),
  OAUTH_AUDIENCE: variable("OAUTH_AUDIENCE", Text, undefined),
  OAUTH_JWKS_URI: variable("OAUTH_JWKS_URI", HttpUrl, undefined),
  OAUTH_ACCESS_TOKEN_TTL: variable("OAUTH_ACCESS_TOKEN_TTL", DurationBetween(second, 10 * minute), 10 * minute),
  OAUTH_REGISTRATIONS_PER_HOUR: variable("OAUTH_REGISTRATIONS_PER_HOUR", Requests, 100),
  PARTICIPANT_SIGNUP: variable("PARTICIPANT_SIGNUP", SignupMode, "closed"),
  TASK_TOKEN_SECRET: variable("TASK_TOKEN_SECRET", Secret(32), undefined),
  SEED_SAMPLE_CATALOGUE: variable("SEED_SAMPLE_CATALOGUE", Switch, true),
  // No timer here is meant to run for more than a year; and an offer's or a review's deadline must stay
  // a date (a billion days made every new deadline an invalid date).
  OFFER_TIMEOUT: variable("OFFER_TIMEOUT", DurationBetween(100, 365 * day), 24 * hour),
  REVIEW_WINDOW: variable("REVIEW_WINDOW", DurationBetween(100, 365 * day), 72 * hour),
  TIMER_SWEEP_INTERVAL: variable("TIMER_SWEEP_INTERVAL", DurationBetween(10, 365 * day), second),
  RATE_LIMIT: variable("RATE_LIMIT", Switch, true),
  RATE_LIMIT_READS_PER_MINUTE: variable("RATE_LIMIT_READS_PER_MINUTE", Requests, 600),
  RATE_LIMIT_WRITES_PER_MINUTE: variable("RATE_LIMIT_WRITES_PER_MINUTE", Requests, 120),
  RATE_LIMIT_WINDOW: variable("RATE_LIMIT_WINDOW", DurationBetween(100, 365 * day), minute),
  REDIS_URL: variable("REDIS_URL", RedisUrl, undefined),
  REDIS_KEY_PREFIX: variable("REDIS_KEY_PREFIX", Text, "task-marketplace:"),
  HEADERS_TIMEOUT: variable("HEADERS_TIMEOUT", DurationBetween(100, hour), defaultHttpTimeouts.headersMs),
  REQUEST_TIMEOUT: variable("REQUEST_TIMEOUT", DurationBetween(100, hour), defaultHttpTimeouts.requestMs),
  // Node announces it in whole seconds (`Keep-Alive: timeout=N`), so at least one.
  KEEP_ALIVE_TIMEOUT: variable("KEEP_ALIVE_TIMEOUT", DurationBetween(second, hour), defaultHttpTimeouts.keepAliveMs),
  OTEL_SDK_DISABLED: variable("OTEL_SDK_DISABLED", OtelBoolean, false),
  OTEL_TRACES_EXPORTER: variable("OTEL_TRACES_EXPORTER", OtlpExporterChosen, true),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", CollectorUrl, undefined),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable("OTEL_EXPORTER_OTLP_ENDPOINT", CollectorUrl, undefined),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: variable("OTEL_EXPORTER_OTLP_TRACES_HEADERS", HeaderList, undefined),
  OTEL_EXPORTER_OTLP_HEADERS: variable("OTEL_EXPORTER_OTLP_HEADERS", HeaderList, undefined),
  OTEL_SERVICE_NAME: variable("OTEL_SERVICE_NAME", Text, "task-marketplace"),
  // Whole milliseconds, as OpenTelemetry defines it.
  OTEL_BSP_SCHEDULE_DELAY: variable(
    "OTEL_BSP_SCHEDULE_DELAY",
    NumberBetween(10, 3_600_000, "whole milliseconds from 10 to 3600000"),
    5000
  ),
  OTEL_TRACES_SAMPLER: variable("OTEL_TRACES_SAMPLER", SamplerName, "parentbased_always_on"),
  OTEL_TRACES_SAMPLER_ARG: variable("OTEL_TRACES_SAMPLER_ARG", NumberBetween(0, 1, "a ratio from 0 to 1", true), 1),
  ARTIFACT_STORE: variable("ARTIFACT_STORE", ArtifactStoreUrl, undefined),
  ARTIFACT_S3_ENDPOINT: variable("ARTIFACT_S3_ENDPOINT", HttpUrl, undefined),
  // A single S3 PUT takes at most 5 GiB; uploads are sent to S3 in one.
  ARTIFACT_MAX_FILE_BYTES: variable("ARTIFACT_MAX_FILE_BYTES", ByteSize(1, 5 * 1024 ** 3), 25 * 1024 ** 2),
  // A file is one of a result's artifacts, of which there are at most moveLimits.artifacts.
  ARTIFACT_MAX_FILES: variable(
    "ARTIFACT_MAX_FILES",
    NumberBetween(1, moveLimits.artifacts, `a whole number of files from 1 to ${moveLimits.artifacts}`),
    10
  ),
  WEBHOOK_ALLOW_PRIVATE: variable("WEBHOOK_ALLOW_PRIVATE", Switch, false),
  // Up to 20 retries, each wait at most a week: an event is never retried for more than a few months.
  WEBHOOK_RETRY_SCHEDULE: variable(
    "WEBHOOK_RETRY_SCHEDULE",
    DurationList(100, 7 * day, 20),
    defaultWebhookRetrySchedule
  ),
  WEBHOOK_TIMEOUT: variable("WEBHOOK_TIMEOUT", DurationBetween(100, minute), 10 * second),
  SANDBOX: variable("SANDBOX", Switch, false)
}

// ---------------------------------------------------------------------------------------------------
// The settings: the variables, with the rules that join several of them.
// ---------------------------------------------------------------------------------------------------

/** Reads and validates every setting from the environment. */
export const loadSettings: Effect.Effect<AppSettings, InvalidConfig> = Effect.gen(function* () {
  const port = yield* variables.PORT
  const host = yield* variables.HOST
  const database = yield* variables.DATABASE_URL
  const publicBaseUrl = (yield* variables.PUBLIC_BASE_URL) ?? `http://${hostForUrl(host)}:${port}`
  if (!isHttpUrl(publicBaseUrl)) {
    // Unset, it is made from HOST, which need not make a URL (an IPv6 zone, say): then it must be set.
    return yield* invalid(
      "PUBLIC_BASE_URL",
      "expected an absolute http(s) URL (http://HOST:PORT is not one with this HOST)"
    )
  }
  const base = publicBaseUrl.replace(/\/+$/, "")
  const logLevel = yield* variables.LOG_LEVEL
  const docsUrl = (yield* variables.DOCS_URL) ?? `${base}/docs`
  const mcpUrl = (yield* variables.MCP_URL) ?? `${base}/mcp`
  const mcpAllowedOrigins = (yield* variables.MCP_ALLOWED_ORIGINS) ?? [originOf(base)]
  const oauthIssuer = yield* variables.OAUTH_ISSUER
  const taskTokenSecret = yield* variables.TASK_TOKEN_SECRET
  const offerTimeoutMs = yield* variables.OFFER_TIMEOUT
  const reviewWindowMs = yield* variables.REVIEW_WINDOW
  const timerSweepMs = yield* variables.TIMER_SWEEP_INTERVAL
  const oauthAudience = (yield* variables.OAUTH_AUDIENCE) ?? `${base}/api/public/v1`
  const oauthJwksUri = yield* variables.OAUTH_JWKS_URI
  const oauthAccessTokenTtlMs = yield* variables.OAUTH_ACCESS_TOKEN_TTL
  const oauthRegistrationsPerHour = yield* variables.OAUTH_REGISTRATIONS_PER_HOUR
  const participantSignup = yield* variables.PARTICIPANT_SIGNUP
  // The limits are read only when they apply.
  const rateLimit: RateLimitSettings | undefined = (yield* variables.RATE_LIMIT)
    ? {
        readsPerWindow: yield* variables.RATE_LIMIT_READS_PER_MINUTE,
        writesPerWindow: yield* variables.RATE_LIMIT_WRITES_PER_MINUTE,
        windowMs: yield* variables.RATE_LIMIT_WINDOW
      }
    : undefined
  const redisUrl = yield* variables.REDIS_URL
  const redisKeyPrefix = yield* variables.REDIS_KEY_PREFIX
  const httpTimeouts: HttpTimeouts = {
    headersMs: yield* variables.HEADERS_TIMEOUT,
    requestMs: yield* variables.REQUEST_TIMEOUT,
    keepAliveMs: yield* variables.KEEP_ALIVE_TIMEOUT
  }
  // node:http refuses a headers timeout longer than the request timeout (the headers are part of the request).
  if (httpTimeouts.headersMs > httpTimeouts.requestMs) {
    return yield* invalid("HEADERS_TIMEOUT", `must not be longer than REQUEST_TIMEOUT (${httpTimeouts.requestMs} ms)`)
  }
  const tracing = yield* tracingSettings
  const seedSampleCatalogue = yield* variables.SEED_SAMPLE_CATALOGUE
  const artifacts = yield* artifactSettings
  const webhooks: WebhookSettings = {
    allowPrivate: yield* variables.WEBHOOK_ALLOW_PRIVATE,
    retryScheduleMs: yield* variables.WEBHOOK_RETRY_SCHEDULE,
    timeoutMs: yield* variables.WEBHOOK_TIMEOUT
  }

  return AppConfig.of({
    port,
    host,
    database,
    publicBaseUrl: base,
    logLevel,
    docsUrl: docsUrl.replace(/\/+$/, ""),
    mcpUrl,
    mcpAllowedOrigins,
    oauthIssuer,
    oauthAccessTokenTtlMs,
    oauthRegistrationsPerHour,
    participantSignup,
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
    tracing,
    artifacts,
    webhooks,
    sandbox: yield* variables.SANDBOX
  })
}).pipe(Effect.catchTag("ConfigError", (error) => Effect.fail(fromConfigError(error))))

/** The store of uploaded files and their limits; an S3 endpoint applies only to an S3 store. */
const artifactSettings = Effect.gen(function* () {
  const store = yield* variables.ARTIFACT_STORE
  const endpoint = yield* variables.ARTIFACT_S3_ENDPOINT
  if (endpoint !== undefined && store?._tag !== "S3") {
    return yield* invalid("ARTIFACT_S3_ENDPOINT", "applies only with ARTIFACT_STORE=s3://<bucket>/<prefix>")
  }
  return {
    store: store?._tag === "S3" ? { ...store, endpoint: endpoint?.replace(/\/+$/, "") } : store,
    maxFileBytes: yield* variables.ARTIFACT_MAX_FILE_BYTES,
    maxFiles: yield* variables.ARTIFACT_MAX_FILES
  } satisfies ArtifactSettings
})

/**
 * OpenTelemetry's standard variables: a collector address (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as
 * is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces) turns tracing on, unless OTEL_SDK_DISABLED=true
 * or OTEL_TRACES_EXPORTER names no `otlp` exporter (e.g. `none`). The rest is read only then.
 */
const tracingSettings = Effect.gen(function* () {
  if ((yield* variables.OTEL_SDK_DISABLED) || !(yield* variables.OTEL_TRACES_EXPORTER)) return undefined
  const tracesEndpoint = yield* variables.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  const baseEndpoint = tracesEndpoint === undefined ? yield* variables.OTEL_EXPORTER_OTLP_ENDPOINT : undefined
  const url =
    tracesEndpoint ?? (baseEndpoint === undefined ? undefined : `${baseEndpoint.replace(/\/+$/, "")}/v1/traces`)
  if (url === undefined) return undefined
  const headers =
    (yield* variables.OTEL_EXPORTER_OTLP_TRACES_HEADERS) ??
    (yield* variables.OTEL_EXPORTER_OTLP_HEADERS) ??
    Redacted.make<Record<string, string>>({})
  return {
    url,
    serviceName: yield* variables.OTEL_SERVICE_NAME,
    headers,
    exportIntervalMs: yield* variables.OTEL_BSP_SCHEDULE_DELAY,
    sampler: yield* sampler
  } satisfies TracingSettings
})

const sampler = Effect.gen(function* () {
  const name = yield* variables.OTEL_TRACES_SAMPLER
  const parentBased = name.startsWith("parentbased_")
  const kind = parentBased ? name.slice("parentbased_".length) : name
  if (kind !== "traceidratio") return { parentBased, ratio: kind === "always_on" ? 1 : 0 } satisfies Sampler
  return { parentBased, ratio: yield* variables.OTEL_TRACES_SAMPLER_ARG } satisfies Sampler
})

const hostForUrl = (host: string) =>
  host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host

// ---------------------------------------------------------------------------------------------------
// A refused setting.
// ---------------------------------------------------------------------------------------------------

/** A setting that cannot be used; the message names the variable first, then what it accepts. */
export class InvalidConfig extends Data.TaggedError("InvalidConfig")<{
  readonly variable: string
  readonly message: string
}> {}

const invalid = (variable: string, problem: string) =>
  new InvalidConfig({ variable, message: `Invalid configuration: ${variable}: ${problem}` })

const issues = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * The first issue of a refused variable, named by its path's first segment. Config keeps no input in
 * its issues and every schema above has its own message, so no value (and no secret) is repeated.
 */
const fromConfigError = (error: Config.ConfigError): InvalidConfig => {
  if (error.cause._tag === "SourceError") return invalid("environment", error.cause.message)
  const [first] = issues(error.cause.issue).issues
  const segment = first?.path?.[0]
  const name = typeof segment === "object" ? segment.key : segment
  return invalid(typeof name === "string" ? name : "environment", first?.message ?? "could not be read")
}
