/**
 * The service's settings as the code reads them: `AppSettings` and each subsystem's part of it
 * (database, uploaded files, webhooks, tracing, HTTP timeouts, rate limits), their defaults, and
 * the values derived from several settings (the issuer, the participant's MCP address…). Read from
 * the environment by `load.ts`; provided as the `AppConfig` service (`app_config.ts`).
 */

import { dirname, join } from "node:path"
import type * as Redacted from "effect/Redacted"

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
  /** Mail (services/mail_sender.ts): where it is sent, if anywhere, and how sending is retried. */
  readonly mail: MailSettings
  /**
   * SANDBOX: the service runs as a sandbox — simulated participants, a clock that can be moved
   * forward — on a database that holds nothing else (docs/decisions/sandbox.md).
   */
  readonly sandbox: boolean
  /**
   * CLIENT_METADATA_ALLOW_PRIVATE: whether the embedded authorization server may fetch a Client ID
   * Metadata Document from loopback, private and other non-public addresses, any port, with a
   * certificate nobody vouches for (development and tests only; as WEBHOOK_ALLOW_PRIVATE).
   */
  readonly clientMetadataAllowPrivate: boolean
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

/** Mail: the SMTP server and sender address (none: no mail is sent or queued), and the retries. */
export interface MailSettings {
  /** SMTP_URL and MAIL_FROM, both set; undefined when SMTP_URL is unset. */
  readonly transport: MailTransport | undefined
  /**
   * MAIL_RETRY_SCHEDULE: the waits between attempts, in order; a mail whose last retry fails too
   * is marked failed. The default spans a little over 24 hours.
   */
  readonly retryScheduleMs: ReadonlyArray<number>
}

export interface MailTransport {
  /** `smtp://` or `smtps://`, with the credentials: never logged. */
  readonly smtpUrl: Redacted.Redacted<string>
  /** The `From` of every mail. */
  readonly from: string
}

/** 5s, 30s, 2m, 10m, 1h, 3h, 6h, 14h: nine attempts over 24 h 12 min 35 s (as webhooks'). */
export const defaultMailRetrySchedule: ReadonlyArray<number> = [
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

/** The log levels LOG_LEVEL accepts, least severe first. */
export const logLevels = ["All", "Trace", "Debug", "Info", "Warn", "Error", "Fatal", "None"] as const
export type LogLevel = (typeof logLevels)[number]

/** Where the database is when DATABASE_URL is unset. */
export const defaultSqliteFile = "./data/marketplace.sqlite"
