/**
 * Handlers of the drafts group: preflight and search. Both read their JSON body themselves
 * (see json_body.ts) so every malformed body gets its precise error, and both answer JSON made
 * from the operations' values (operations/agent.ts), typed as their declared schemas (PreflightResult, SearchResult), which are
 * plain data: HttpApi's encoding through the schema, member by member in effects, makes the same
 * JSON for ~5% more of a preflight's server CPU. The HttpApi description, and so the OpenAPI
 * document, still declares those schemas; the tests decode every answer with them.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { MarketplaceApi } from "../api/api.ts"
import { toEnvelope } from "../api/envelope.ts"
import { SearchRequest } from "../api/resources.ts"
import { AppConfig } from "../config/app_config.ts"
import { AgentOperations } from "../operations/agent.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { jsonBodyDecoder, readJsonObject } from "./json_body.ts"

export const DraftsHandlers = handlerGroup(MarketplaceApi, "drafts", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const operations = yield* AgentOperations
    // The body is decoded by SearchRequest, the schema the OpenAPI document publishes: its bounds
    // are the only statement of the rule.
    const readSearch = jsonBodyDecoder(SearchRequest, config.docsUrl)
    const envelope = toEnvelope(config.docsUrl)

    return handlers
      .handleRaw(
        "preflight",
        Effect.fnUntraced(function* ({ request }) {
          const body = yield* readJsonObject(request, config.docsUrl)
          return HttpServerResponse.jsonUnsafe(yield* operations.preflight(body))
        }, Effect.mapError(envelope))
      )
      .handleRaw(
        "search",
        Effect.fnUntraced(function* ({ request }) {
          const body = yield* readSearch(request)
          return HttpServerResponse.jsonUnsafe(yield* operations.search(body))
        }, Effect.mapError(envelope))
      )
  })
)
