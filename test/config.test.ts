import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import { loadSettings, parseDatabaseUrl } from "../src/config.ts"

const load = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.result(loadSettings).pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
    )
  )

describe("configuration", () => {
  it("defaults to the embedded SQLite file on 127.0.0.1:8080", async () => {
    const result = await load({})
    expect(result._tag).toBe("Success")
    if (result._tag !== "Success") return
    expect(result.success).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      database: { _tag: "Sqlite", filename: "./data/marketplace.sqlite" },
      publicBaseUrl: "http://127.0.0.1:8080",
      docsUrl: "http://127.0.0.1:8080/docs",
      logLevel: "Info"
    })
  })

  it("reads DATABASE_URL forms", () => {
    expect(parseDatabaseUrl("sqlite::memory:")).toEqual({ _tag: "Sqlite", filename: ":memory:" })
    expect(parseDatabaseUrl("sqlite:./x.db")).toEqual({ _tag: "Sqlite", filename: "./x.db" })
    const pg = parseDatabaseUrl("postgres://u@127.0.0.1:5432/test")
    expect(typeof pg === "object" && pg._tag === "Postgres" && Redacted.value(pg.url)).toBe(
      "postgres://u@127.0.0.1:5432/test"
    )
    expect(typeof parseDatabaseUrl("mysql://x")).toBe("string")
    expect(typeof parseDatabaseUrl("sqlite:")).toBe("string")
  })

  it("strips a trailing slash from PUBLIC_BASE_URL and derives the docs address", async () => {
    const result = await load({ PUBLIC_BASE_URL: "https://tasks.example.com/" })
    expect(result._tag === "Success" && result.success.publicBaseUrl).toBe("https://tasks.example.com")
    expect(result._tag === "Success" && result.success.docsUrl).toBe("https://tasks.example.com/docs")
  })

  it.each([
    ["PORT", "abc", "PORT"],
    ["PORT", "70000", "PORT"],
    ["DATABASE_URL", "mysql://x", "DATABASE_URL"],
    ["PUBLIC_BASE_URL", "not a url", "PUBLIC_BASE_URL"],
    ["LOG_LEVEL", "loud", "LOG_LEVEL"],
    ["TASK_TOKEN_SECRET", "short", "TASK_TOKEN_SECRET"],
    ["HEADERS_TIMEOUT", "soon", "HEADERS_TIMEOUT"],
    ["HEADERS_TIMEOUT", "50ms", "HEADERS_TIMEOUT"],
    ["HEADERS_TIMEOUT", "40s", "HEADERS_TIMEOUT"],
    ["REQUEST_TIMEOUT", "-1s", "REQUEST_TIMEOUT"],
    ["REQUEST_TIMEOUT", "2h", "REQUEST_TIMEOUT"],
    ["REQUEST_TIMEOUT", "5s", "HEADERS_TIMEOUT"],
    ["KEEP_ALIVE_TIMEOUT", "500ms", "KEEP_ALIVE_TIMEOUT"],
    ["KEEP_ALIVE_TIMEOUT", "forever", "KEEP_ALIVE_TIMEOUT"]
  ])("refuses %s=%s with a message naming the variable", async (name, value, variable) => {
    const result = await load({ [name]: value })
    expect(result._tag).toBe("Failure")
    if (result._tag !== "Failure") return
    expect(String((result.failure as Error).message)).toContain(`Invalid configuration: ${variable}:`)
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
    for (const off of [{ OTEL_SDK_DISABLED: "true" }, { OTEL_TRACES_EXPORTER: "none" }]) {
      const result = await load({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", ...off })
      expect(result._tag === "Success" && result.success.tracing).toBeUndefined()
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
})
