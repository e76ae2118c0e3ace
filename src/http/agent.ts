/**
 * Handlers of the agent's moves on its task (cancel and review) and of its webhook deliveries. The security middleware has read
 * the task token (AgentCaller); it is checked against the task first, then the body is decoded by
 * the schema the OpenAPI document publishes, so a wrong token is refused (401) whatever the body.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { MarketplaceApi } from "../api/api.ts"
import { toEnvelope } from "../api/envelope.ts"
import { CancelRequest, ReviewRequest } from "../api/resources.ts"
import { AgentCaller } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { AgentOperations } from "../operations/agent.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { jsonBodyDecoder } from "./json_body.ts"

export const AgentHandlers = handlerGroup(MarketplaceApi, "agent", (handlers) =>
  Effect.gen(function* () {
    const { docsUrl: docs } = yield* AppConfig
    const operations = yield* AgentOperations
    const cancelBody = jsonBodyDecoder(CancelRequest, docs, { optional: true })
    const reviewBody = jsonBodyDecoder(ReviewRequest, docs)
    const envelope = toEnvelope(docs)

    // Generators made once, not per request (docs/performance.md, "No generator function made per request").
    const cancel = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest, reference: string) {
      const { taskToken } = yield* AgentCaller
      yield* operations.checkAgent(reference, taskToken)
      const { reason } = yield* cancelBody(request)
      return yield* operations.cancel(reference, taskToken, reason ?? undefined)
    }, Effect.mapError(envelope))
    const review = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest, reference: string) {
      const { taskToken } = yield* AgentCaller
      yield* operations.checkAgent(reference, taskToken)
      const decision = yield* reviewBody(request)
      return yield* operations.review(reference, taskToken, decision)
    }, Effect.mapError(envelope))

    const deliveries = Effect.fnUntraced(function* (reference: string) {
      const { taskToken } = yield* AgentCaller
      return yield* operations.deliveries(reference, taskToken)
    }, Effect.mapError(envelope))

    return handlers
      .handleRaw("cancelTask", ({ request, params }) => cancel(request, params.reference))
      .handleRaw("reviewTask", ({ request, params }) => review(request, params.reference))
      .handle("listDeliveries", ({ params }) => deliveries(params.reference))
  })
)
