/**
 * Handlers of the agent's moves on its task (cancel and review) and of its webhook deliveries.
 * The security middleware has read the task token (AgentCaller) and AgentOfTask has checked it
 * against the task before the body was read (a wrong token is 401 whatever the body); HttpApi has
 * decoded the body by the schema the OpenAPI document publishes (after JsonBody's rules).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { toEnvelope } from "../api/envelope.ts"
import type { ReviewRequest } from "../api/resources.ts"
import { AgentCaller } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { AgentOperations } from "../operations/agent.ts"
import { handlersLayer } from "./group_layer.ts"
import { JsonBodyLayer } from "./json_body.ts"
import { AgentOfTaskLayer } from "./task_parties.ts"

export const AgentHandlers = handlersLayer(
  "agent",
  Effect.gen(function* () {
    const { docsUrl: docs } = yield* AppConfig
    const operations = yield* AgentOperations
    const envelope = toEnvelope(docs)

    // Generators made once, not per request (docs/performance.md, "No generator function made per request").
    const cancel = Effect.fnUntraced(function* (reference: string, reason: string | null | undefined) {
      const { taskToken } = yield* AgentCaller
      return yield* operations.cancel(reference, taskToken, reason ?? undefined)
    }, Effect.mapError(envelope))
    const review = Effect.fnUntraced(function* (reference: string, decision: typeof ReviewRequest.Type) {
      const { taskToken } = yield* AgentCaller
      return yield* operations.review(reference, taskToken, decision)
    }, Effect.mapError(envelope))
    const deliveries = Effect.fnUntraced(function* (reference: string) {
      const { taskToken } = yield* AgentCaller
      return yield* operations.deliveries(reference, taskToken)
    }, Effect.mapError(envelope))

    return (handlers) =>
      handlers
        .handle("cancelTask", ({ params, payload }) => cancel(params.reference, payload.reason))
        .handle("reviewTask", ({ params, payload }) => review(params.reference, payload))
        .handle("listDeliveries", ({ params }) => deliveries(params.reference))
  })
).pipe(Layer.provide([JsonBodyLayer, AgentOfTaskLayer]))
