/**
 * Every environment variable the service reads, declared once: its name, the schema its text is
 * decoded with (`codecs.ts`), and its default.
 */

import * as Config from "effect/Config"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { moveLimits } from "../domain/task.ts"
import {
  ArtifactStoreUrl,
  ByteSize,
  CollectorUrl,
  DatabaseUrl,
  DurationBetween,
  DurationList,
  day,
  HeaderList,
  HttpUrl,
  hour,
  LogLevelName,
  MailAddress,
  minute,
  NumberBetween,
  OriginList,
  OtelBoolean,
  OtlpExporterChosen,
  Port,
  RedisUrl,
  Requests,
  SamplerName,
  Secret,
  SignupMode,
  SmtpUrl,
  Switch,
  second,
  Text
} from "./codecs.ts"
import {
  defaultHttpTimeouts,
  defaultMailRetrySchedule,
  defaultSqliteFile,
  defaultWebhookRetrySchedule
} from "./settings.ts"

/** Unset, empty and blank are the same: the default applies. */
const blankAsUnset = SchemaTransformation.transform<string | undefined, string>({
  decode: (text) => (text.trim() === "" ? undefined : text),
  encode: (text) => text ?? ""
})

/**
 * What is declared of a variable besides how it is read: the schema its text is decoded with and
 * its default (undefined: unset, or made from other settings). The configuration reference
 * (docs/configuration.md, `npm run docs`) is rendered from it.
 */
export interface Declared {
  readonly schema: Schema.Codec<unknown, string>
  readonly fallback: unknown
}

/** One variable read through its schema; `fallback` when it is unset, empty or blank. */
const variable = <A, const D>(
  name: string,
  schema: Schema.Codec<A, string>,
  fallback: D
): Config.Config<A | D> & { readonly declared: Declared } =>
  Object.assign(
    Config.schema(Schema.String.pipe(Schema.decodeTo(Schema.UndefinedOr(schema), blankAsUnset)), name).pipe(
      Config.withDefault(undefined),
      Config.map((value) => (value === undefined ? fallback : value))
    ),
    { declared: { schema: schema as Schema.Codec<unknown, string>, fallback } }
  )

export const variables = {
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
  CLIENT_METADATA_ALLOW_PRIVATE: variable("CLIENT_METADATA_ALLOW_PRIVATE", Switch, false),
  // Up to 20 retries, each wait at most a week: an event is never retried for more than a few months.
  WEBHOOK_RETRY_SCHEDULE: variable(
    "WEBHOOK_RETRY_SCHEDULE",
    DurationList(100, 7 * day, 20),
    defaultWebhookRetrySchedule
  ),
  WEBHOOK_TIMEOUT: variable("WEBHOOK_TIMEOUT", DurationBetween(100, minute), 10 * second),
  SMTP_URL: variable("SMTP_URL", SmtpUrl, undefined),
  MAIL_FROM: variable("MAIL_FROM", MailAddress, undefined),
  // As WEBHOOK_RETRY_SCHEDULE: up to 20 retries, each wait at most a week.
  MAIL_RETRY_SCHEDULE: variable("MAIL_RETRY_SCHEDULE", DurationList(100, 7 * day, 20), defaultMailRetrySchedule),
  SANDBOX: variable("SANDBOX", Switch, false)
}
