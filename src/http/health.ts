/**
 * Handlers of the health group: liveness and readiness.
 */
import * as Effect from "effect/Effect"
import { envelopeError } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import { retryAfterSeconds } from "../domain/errors.ts"
import { Health } from "../services/health.ts"
import { handlersLayer } from "./group_layer.ts"

export const HealthHandlers = handlersLayer(
  "health",
  Effect.gen(function* () {
    const config = yield* AppConfig
    const health = yield* Health
    const ready = Effect.flatMap(health.readiness, (readiness) =>
      readiness.ready
        ? Effect.succeed({ object: "health" as const, status: "ready" as const, checks: readiness.checks })
        : Effect.fail(
            envelopeError(
              config.docsUrl,
              "storage_unavailable",
              `Not ready: database ${readiness.checks.database}, migrations ${readiness.checks.migrations}.`,
              { hint: `Retry in ${retryAfterSeconds} seconds.` }
            )
          )
    )
    return (handlers) =>
      handlers
        .handle("healthz", () => Effect.succeed({ object: "health" as const, status: "ok" as const }))
        .handle("readyz", () => ready)
  })
)
