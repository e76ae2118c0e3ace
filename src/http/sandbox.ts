/**
 * A sandbox's clock over HTTP (SANDBOX=on only; elsewhere the paths are unknown, 404 like any):
 * `GET /api/public/v1/sandbox/clock` → `{"object": "sandbox_clock", "now", "advanced_by"}`;
 * `POST` with `{"advance": "PT25H"}` moves it forward and answers the same. The rules are the
 * operations' (operations/agent.ts); this only reads the body by its published schema.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { toEnvelope } from "../api/envelope.ts"
import { AdvanceClockRequest } from "../api/resources.ts"
import { AppConfig } from "../config/app_config.ts"
import { apiPrefix } from "../domain/addresses.ts"
import { AgentOperations } from "../operations/agent.ts"
import { jsonBodyDecoder } from "./json_body.ts"

export const sandboxClockPath = `${apiPrefix}/sandbox/clock`

export const SandboxRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const config = yield* AppConfig
    if (!config.sandbox) return
    const operations = yield* AgentOperations
    const advanceBody = jsonBodyDecoder(AdvanceClockRequest, config.docsUrl)
    const noStore = { "cache-control": "no-store" }
    yield* router.add("GET", sandboxClockPath, () =>
      Effect.map(operations.sandboxClock, (clock) => HttpServerResponse.jsonUnsafe(clock, { headers: noStore }))
    )
    yield* router.add("POST", sandboxClockPath, (request) =>
      Effect.flatMap(advanceBody(request), ({ advance }) =>
        Effect.map(Effect.mapError(operations.advanceSandboxClock(advance), toEnvelope(config.docsUrl)), (clock) =>
          HttpServerResponse.jsonUnsafe(clock, { headers: noStore })
        )
      )
    )
  })
)
