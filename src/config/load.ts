/**
 * Reading the settings: every variable through its schema (`variables.ts`), with the rules that
 * join several of them; a refused setting stops start-up with `InvalidConfig`, whose message names
 * the variable first, then what it accepts.
 */

import type * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as SchemaIssue from "effect/SchemaIssue"
import { apiPrefix } from "../domain/addresses.ts"
import { isHttpUrl, originOf } from "./codecs.ts"
import type {
  AppSettings,
  ArtifactSettings,
  HttpTimeouts,
  MailSettings,
  RateLimitSettings,
  Sampler,
  TracingSettings,
  WebhookSettings
} from "./settings.ts"
import { variables } from "./variables.ts"

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
  const oauthAudience = (yield* variables.OAUTH_AUDIENCE) ?? `${base}${apiPrefix}`
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

  const mail = yield* mailSettings

  const settings: AppSettings = {
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
    mail,
    sandbox: yield* variables.SANDBOX,
    clientMetadataAllowPrivate: yield* variables.CLIENT_METADATA_ALLOW_PRIVATE
  }
  return settings
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

/** SMTP_URL turns mail on, and then needs MAIL_FROM; MAIL_FROM alone is refused (it would send nothing). */
const mailSettings = Effect.gen(function* () {
  const smtpUrl = yield* variables.SMTP_URL
  const from = yield* variables.MAIL_FROM
  const retryScheduleMs = yield* variables.MAIL_RETRY_SCHEDULE
  if (smtpUrl !== undefined && from === undefined) {
    return yield* invalid("MAIL_FROM", "must be set with SMTP_URL (the From of every mail)")
  }
  if (smtpUrl === undefined && from !== undefined) {
    return yield* invalid("MAIL_FROM", "applies only with SMTP_URL (without it no mail is sent)")
  }
  return {
    transport: smtpUrl === undefined || from === undefined ? undefined : { smtpUrl, from },
    retryScheduleMs
  } satisfies MailSettings
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

/** The settings with every variable unset: the defaults, whatever the environment says (the published snapshots). */
export const defaultSettings = (): AppSettings =>
  Effect.runSync(
    loadSettings.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: {} })))
  )
