/**
 * Handlers of the participant's side: who am I, my offers and tasks, and the moves on a task —
 * all authorised by an OAuth 2.1 access token whose subject the operator linked to a participant
 * (the security middleware gives the handlers the ParticipantCaller). The rules, bodies and
 * messages are the operations' (operations/participant.ts), shared with the participant's MCP
 * tools; what is left here is HTTP's own: reading and decoding the request body.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { MarketplaceApi } from "../api/api.ts"
import type { EnvelopeError } from "../api/envelope.ts"
import { DeclineRequest, ResultSubmission } from "../api/resources.ts"
import { ParticipantCaller } from "../api/security.ts"
import { AppConfig } from "../config.ts"
import type { Task } from "../domain/task.ts"
import { type Caller, ParticipantOperations } from "../operations/participant.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { type BodyError, jsonBodyDecoder, readJsonObject } from "./json_body.ts"

export const AccountHandlers = handlerGroup(MarketplaceApi, "account", (handlers) =>
  Effect.gen(function* () {
    const { docsUrl: docs } = yield* AppConfig
    const operations = yield* ParticipantOperations

    // Bodies decoded by the schemas the OpenAPI document publishes; accept and start declare none
    // (a JSON object sent anyway is read and ignored).
    const noBody = (request: HttpServerRequest.HttpServerRequest) => readJsonObject(request, docs, { optional: true })
    const declineBody = jsonBodyDecoder(DeclineRequest, docs, { optional: true })
    const resultBody = jsonBodyDecoder(ResultSubmission, docs)

    /**
     * A participant's move on a task: signed in (the middleware), the task theirs (the wrong party
     * is refused before their body is judged), the body read and decoded, the move made. Made
     * once, not per request (docs/performance.md, "No generator function made per request").
     */
    const move = Effect.fnUntraced(function* <A>(
      request: HttpServerRequest.HttpServerRequest,
      reference: string,
      body: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<A, BodyError>,
      make: (caller: Caller, body: A) => Effect.Effect<Task, EnvelopeError>
    ) {
      const caller = yield* ParticipantCaller
      yield* operations.checkHolder(caller, reference)
      const decoded = yield* body(request)
      return yield* make(caller, decoded)
    })

    return handlers
      .handle("me", () => ParticipantCaller.use(operations.me))
      .handle("myTasks", () => ParticipantCaller.use(operations.myTasks))
      .handleRaw("acceptTask", ({ request, params }) =>
        move(request, params.reference, noBody, (caller) => operations.accept(caller, params.reference))
      )
      .handleRaw("startTask", ({ request, params }) =>
        move(request, params.reference, noBody, (caller) => operations.start(caller, params.reference))
      )
      .handleRaw("declineTask", ({ request, params }) =>
        move(request, params.reference, declineBody, (caller, { reason }) =>
          operations.decline(caller, params.reference, reason)
        )
      )
      .handleRaw("submitTask", ({ request, params }) =>
        move(request, params.reference, resultBody, (caller, result) =>
          operations.submitResult(caller, params.reference, result)
        )
      )
  })
)
