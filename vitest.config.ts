/**
 * Two projects: every test on the embedded SQLite default, and the storage and HTTP tests again on
 * Postgres (TEST_POSTGRES_URL, default the local server). Without a reachable Postgres the second
 * project is left out with a loud warning — and under CI=true that is a failure, never a skip. The
 * same holds for Redis (the shared rate-limit test) and Chromium (the browser tests: the docs page, the
 * authorization server's pages).
 */
import { existsSync } from "node:fs"
import { connect } from "node:net"
import { defineConfig } from "vitest/config"

const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

const reachable = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port, protocol } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port || (protocol.startsWith("redis") ? 6379 : 5432)) })
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
      projects: [
        {
          extends: true,
          test: {
            name: "sqlite",
            include: ["test/**/*.test.ts"],
            exclude: [
              "test/postgres/**",
              ...(withRedis ? [] : ["test/redis/**"]),
              ...(withChromium ? [] : ["test/browser/**", "test/oauth/flow.test.ts", "test/oauth/sign_up.test.ts"])
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
                    "test/oauth/**/*.test.ts"
                  ],
                  exclude: withChromium ? [] : ["test/oauth/flow.test.ts", "test/oauth/sign_up.test.ts"],
                  env: { TEST_BACKEND: "postgres", TEST_POSTGRES_URL: postgresUrl, CHROMIUM_PATH: chromiumPath }
                }
              }
            ]
          : [])
      ]
    }
  }
})
