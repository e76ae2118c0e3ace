/**
 * The settings tests run with: in-memory SQLite, a fixed loopback base URL, no logs, no rate
 * limits (the suites that test them turn them on). A test overrides what it needs.
 */
import { Layer } from "effect"
import { AppConfig } from "../../src/config/app_config.ts"
import {
  type AppSettings,
  defaultHttpTimeouts,
  defaultMailRetrySchedule,
  defaultWebhookRetrySchedule
} from "../../src/config/settings.ts"

/** The defaults every test starts from. */
export const testSettings: AppSettings = {
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
  mail: { transport: undefined, retryScheduleMs: defaultMailRetrySchedule },
  sandbox: false,
  clientMetadataAllowPrivate: false
}

/** `AppConfig` with the test settings and `overrides` over them. */
export const testConfig = (overrides: Partial<AppSettings> = {}) =>
  Layer.succeed(AppConfig, AppConfig.of({ ...testSettings, ...overrides }))
