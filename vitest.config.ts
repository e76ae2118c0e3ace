/**
 * Two projects: every test on the embedded SQLite default, and the storage and HTTP tests again on
 * Postgres (TEST_POSTGRES_URL, default the local server). Without a reachable Postgres the second
 * project is left out with a loud warning — and under CI=true that is a failure, never a skip. The
 * same holds for Redis (the shared rate-limit test) and Chromium (the browser tests: the docs page, the
 * authorization server's pages). The S3 blob store's tests use the S3-compatible server at
 * TEST_S3_ENDPOINT (`.ci/run` starts s3rver); without one they start s3rver in their own process —
 * except under CI=true, where a missing or unreachable endpoint is a failure.
 */
import { existsSync } from "node:fs"
import { connect } from "node:net"
import { defineConfig } from "vitest/config"

const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

const reachable = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port, protocol } = new URL(url)
    const defaultPort = protocol.startsWith("redis") ? 6379 : protocol.startsWith("http") ? 80 : 5432
    const socket = connect({ host: hostname, port: Number(port || defaultPort) })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(2000, () => done(false))
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
  })

export default defineConfig(async () => {
  const withPostgres = process.env.TEST_BACKENDS !== "sqlite" && (await reachable(postgresUrl))
  if (!withPostgres && process.env.TEST_BACKENDS !== "sqlite") {
    const message = `Postgres is not reachable at ${new URL(postgresUrl).host}: the Postgres half of the suite cannot run. Start it, or point TEST_POSTGRES_URL at one (README, "Tests").`
    if (process.env.CI) throw new Error(`CI=true: ${message}`)
    process.stderr.write(`\n*** WARNING: ${message} Running the SQLite half only. ***\n\n`)
  }
  const withRedis = process.env.TEST_BACKENDS !== "sqlite" && (await reachable(redisUrl))
  if (!withRedis && process.env.TEST_BACKENDS !== "sqlite") {
    const message = `Redis is not reachable at ${new URL(redisUrl).host}: the shared rate-limit test cannot run. Start it, or point TEST_REDIS_URL at one.`
    if (process.env.CI) throw new Error(`CI=true: ${message}`)
    process.stderr.write(`\n*** WARNING: ${message} ***\n\n`)
  }
  // The S3 store's tests (test/services/artifacts.test.ts, test/http/artifacts.test.ts).
  const s3Endpoint = process.env.TEST_S3_ENDPOINT
  if (process.env.CI && (s3Endpoint === undefined || s3Endpoint === "" || !(await reachable(s3Endpoint)))) {
    throw new Error(
      `CI=true: no S3-compatible server at TEST_S3_ENDPOINT (${s3Endpoint ?? "unset"}): the S3 store's tests cannot run. .ci/run starts s3rver and sets it.`
    )
  }
  // The browser tests (test/browser/: the docs page, the OAuth pages) need Chromium; the machine's, not a download.
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
  const withChromium = existsSync(chromiumPath)
  if (!withChromium) {
    const message = `Chromium is not installed at ${chromiumPath}: the browser tests (test/browser/) cannot run. Install it (apt-get install chromium), or point CHROMIUM_PATH at one.`
    if (process.env.CI) throw new Error(`CI=true: ${message}`)
    process.stderr.write(`\n*** WARNING: ${message} ***\n\n`)
  }
  return {
    test: {
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // A worker keeps the modules it loaded from one test file to the next (of its project: each
      // project has workers of its own). Loading src/ anew for every file was over a third of the
      // time; nothing depends on a fresh load (no vi.mock, no module-level state in test support
      // beyond a port counter, src/'s caches only memoise, every test builds its own layers, and the
      // one environment write, TASK_TOKEN_SECRET removed for child processes, harms no other file).
      // Workers stay at vitest's default (one fewer than the cores): more overlapped the waits but
      // slowed a CPU-bound property test past its timeout. docs/performance.md, "Test suite".
      isolate: false,
      projects: [
        {
          extends: true,
          test: {
            name: "sqlite",
            include: ["test/**/*.test.ts"],
            exclude: [
              "test/postgres/**",
              ...(withRedis ? [] : ["test/redis/**"]),
              ...(withChromium
                ? []
                : ["test/browser/**", "test/console/**", "test/oauth/flow.test.ts", "test/oauth/sign_up.test.ts"])
            ],
            env: { TEST_BACKEND: "sqlite", TEST_REDIS_URL: redisUrl, CHROMIUM_PATH: chromiumPath }
          }
        },
        ...(withPostgres
          ? [
              {
                extends: true,
                test: {
                  name: "postgres",
                  include: [
                    "test/http/**/*.test.ts",
                    "test/mcp/**/*.test.ts",
                    "test/services/**/*.test.ts",
                    "test/process/**/*.test.ts",
                    "test/operator/**/*.test.ts",
                    "test/postgres/**/*.test.ts",
                    "test/oauth/**/*.test.ts",
                    "test/console/**/*.test.ts"
                  ],
                  exclude: withChromium
                    ? []
                    : ["test/oauth/flow.test.ts", "test/oauth/sign_up.test.ts", "test/console/**"],
                  env: { TEST_BACKEND: "postgres", TEST_POSTGRES_URL: postgresUrl, CHROMIUM_PATH: chromiumPath }
                }
              }
            ]
          : [])
      ]
    }
  }
})
