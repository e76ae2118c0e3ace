import { assert, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted, Result, Schema } from "effect"
import { AppConfig } from "../src/config/app_config.ts"
import { DatabaseUrl, DurationMs } from "../src/config/codecs.ts"
import { InvalidConfig, loadSettings } from "../src/config/load.ts"
import { type AppSettings, artifactStoreOf } from "../src/config/settings.ts"

const load = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.result(loadSettings).pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
    )
  )

const settings = async (env: Record<string, string>): Promise<AppSettings> => {
  const result = await load(env)
  if (result._tag === "Failure") throw new Error(`expected settings, got ${result.failure.message}`)
  return result.success
}

const refusal = async (env: Record<string, string>): Promise<InvalidConfig> => {
  const result = await load(env)
  if (result._tag === "Success") throw new Error(`expected ${JSON.stringify(env)} to be refused`)
  return result.failure
}

/** Every variable the service reads. */
const variables = [
  "PORT",
  "HOST",
  "DATABASE_URL",
  "PUBLIC_BASE_URL",
  "LOG_LEVEL",
  "DOCS_URL",
  "MCP_URL",
  "MCP_ALLOWED_ORIGINS",
  "OAUTH_ISSUER",
  "OAUTH_AUDIENCE",
  "OAUTH_JWKS_URI",
  "PARTICIPANT_SIGNUP",
  "TASK_TOKEN_SECRET",
  "SEED_SAMPLE_CATALOGUE",
  "OFFER_TIMEOUT",
  "REVIEW_WINDOW",
  "TIMER_SWEEP_INTERVAL",
  "RATE_LIMIT",
  "RATE_LIMIT_READS_PER_MINUTE",
  "RATE_LIMIT_WRITES_PER_MINUTE",
  "RATE_LIMIT_WINDOW",
  "REDIS_URL",
  "REDIS_KEY_PREFIX",
  "HEADERS_TIMEOUT",
  "REQUEST_TIMEOUT",
  "KEEP_ALIVE_TIMEOUT",
  "OTEL_SDK_DISABLED",
  "OTEL_TRACES_EXPORTER",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_SERVICE_NAME",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
  "ARTIFACT_STORE",
  "ARTIFACT_S3_ENDPOINT",
  "ARTIFACT_MAX_FILE_BYTES",
  "ARTIFACT_MAX_FILES",
  "WEBHOOK_ALLOW_PRIVATE",
  "WEBHOOK_RETRY_SCHEDULE",
  "WEBHOOK_TIMEOUT",
  "SMTP_URL",
  "MAIL_FROM",
  "MAIL_RETRY_SCHEDULE",
  "SANDBOX",
  "CLIENT_METADATA_ALLOW_PRIVATE"
] as const

// Tracing is read only when a collector is named, and its sampler's ratio only for a ratio sampler.
const tracingOn = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_SAMPLER: "traceidratio" }

describe("configuration", () => {
  it("defaults to the embedded SQLite file on 127.0.0.1:8080", async () => {
    expect(await settings({})).toEqual({
      port: 8080,
      host: "127.0.0.1",
      database: { _tag: "Sqlite", filename: "./data/marketplace.sqlite" },
      publicBaseUrl: "http://127.0.0.1:8080",
      logLevel: "Info",
      docsUrl: "http://127.0.0.1:8080/docs",
      mcpUrl: "http://127.0.0.1:8080/mcp",
      mcpAllowedOrigins: ["http://127.0.0.1:8080"],
      oauthIssuer: undefined,
      oauthAccessTokenTtlMs: 600_000,
      oauthRegistrationsPerHour: 100,
      participantSignup: "closed",
      taskTokenSecret: undefined,
      seedSampleCatalogue: true,
      oauthAudience: "http://127.0.0.1:8080/api/public/v1",
      oauthJwksUri: undefined,
      offerTimeoutMs: 24 * 3600_000,
      reviewWindowMs: 72 * 3600_000,
      timerSweepMs: 1000,
      rateLimit: { readsPerWindow: 600, writesPerWindow: 120, windowMs: 60_000 },
      redisUrl: undefined,
      redisKeyPrefix: "task-marketplace:",
      httpTimeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5000 },
      tracing: undefined,
      artifacts: { store: undefined, maxFileBytes: 25 * 1024 * 1024, maxFiles: 10 },
      webhooks: {
        allowPrivate: false,
        retryScheduleMs: [5_000, 30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 50_400_000],
        timeoutMs: 10_000
      },
      mail: {
        transport: undefined,
        retryScheduleMs: [5_000, 30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 50_400_000]
      },
      sandbox: false,
      clientMetadataAllowPrivate: false
    })
  })

  it("reads CLIENT_METADATA_ALLOW_PRIVATE as a switch, off unless set", async () => {
    expect((await settings({ CLIENT_METADATA_ALLOW_PRIVATE: "on" })).clientMetadataAllowPrivate).toBe(true)
    expect((await refusal({ CLIENT_METADATA_ALLOW_PRIVATE: "maybe" })).message).toContain(
      "CLIENT_METADATA_ALLOW_PRIVATE"
    )
  })

  it("reads the webhooks' switch, retry schedule and timeout; the default schedule spans at least 24 hours", async () => {
    const defaults = (await settings({})).webhooks
    expect(defaults.retryScheduleMs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3600_000)
    const set = (
      await settings({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: " 500ms, 2s,1m ", WEBHOOK_TIMEOUT: "3s" })
    ).webhooks
    expect(set).toEqual({ allowPrivate: true, retryScheduleMs: [500, 2000, 60_000], timeoutMs: 3000 })
    for (const [value, says] of [
      ["5s,,30s", /durations from 100ms to 7d separated by commas/],
      ["5s,soon", /durations from/],
      ["8d", /durations from/],
      [Array.from({ length: 21 }, () => "1s").join(","), /at most 20/]
    ] as const) {
      const refused = await refusal({ WEBHOOK_RETRY_SCHEDULE: value })
      expect(refused.message).toMatch(/^Invalid configuration: WEBHOOK_RETRY_SCHEDULE: /)
      expect(refused.message).toMatch(says)
    }
    expect((await refusal({ WEBHOOK_TIMEOUT: "2m" })).message).toMatch(/^Invalid configuration: WEBHOOK_TIMEOUT: /)
    expect((await refusal({ WEBHOOK_ALLOW_PRIVATE: "maybe" })).message).toMatch(
      /WEBHOOK_ALLOW_PRIVATE: expected on or off/
    )
  })

  it("reads where uploaded files go and their limits; by default beside the database", async () => {
    const store = async (env: Record<string, string>) => (await settings(env)).artifacts
    expect((await store({ ARTIFACT_STORE: "file:/var/lib/evidence" })).store).toEqual({
      _tag: "Files",
      directory: "/var/lib/evidence"
    })
    expect((await store({ ARTIFACT_STORE: "file://./evidence" })).store).toEqual({
      _tag: "Files",
      directory: "./evidence"
    })
    expect((await store({ ARTIFACT_STORE: "s3://my-bucket/tasks/evidence/" })).store).toEqual({
      _tag: "S3",
      bucket: "my-bucket",
      prefix: "tasks/evidence",
      endpoint: undefined
    })
    expect(
      (await store({ ARTIFACT_STORE: "s3://my-bucket", ARTIFACT_S3_ENDPOINT: "http://127.0.0.1:9000/" })).store
    ).toEqual({ _tag: "S3", bucket: "my-bucket", prefix: "", endpoint: "http://127.0.0.1:9000" })
    for (const [text, bytes] of [
      ["1048576", 1048576],
      ["25MiB", 25 * 1024 ** 2],
      ["512 kib", 512 * 1024],
      ["10MB", 10_000_000],
      ["5GiB", 5 * 1024 ** 3]
    ] as const) {
      expect((await store({ ARTIFACT_MAX_FILE_BYTES: text })).maxFileBytes, text).toBe(bytes)
    }
    expect((await store({ ARTIFACT_MAX_FILES: "50" })).maxFiles).toBe(50)

    const base = await settings({})
    const at = (database: AppSettings["database"]) => artifactStoreOf({ ...base, database })
    expect(at({ _tag: "Sqlite", filename: "./data/marketplace.sqlite" })).toEqual({
      _tag: "Files",
      directory: "data/artifacts"
    })
    expect(at({ _tag: "Sqlite", filename: "/srv/m.db" })).toEqual({ _tag: "Files", directory: "/srv/artifacts" })
    expect(at({ _tag: "Sqlite", filename: ":memory:" })).toEqual({ _tag: "Temporary" })
    expect(at({ _tag: "Postgres", url: Redacted.make("postgres://db/x") })).toEqual({
      _tag: "Files",
      directory: "./data/artifacts"
    })
  })

  it.each([
    ["ARTIFACT_STORE", "ftp://host/x", /file:<directory> or s3:\/\/<bucket>/],
    ["ARTIFACT_STORE", "s3://Not_A_Bucket/x", /bucket name/],
    ["ARTIFACT_STORE", "file:", /file:<directory>/],
    ["ARTIFACT_S3_ENDPOINT", "http://127.0.0.1:9000", /applies only with ARTIFACT_STORE=s3/],
    ["ARTIFACT_S3_ENDPOINT", "not a url", /absolute http\(s\) URL/],
    ["ARTIFACT_MAX_FILE_BYTES", "0", /a size from 1 to 5GiB/],
    ["ARTIFACT_MAX_FILE_BYTES", "6GiB", /a size from 1 to 5GiB/],
    ["ARTIFACT_MAX_FILE_BYTES", "lots", /a size from 1 to 5GiB/],
    ["ARTIFACT_MAX_FILES", "0", /from 1 to 50/],
    ["ARTIFACT_MAX_FILES", "51", /from 1 to 50/]
  ])("refuses %s=%s, naming the variable", async (name, value, says) => {
    const refused = await refusal({
      ...(name === "ARTIFACT_S3_ENDPOINT" && value !== "http://127.0.0.1:9000" ? { ARTIFACT_STORE: "s3://b-1" } : {}),
      [name]: value
    })
    expect(refused.message).toMatch(new RegExp(`^Invalid configuration: ${name}: `))
    expect(refused.message).toMatch(says)
  })

  it("an empty or blank variable is unset: its default applies", async () => {
    for (const name of variables) {
      // With tracing on, so that every variable is read.
      const others = Object.fromEntries(Object.entries(tracingOn).filter(([key]) => key !== name))
      const unset = await settings(others)
      for (const blank of ["", "   ", "\t"]) {
        expect(await settings({ ...others, [name]: blank }), name).toEqual(unset)
      }
    }
  })

  it("reads DATABASE_URL forms, a Postgres address redacted", () => {
    const decode = Schema.decodeUnknownResult(DatabaseUrl)
    expect(decode("sqlite::memory:")).toEqual(Result.succeed({ _tag: "Sqlite", filename: ":memory:" }))
    expect(decode(" sqlite:./x.db ")).toEqual(Result.succeed({ _tag: "Sqlite", filename: "./x.db" }))
    expect(decode("sqlite://./x.db")).toEqual(Result.succeed({ _tag: "Sqlite", filename: "./x.db" }))
    for (const url of ["postgres://u@127.0.0.1:5432/test", "postgresql://u:pw@db/test"]) {
      const pg = Result.getOrThrow(decode(url))
      assert.strictEqual(pg._tag, "Postgres")
      if (pg._tag !== "Postgres") return
      expect(Redacted.value(pg.url)).toBe(url)
      expect(String(pg.url)).toBe("<redacted>")
    }
    for (const refused of ["mysql://x", "sqlite:", "sqlite://", "postgres:/x", "./data/x.sqlite"]) {
      expect(Result.isFailure(decode(refused)), refused).toBe(true)
    }
  })

  it("strips a trailing slash from PUBLIC_BASE_URL and derives the docs, MCP and audience addresses", async () => {
    const set = await settings({ PUBLIC_BASE_URL: " https://tasks.example.com/ " })
    expect(set).toMatchObject({
      publicBaseUrl: "https://tasks.example.com",
      docsUrl: "https://tasks.example.com/docs",
      mcpUrl: "https://tasks.example.com/mcp",
      oauthAudience: "https://tasks.example.com/api/public/v1"
    })
    // Unset, the base comes from HOST and PORT (any-address hosts are reached on loopback).
    expect((await settings({ HOST: "0.0.0.0", PORT: "9000" })).publicBaseUrl).toBe("http://127.0.0.1:9000")
    expect((await settings({ HOST: "::1" })).publicBaseUrl).toBe("http://[::1]:8080")
    expect((await settings({ HOST: "::" })).host).toBe("::")
  })

  it.each<[Record<string, string>, Partial<AppSettings>]>([
    [{ PORT: "0" }, { port: 0 }],
    [{ PORT: " 65535 " }, { port: 65535 }],
    [{ HOST: "0.0.0.0" }, { host: "0.0.0.0" }],
    [{ LOG_LEVEL: "debug" }, { logLevel: "Debug" }],
    [{ LOG_LEVEL: " NONE " }, { logLevel: "None" }],
    [{ LOG_LEVEL: "All" }, { logLevel: "All" }],
    [{ DOCS_URL: "https://docs.example.com/v1/" }, { docsUrl: "https://docs.example.com/v1" }],
    [{ MCP_URL: "https://mcp.example.com/" }, { mcpUrl: "https://mcp.example.com/" }],
    [
      { MCP_ALLOWED_ORIGINS: " https://app.example.com, http://localhost:6274/ " },
      { mcpAllowedOrigins: ["https://app.example.com", "http://localhost:6274"] }
    ],
    [{ PUBLIC_BASE_URL: "https://market.example.com/base/" }, { mcpAllowedOrigins: ["https://market.example.com"] }],
    [{ OAUTH_ISSUER: "https://issuer.example.com" }, { oauthIssuer: "https://issuer.example.com" }],
    [{ OAUTH_JWKS_URI: "http://issuer:9000/jwks" }, { oauthJwksUri: "http://issuer:9000/jwks" }],
    [{ OAUTH_AUDIENCE: " urn:task-marketplace " }, { oauthAudience: "urn:task-marketplace" }],
    [{ OAUTH_ACCESS_TOKEN_TTL: "2m" }, { oauthAccessTokenTtlMs: 120_000 }],
    [{ OAUTH_REGISTRATIONS_PER_HOUR: "20" }, { oauthRegistrationsPerHour: 20 }],
    [{ PARTICIPANT_SIGNUP: "open" }, { participantSignup: "open" }],
    [{ PARTICIPANT_SIGNUP: " Open " }, { participantSignup: "open" }],
    [{ PARTICIPANT_SIGNUP: "CLOSED" }, { participantSignup: "closed" }],
    [{ SEED_SAMPLE_CATALOGUE: "off" }, { seedSampleCatalogue: false }],
    [{ SEED_SAMPLE_CATALOGUE: "FALSE" }, { seedSampleCatalogue: false }],
    [{ SEED_SAMPLE_CATALOGUE: "0" }, { seedSampleCatalogue: false }],
    [{ SEED_SAMPLE_CATALOGUE: "no" }, { seedSampleCatalogue: false }],
    [{ SEED_SAMPLE_CATALOGUE: "Yes" }, { seedSampleCatalogue: true }],
    [{ SEED_SAMPLE_CATALOGUE: "1" }, { seedSampleCatalogue: true }],
    [{ OFFER_TIMEOUT: "15m" }, { offerTimeoutMs: 900_000 }],
    [{ OFFER_TIMEOUT: "365d" }, { offerTimeoutMs: 365 * 86_400_000 }],
    [{ REVIEW_WINDOW: "3d" }, { reviewWindowMs: 3 * 86_400_000 }],
    [{ REVIEW_WINDOW: "100ms" }, { reviewWindowMs: 100 }],
    [{ TIMER_SWEEP_INTERVAL: "10ms" }, { timerSweepMs: 10 }],
    [{ TIMER_SWEEP_INTERVAL: "90" }, { timerSweepMs: 90_000 }],
    [{ RATE_LIMIT: "off" }, { rateLimit: undefined }],
    [{ RATE_LIMIT: "False" }, { rateLimit: undefined }],
    [{ RATE_LIMIT: "0" }, { rateLimit: undefined }],
    [{ RATE_LIMIT: "ON" }, { rateLimit: { readsPerWindow: 600, writesPerWindow: 120, windowMs: 60_000 } }],
    [
      { RATE_LIMIT_READS_PER_MINUTE: "1", RATE_LIMIT_WRITES_PER_MINUTE: "999999999", RATE_LIMIT_WINDOW: "1.5s" },
      { rateLimit: { readsPerWindow: 1, writesPerWindow: 999_999_999, windowMs: 1500 } }
    ],
    // Limits that are off are not read at all.
    [{ RATE_LIMIT: "off", RATE_LIMIT_READS_PER_MINUTE: "lots" }, { rateLimit: undefined }],
    [{ REDIS_KEY_PREFIX: "tm-eu:" }, { redisKeyPrefix: "tm-eu:" }],
    [{ KEEP_ALIVE_TIMEOUT: "1s", HEADERS_TIMEOUT: "60m", REQUEST_TIMEOUT: "1h" }, {}]
  ])("accepts %j", async (env, expected) => {
    expect(await settings(env)).toMatchObject(expected)
  })

  it("keeps a task-token secret and a Redis address redacted", async () => {
    const secret = "a-task-token-secret-of-32-chars!"
    const set = await settings({ TASK_TOKEN_SECRET: secret, REDIS_URL: " rediss://:r3dis-pw@cache:6380 " })
    expect(set.taskTokenSecret && Redacted.value(set.taskTokenSecret)).toBe(secret)
    expect(set.redisUrl && Redacted.value(set.redisUrl)).toBe("rediss://:r3dis-pw@cache:6380")
    for (const printed of [JSON.stringify(set), String(set.taskTokenSecret), String(set.redisUrl)]) {
      expect(printed).not.toContain(secret)
      expect(printed).not.toContain("r3dis-pw")
    }
  })

  it.each([
    ["PORT", "abc", "expected a port number from 0 to 65535"],
    ["PORT", "70000", "expected a port number from 0 to 65535"],
    ["PORT", "-1", "expected a port number from 0 to 65535"],
    ["PORT", "80.5", "expected a port number from 0 to 65535"],
    ["DATABASE_URL", "mysql://x", "expected sqlite:<path>, sqlite::memory: or postgres://"],
    ["DATABASE_URL", "postgres:/x", "expected sqlite:<path>, sqlite::memory: or postgres://"],
    ["DATABASE_URL", "sqlite:", "expected a path after sqlite:"],
    ["DATABASE_URL", "sqlite://", "expected a path after sqlite:"],
    ["PUBLIC_BASE_URL", "not a url", "expected an absolute http(s) URL"],
    ["PUBLIC_BASE_URL", "ftp://files.example.com", "expected an absolute http(s) URL"],
    ["LOG_LEVEL", "loud", "expected one of All, Trace, Debug, Info, Warn, Error, Fatal, None"],
    ["DOCS_URL", "docs", "expected an absolute http(s) URL"],
    ["MCP_URL", "ws://mcp.example.com", "expected an absolute http(s) URL"],
    [
      "MCP_ALLOWED_ORIGINS",
      "https://app.example.com/path",
      "expected http(s) origins (scheme://host[:port]) separated by commas"
    ],
    ["MCP_ALLOWED_ORIGINS", "*", "expected http(s) origins (scheme://host[:port]) separated by commas"],
    ["OAUTH_ISSUER", "issuer.example.com", "expected an absolute http(s) URL"],
    ["OAUTH_JWKS_URI", "file:///jwks.json", "expected an absolute http(s) URL"],
    ["OAUTH_ACCESS_TOKEN_TTL", "1h", "expected a duration from 1s to 10m"],
    ["OAUTH_REGISTRATIONS_PER_HOUR", "0", "expected a whole number of requests"],
    ["PARTICIPANT_SIGNUP", "yes", "expected open or closed"],
    ["PARTICIPANT_SIGNUP", "invite-only", "expected open or closed"],
    ["TASK_TOKEN_SECRET", "short", "expected at least 32 characters"],
    ["SEED_SAMPLE_CATALOGUE", "flase", "expected on or off"],
    ["OFFER_TIMEOUT", "soon", "expected a duration such as 90 (seconds), 500ms, 30s, 15m, 24h or 3d"],
    ["OFFER_TIMEOUT", "50ms", "expected a duration from 100ms to 365d"],
    ["OFFER_TIMEOUT", "366d", "expected a duration from 100ms to 365d"],
    ["OFFER_TIMEOUT", "1000000000d", "expected a duration from 100ms to 365d"],
    ["REVIEW_WINDOW", "-1h", "expected a duration such as"],
    ["REVIEW_WINDOW", "2w", "expected a duration such as"],
    ["TIMER_SWEEP_INTERVAL", "5ms", "expected a duration from 10ms to 365d"],
    ["RATE_LIMIT", "maybe", "expected on or off"],
    ["RATE_LIMIT_READS_PER_MINUTE", "0", "expected a whole number of requests from 1 to 999999999"],
    ["RATE_LIMIT_READS_PER_MINUTE", "ten", "expected a whole number of requests"],
    ["RATE_LIMIT_READS_PER_MINUTE", "1e3", "expected a whole number of requests"],
    ["RATE_LIMIT_READS_PER_MINUTE", "1000000000", "expected a whole number of requests"],
    ["RATE_LIMIT_WRITES_PER_MINUTE", "-5", "expected a whole number of requests"],
    ["RATE_LIMIT_WINDOW", "50ms", "expected a duration from 100ms to 365d"],
    ["REDIS_URL", "http://cache:6379", "expected redis://host:port or rediss://…"],
    ["HEADERS_TIMEOUT", "soon", "expected a duration such as"],
    ["HEADERS_TIMEOUT", "50ms", "expected a duration from 100ms to 1h"],
    ["HEADERS_TIMEOUT", "40s", "must not be longer than REQUEST_TIMEOUT (30000 ms)"],
    ["REQUEST_TIMEOUT", "-1s", "expected a duration such as"],
    ["REQUEST_TIMEOUT", "2h", "expected a duration from 100ms to 1h"],
    ["KEEP_ALIVE_TIMEOUT", "500ms", "expected a duration from 1s to 1h"],
    ["KEEP_ALIVE_TIMEOUT", "forever", "expected a duration such as"]
  ])("refuses %s=%s with a message naming the variable first", async (name, value, expected) => {
    const failure = await refusal({ [name]: value })
    expect(failure).toBeInstanceOf(InvalidConfig)
    expect(failure._tag).toBe("InvalidConfig")
    expect(failure.variable).toBe(name)
    expect(failure.message).toMatch(new RegExp(`^Invalid configuration: ${name}: `))
    expect(failure.message).toContain(expected)
  })

  it("names the variable a cross-field rule blames", async () => {
    const shorter = await refusal({ REQUEST_TIMEOUT: "5s" })
    expect(shorter.message).toBe(
      "Invalid configuration: HEADERS_TIMEOUT: must not be longer than REQUEST_TIMEOUT (5000 ms)"
    )
    // PUBLIC_BASE_URL unset is made from HOST; a HOST that makes no URL asks for PUBLIC_BASE_URL.
    const host = await refusal({ HOST: "no such host" })
    expect(host.message).toMatch(/^Invalid configuration: PUBLIC_BASE_URL: expected an absolute http\(s\) URL/)
    expect(host.message).not.toContain("no such host")
    expect((await settings({ HOST: "no such host", PUBLIC_BASE_URL: "http://x.example" })).host).toBe("no such host")
  })

  it.each([
    ["PORT", "s3cret"],
    ["PUBLIC_BASE_URL", "s3cret"],
    ["LOG_LEVEL", "s3cret"],
    ["OFFER_TIMEOUT", "s3cret"],
    ["DATABASE_URL", "mysql://user:s3cret@db/x"],
    ["DATABASE_URL", "postgres:/user:s3cret@db/x"],
    ["TASK_TOKEN_SECRET", "too-short-s3cret"],
    ["REDIS_URL", "http://user:s3cret@cache:6379"],
    ["OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=%zz-s3cret"],
    ["OTEL_EXPORTER_OTLP_HEADERS", "no-value-s3cret"],
    ["OTEL_EXPORTER_OTLP_TRACES_HEADERS", "=s3cret"],
    ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "s3cret"],
    ["ARTIFACT_STORE", "s3://user:s3cret@bucket"],
    ["ARTIFACT_MAX_FILE_BYTES", "s3cret"]
  ])("a refused %s never repeats its value", async (name, value) => {
    const result = await load({ ...tracingOn, [name]: value })
    expect(result._tag).toBe("Failure")
    if (result._tag !== "Failure") return
    expect(result.failure.message).toMatch(new RegExp(`^Invalid configuration: ${name}: expected `))
    expect(JSON.stringify(result)).not.toContain("s3cret")
    expect(String(result.failure)).not.toContain("s3cret")
    expect(result.failure.stack ?? "").not.toContain("s3cret")
  })

  it("reads mail: off unless SMTP_URL is set; then MAIL_FROM is needed; the URL (with its password) stays redacted", async () => {
    const off = (await settings({})).mail
    expect(off.transport).toBeUndefined()
    expect(off.retryScheduleMs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3600_000)
    expect(off.retryScheduleMs[0]).toBeLessThanOrEqual(10_000)
    const on = (
      await settings({
        SMTP_URL: " smtps://mailer:m4il-pw@smtp.example.org:465 ",
        MAIL_FROM: "Task marketplace <noreply@example.org>",
        MAIL_RETRY_SCHEDULE: "1s,5s"
      })
    ).mail
    expect(on.transport && Redacted.value(on.transport.smtpUrl)).toBe("smtps://mailer:m4il-pw@smtp.example.org:465")
    expect(on.transport?.from).toBe("Task marketplace <noreply@example.org>")
    expect(on.retryScheduleMs).toEqual([1000, 5000])
    expect(JSON.stringify(on)).not.toContain("m4il-pw")
    expect(String(on.transport?.smtpUrl)).not.toContain("m4il-pw")
    const noFrom = await refusal({ SMTP_URL: "smtp://localhost:2525" })
    expect(noFrom.message).toBe("Invalid configuration: MAIL_FROM: must be set with SMTP_URL (the From of every mail)")
    const fromAlone = await refusal({ MAIL_FROM: "noreply@example.org" })
    expect(fromAlone.variable).toBe("MAIL_FROM")
    for (const [name, value, says] of [
      ["SMTP_URL", "http://mailer:s3cret@smtp.example.org", "expected smtp://[user:password@]host[:port] or smtps://…"],
      ["SMTP_URL", "smtp://", "expected smtp://"],
      ["MAIL_FROM", "nobody", "expected a mail address"],
      ["MAIL_RETRY_SCHEDULE", "5s,,1m", "durations from 100ms to 7d"]
    ] as const) {
      const failure = await refusal({ SMTP_URL: "smtp://localhost:2525", MAIL_FROM: "a@example.org", [name]: value })
      expect(failure.variable).toBe(name)
      expect(failure.message).toContain(says)
      expect(JSON.stringify(failure)).not.toContain("s3cret")
    }
  })

  it("reads the slow-client timeouts, 10 s, 30 s and 5 s unless set", async () => {
    const defaults = await load({})
    expect(defaults._tag === "Success" && defaults.success.httpTimeouts).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5000
    })
    const set = await load({ HEADERS_TIMEOUT: "1500ms", REQUEST_TIMEOUT: "2m", KEEP_ALIVE_TIMEOUT: "65" })
    expect(set._tag === "Success" && set.success.httpTimeouts).toEqual({
      headersMs: 1500,
      requestMs: 120_000,
      keepAliveMs: 65_000
    })
    // The headers are part of the request: equal is fine, longer is not (node:http refuses it too).
    const equal = await load({ HEADERS_TIMEOUT: "5s", REQUEST_TIMEOUT: "5s" })
    expect(equal._tag).toBe("Success")
    const longer = await load({ HEADERS_TIMEOUT: "6s", REQUEST_TIMEOUT: "5s" })
    expect(longer._tag === "Failure" && (longer.failure as Error).message).toBe(
      "Invalid configuration: HEADERS_TIMEOUT: must not be longer than REQUEST_TIMEOUT (5000 ms)"
    )
  })

  it("never puts a database password in an error or the settings' printed form", async () => {
    const result = await load({ DATABASE_URL: "postgres://user:s3cret@127.0.0.1/db" })
    expect(result._tag).toBe("Success")
    expect(JSON.stringify(result)).not.toContain("s3cret")
    expect(String(result)).not.toContain("s3cret")
  })

  it("turns tracing on with an OpenTelemetry collector address, with the standard sampler variables", async () => {
    const none = await load({})
    expect(none._tag === "Success" && none.success.tracing).toBeUndefined()
    const base = await load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/", OTEL_SERVICE_NAME: "tm-eu" })
    expect(base._tag === "Success" && base.success.tracing).toMatchObject({
      url: "http://collector:4318/v1/traces",
      serviceName: "tm-eu",
      exportIntervalMs: 5000,
      sampler: { parentBased: true, ratio: 1 }
    })
    const traces = await load({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.com/ingest",
      OTEL_TRACES_SAMPLER: "traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25"
    })
    expect(traces._tag === "Success" && traces.success.tracing).toMatchObject({
      url: "https://traces.example.com/ingest",
      sampler: { parentBased: false, ratio: 0.25 }
    })
    for (const off of [
      { OTEL_SDK_DISABLED: "true" },
      { OTEL_SDK_DISABLED: "TRUE" },
      { OTEL_TRACES_EXPORTER: "none" },
      { OTEL_TRACES_EXPORTER: "console" }
    ]) {
      const result = await load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", ...off })
      expect(result._tag === "Success" && result.success.tracing).toBeUndefined()
    }
    // OpenTelemetry's booleans: anything but `true` is false; `otlp` among other exporters is enough.
    for (const on of [
      { OTEL_SDK_DISABLED: "false" },
      { OTEL_SDK_DISABLED: "1" },
      { OTEL_TRACES_EXPORTER: "console, otlp" }
    ]) {
      const result = await load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", ...on })
      expect(result._tag === "Success" && result.success.tracing?.url).toBe("http://collector:4318/v1/traces")
    }
    for (const [name, value] of [
      ["OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"],
      ["OTEL_TRACES_SAMPLER", "sometimes"],
      ["OTEL_TRACES_SAMPLER_ARG", "1.5"],
      ["OTEL_BSP_SCHEDULE_DELAY", "5s"],
      ["OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=%zz-secret"],
      ["OTEL_EXPORTER_OTLP_HEADERS", "no-value-secret"]
    ] as const) {
      const result = await load({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        [name]: value
      })
      expect(result._tag === "Failure" && (result.failure as Error).message).toContain(name)
      expect(JSON.stringify(result)).not.toContain("secret")
    }
    // A collector's key in OTEL_EXPORTER_OTLP_HEADERS is never printed.
    const keyed = await load({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=k3y-5ecret"
    })
    expect(keyed._tag === "Success" && Redacted.value(keyed.success.tracing!.headers)).toEqual({
      "x-api-key": "k3y-5ecret"
    })
    expect(JSON.stringify(keyed)).not.toContain("k3y-5ecret")
    expect(String(keyed)).not.toContain("k3y-5ecret")
  })

  it.each<[Record<string, string>, Record<string, unknown>]>([
    [{ OTEL_TRACES_SAMPLER: "always_off" }, { sampler: { parentBased: false, ratio: 0 } }],
    [{ OTEL_TRACES_SAMPLER: "ParentBased_Always_Off" }, { sampler: { parentBased: true, ratio: 0 } }],
    [
      { OTEL_TRACES_SAMPLER: "always_on", OTEL_TRACES_SAMPLER_ARG: "junk" },
      { sampler: { parentBased: false, ratio: 1 } }
    ],
    [{ OTEL_TRACES_SAMPLER_ARG: "0" }, { sampler: { parentBased: false, ratio: 0 } }],
    [{ OTEL_TRACES_SAMPLER_ARG: "1" }, { sampler: { parentBased: false, ratio: 1 } }],
    [{ OTEL_BSP_SCHEDULE_DELAY: "10" }, { exportIntervalMs: 10 }],
    [{ OTEL_BSP_SCHEDULE_DELAY: "3600000" }, { exportIntervalMs: 3_600_000 }],
    [{ OTEL_SERVICE_NAME: " tm-us " }, { serviceName: "tm-us" }],
    [
      { OTEL_EXPORTER_OTLP_HEADERS: "a=1", OTEL_EXPORTER_OTLP_TRACES_HEADERS: "b=2, c=%20three" },
      { headers: { b: "2", c: " three" } }
    ],
    [{ OTEL_EXPORTER_OTLP_HEADERS: "a=1,,b==2" }, { headers: { a: "1", b: "=2" } }]
  ])("reads the tracing settings %j", async (env, expected) => {
    const tracing = (await settings({ ...tracingOn, ...env })).tracing
    assert.isDefined(tracing)
    const { headers, ...rest } = expected
    expect(tracing).toMatchObject(rest)
    if (headers !== undefined) expect(Redacted.value(tracing.headers)).toEqual(headers)
  })

  it.each([
    ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "ftp://collector"],
    ["OTEL_TRACES_SAMPLER_ARG", "-0.1"],
    ["OTEL_TRACES_SAMPLER_ARG", "half"],
    ["OTEL_BSP_SCHEDULE_DELAY", "9"],
    ["OTEL_BSP_SCHEDULE_DELAY", "3600001"],
    ["OTEL_BSP_SCHEDULE_DELAY", "1.5"]
  ])("refuses %s=%s while tracing is on", async (name, value) => {
    const failure = await refusal({ ...tracingOn, [name]: value })
    expect(failure.message).toMatch(new RegExp(`^Invalid configuration: ${name}: expected `))
  })
})

const units = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const
const Unit = Schema.Literals(["ms", "s", "m", "h", "d"])
const propOptions = { arbitrary: { runs: Number(process.env.PROP_RUNS ?? 300) } }

describe("durations", () => {
  const decode = Schema.decodeUnknownResult(DurationMs)

  it.prop(
    "a whole number and a unit (any case, spaced or not) is that many milliseconds",
    {
      amount: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })),
      unit: Unit,
      upper: Schema.Boolean,
      space: Schema.Literals(["", " ", "  "])
    },
    ({ amount, space, unit, upper }) => {
      const text = ` ${amount}${space}${upper ? unit.toUpperCase() : unit} `
      assert.deepStrictEqual(decode(text), Result.succeed(amount * units[unit]))
    },
    propOptions
  )

  it.prop(
    "a bare number is seconds, and a fraction is rounded to the millisecond",
    { tenths: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000 })), unit: Unit },
    ({ tenths, unit }) => {
      assert.deepStrictEqual(decode(String(tenths)), Result.succeed(tenths * 1000))
      const text = `${Math.floor(tenths / 10)}.${tenths % 10}${unit}`
      assert.deepStrictEqual(decode(text), Result.succeed(Math.round((tenths * units[unit]) / 10)))
    },
    propOptions
  )

  it.prop(
    "every whole number of milliseconds is written in a form that reads back the same",
    { ms: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1e13 })) },
    ({ ms }) => {
      const text = Schema.encodeSync(DurationMs)(ms)
      assert.match(text, /^\d+(ms|s|m|h|d)$/)
      assert.deepStrictEqual(decode(text), Result.succeed(ms))
    },
    propOptions
  )

  it.prop(
    "a signed number, an unknown unit or stray text is refused",
    {
      amount: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })),
      unit: Unit,
      wrong: Schema.Literals([
        "-{n}{u}",
        "+{n}{u}",
        "{n}{u}s",
        "{n}w",
        "{n}y",
        "{n}us",
        "{n} {u} ago",
        "{n}e3{u}",
        "{u}{n}"
      ])
    },
    ({ amount, unit, wrong }) => {
      const text = wrong.replace("{n}", String(amount)).replace("{u}", unit)
      // `{n}{u}s` is still a duration when it spells `ms`.
      if (wrong === "{n}{u}s" && unit === "m") return
      assert.isTrue(Result.isFailure(decode(text)), text)
    },
    propOptions
  )
})

describe("AppConfig.layerWithOverrides (makeFetchHandler's settings)", () => {
  const withOverrides = (env: Record<string, string>, overrides: Partial<AppSettings>) =>
    Effect.runPromise(
      Effect.result(
        Effect.provide(
          AppConfig.useSync((settings) => settings),
          AppConfig.layerWithOverrides(overrides)
        )
      ).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))
    )

  it("merges the overrides over the settings read from the environment", async () => {
    const result = await withOverrides(
      { OFFER_TIMEOUT: "2h", PUBLIC_BASE_URL: "https://env.example" },
      { publicBaseUrl: "https://tasks.example.com", seedSampleCatalogue: false }
    )
    if (result._tag === "Failure") throw new Error(result.failure.message)
    expect(result.success.publicBaseUrl).toBe("https://tasks.example.com")
    expect(result.success.seedSampleCatalogue).toBe(false)
    // Read from the environment: neither overridden nor a test default.
    expect(result.success.offerTimeoutMs).toBe(2 * 3600_000)
    // Derived from the environment's base URL, which the override does not recompute.
    expect(result.success.docsUrl).toBe("https://env.example/docs")
  })

  it("still refuses a bad variable", async () => {
    const result = await withOverrides({ OFFER_TIMEOUT: "soon" }, { publicBaseUrl: "https://tasks.example.com" })
    assert.isTrue(Result.isFailure(result))
    if (result._tag === "Failure") expect(result.failure.variable).toBe("OFFER_TIMEOUT")
  })
})
