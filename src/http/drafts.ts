/**
 * Handlers of the drafts group: preflight and search. Both read their JSON body themselves
 * (see json_body.ts) so every malformed body gets its precise error, and both answer JSON made
 * here from values typed as their declared schemas (PreflightResult, SearchResult), which are
 * plain data: HttpApi's encoding through the schema, member by member in effects, makes the same
 * JSON for ~5% more of a preflight's server CPU. The HttpApi description, and so the OpenAPI
 * document, still declares those schemas; the tests decode every answer with them.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { MarketplaceApi } from "../api/api.ts"
import { type PreflightResult, SearchRequest, type SearchResult, searchLimit } from "../api/resources.ts"
import { AppConfig } from "../config.ts"
import { type PreflightOutcome, Tasks } from "../services/tasks.ts"
import { orStorageUnavailable } from "./failures.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { jsonBodyDecoder, readJsonObject } from "./json_body.ts"
import { presentParticipant } from "./participants.ts"

export const presentPreflight = ({ validation, feasibility }: PreflightOutcome): PreflightResult => ({
  object: "preflight",
  valid: validation.valid,
  state: validation.valid ? "draft" : "preflight_failed",
  issues: validation.issues,
  warnings: validation.warnings,
  task: validation.task,
  feasibility
})

export const DraftsHandlers = handlerGroup(MarketplaceApi, "drafts", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const tasks = yield* Tasks

    // Made once, not per request (docs/performance.md, "No generator function made per request").
    // The body is decoded by SearchRequest, the schema the OpenAPI document publishes: its bounds
    // are the only statement of the rule.
    const readSearch = jsonBodyDecoder(SearchRequest, config.docsUrl)
    const search = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const body = yield* readSearch(request)
      const query = body.query.trim()
      const limit = body.limit ?? searchLimit.default
      const outcome = yield* tasks.search(query, limit).pipe(orStorageUnavailable(config.docsUrl))
      const preflight = presentPreflight(outcome.preflight)
      const result: SearchResult = {
        object: "search_result",
        query,
        assessment: {
          execution_mode: outcome.executionMode,
          location: outcome.location,
          missing: preflight.issues.filter((i) => i.code === "required").map((i) => i.field),
          draft: outcome.draft,
          preflight
        },
        data: outcome.matches.map((m) => ({
          participant: presentParticipant(config.publicBaseUrl, m.participant),
          score: m.score,
          matched: m.matched
        })),
        ...(outcome.hint === undefined ? {} : { hint: outcome.hint })
      }
      return HttpServerResponse.jsonUnsafe(result)
    })

    return handlers
      .handleRaw("preflight", ({ request }) =>
        Effect.flatMap(readJsonObject(request, config.docsUrl), (body) =>
          Effect.map(tasks.preflight(body).pipe(orStorageUnavailable(config.docsUrl)), (outcome) =>
            HttpServerResponse.jsonUnsafe(presentPreflight(outcome))
          )
        )
      )
      .handleRaw("search", ({ request }) => search(request))
  })
)
