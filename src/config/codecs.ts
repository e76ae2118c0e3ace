/**
 * What a variable's text may say: one small Schema per kind of value (a duration, a URL, a switch,
 * a size, a database address…), decoding the (trimmed) text. A refused value's message says what
 * the variable accepts and never repeats the value: it may be a secret.
 */

import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { type ArtifactStore, type DatabaseConfig, logLevels } from "./settings.ts"

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

export const second = 1000
export const minute = 60 * second
export const hour = 60 * minute
export const day = 24 * hour
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
export const DurationList = (minimum: number, maximum: number, most: number) => {
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
export const DurationBetween = (minimum: number, maximum: number) =>
  DurationMs.check(
    Schema.isBetween(
      { minimum, maximum },
      accepts(`a duration from ${formatDuration(minimum)} to ${formatDuration(maximum)}`)
    )
  )

/** A number written in digits (a fraction only when `fractions`), within bounds. */
export const NumberBetween = (minimum: number, maximum: number, what: string, fractions = false) =>
  Schema.Trim.pipe(
    Schema.decodeTo(
      Schema.Number.check(Schema.isBetween({ minimum, maximum }, accepts(what))),
      parsing((text) => ((fractions ? /^\d+(\.\d+)?$/ : /^\d+$/).test(text) ? Number(text) : undefined), String, what)
    )
  )

export const Port = NumberBetween(0, 65535, "a port number from 0 to 65535")

/** A rate limit: requests per window. */
export const Requests = NumberBetween(1, 999_999_999, "a whole number of requests from 1 to 999999999")

export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** An absolute http:// or https:// URL. */
export const HttpUrl = Schema.Trim.check(Schema.makeFilter(isHttpUrl, accepts("an absolute http(s) URL")))

/** `scheme://host[:port]`, as a browser sends it in `Origin`. */
export const originOf = (url: string) => new URL(url).origin

/** Origins separated by commas, each an http(s) origin (no path). */
export const OriginList = Schema.String.pipe(
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
export const Text = Schema.Trim

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

/** A log level in any case: `debug`, `Debug` and `DEBUG` are `Debug`. */
export const LogLevelName = Schema.Trim.pipe(
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
export const SignupMode = Schema.Trim.pipe(
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
export const Switch = Schema.Trim.pipe(
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
export const Secret = (minLength: number) =>
  Schema.RedactedFromValue(
    Schema.String.check(Schema.isMinLength(minLength, accepts(`at least ${minLength} characters`)))
  )

/** A Redis address, kept redacted (it may hold a password). */
export const RedisUrl = Schema.RedactedFromValue(
  Schema.Trim.check(Schema.isPattern(/^rediss?:\/\//, accepts("redis://host:port or rediss://…")))
)

/**
 * SMTP_URL: `smtp://` or `smtps://` (TLS from the first byte), a host, an optional port, and
 * optionally `user:password@` (percent-encoded); kept redacted: it holds the password.
 */
export const SmtpUrl = Schema.RedactedFromValue(
  Schema.Trim.check(
    Schema.makeFilter(
      (url: string) => /^smtps?:\/\/[^/\s]+\/?$/.test(url) && URL.canParse(url) && new URL(url).hostname !== "",
      accepts("smtp://[user:password@]host[:port] or smtps://…")
    )
  )
)

/** A mail address such as `Task marketplace <noreply@example.org>` or `noreply@example.org`. */
export const MailAddress = Schema.Trim.check(
  Schema.makeFilter(
    (text: string) => /^(?:[^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(text),
    accepts("a mail address, e.g. noreply@example.org or Task marketplace <noreply@example.org>")
  )
)

/** An OpenTelemetry collector's address (`http://collector:4318`, …). */
export const CollectorUrl = Schema.Trim.check(
  Schema.makeFilter(
    (url: string) => /^https?:\/\/[^/\s]+/.test(url) && URL.canParse(url),
    accepts("the collector's http:// or https:// address")
  )
)

/** OpenTelemetry's boolean: `true` in any case is true, anything else false (its specification). */
export const OtelBoolean = Schema.Trim.pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({ decode: (text) => text.toLowerCase() === "true", encode: String })
  )
)

/** OTEL_TRACES_EXPORTER, a comma-separated list of exporters: whether it names `otlp`. */
export const OtlpExporterChosen = Schema.Trim.pipe(
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
export const HeaderList = Schema.String.pipe(
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
export const SamplerName = Schema.Trim.pipe(
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
