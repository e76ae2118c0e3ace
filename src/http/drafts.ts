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
import { envelopeError } from "../api/envelope.ts"
import { type PreflightResult, type SearchResult, searchLimit, searchQueryMax } from "../api/resources.ts"
import { AppConfig } from "../config.ts"
import { type PreflightOutcome, Tasks } from "../services/tasks.ts"
import { orStorageUnavailable } from "./failures.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { readJsonObject } from "./json_body.ts"
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
    const search = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const body = yield* readJsonObject(request, config.docsUrl)
      const invalid = (message: string, field: string) =>
        envelopeError(config.docsUrl, "invalid_request", message, {
          hint: 'Send {"query": "what you need done, where and when", "limit": 10}.',
          details: [{ field, code: "invalid", message }]
        })
      const query = typeof body.query === "string" ? body.query.trim() : undefined
      if (query === undefined || query === "") {
        return yield* invalid("query is required: a natural-language description of the task.", "query")
      }
      // Counted as sent (SearchRequest's bound), not after trimming.
      if ([...(body.query as string)].length > searchQueryMax) {
        return yield* invalid(`query is longer than ${searchQueryMax} characters.`, "query")
      }
      const limit = body.limit === undefined ? searchLimit.default : body.limit
      if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > searchLimit.max) {
        return yield* invalid(`limit must be a whole number from 1 to ${searchLimit.max}.`, "limit")
      }
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
