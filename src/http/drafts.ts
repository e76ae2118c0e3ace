/**
 * Handlers of the drafts group: preflight and search. Preflight reads its JSON body itself (see
 * json_body.ts) and answers JSON made from the operation's value, typed as PreflightResult (plain
 * data: HttpApi's encoding through the schema makes the same JSON for more of a preflight's
 * server CPU; docs/performance.md). Search is handled through its declared schemas: its body read by JsonBody's rules
 * and decoded by SearchRequest, its answer encoded by SearchResult.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Layer from "effect/Layer"
import { toEnvelope } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import { AgentOperations } from "../operations/agent.ts"
import { handlersLayer } from "./group_layer.ts"
import { JsonBodyLayer, readJsonObject } from "./json_body.ts"
import { rawEndpoint } from "./raw_endpoints.ts"

export const DraftsHandlers = handlersLayer(
  "drafts",
  Effect.gen(function* () {
    const config = yield* AppConfig
    const operations = yield* AgentOperations
    const envelope = toEnvelope(config.docsUrl)

    return (handlers) =>
      handlers
        .handleRaw(
          rawEndpoint("preflight"),
          Effect.fnUntraced(function* ({ request }) {
            const body = yield* readJsonObject(request, config.docsUrl)
            return HttpServerResponse.jsonUnsafe(yield* operations.preflight(body))
          }, Effect.mapError(envelope))
        )
        .handle("search", ({ payload }) => Effect.mapError(operations.search(payload), envelope))
  })
).pipe(Layer.provide(JsonBodyLayer))
