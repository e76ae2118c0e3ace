/**
 * Handlers of the participant's side: who am I, my offers and tasks, and the moves on a task —
 * all authorised by an OAuth 2.1 access token whose subject the operator linked to a participant.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { MarketplaceApi } from "../api/api.ts"
import { envelopeError } from "../api/envelope.ts"
import { DeclineRequest, ResultSubmission } from "../api/resources.ts"
import { ParticipantCaller } from "../api/security.ts"
import { AppConfig } from "../config.ts"
import { presentParticipant } from "../operations/agent.ts"
import { orActionFailure } from "../operations/failures.ts"
import { ParticipantDirectory } from "../services/participant_directory.ts"
import { TaskActions } from "../services/task_actions.ts"
import type { StoredTask } from "../services/task_store.ts"
import { Tasks } from "../services/tasks.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { type BodyError, jsonBodyDecoder, readJsonObject } from "./json_body.ts"

export const AccountHandlers = handlerGroup(MarketplaceApi, "account", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const docs = config.docsUrl
    const directory = yield* ParticipantDirectory
    const actions = yield* TaskActions
    const tasks = yield* Tasks

    // Each handler's generator is made once, here, not per request (docs/performance.md, "No generator function made per request").

    // The signed-in participant (ParticipantCaller) comes from the security middleware.
    const me = Effect.fnUntraced(function* () {
      const { subject, slug } = yield* ParticipantCaller
      const participant = yield* directory.findBySlug(slug).pipe(orActionFailure(docs))
      if (participant === undefined) {
        return yield* envelopeError(
          docs,
          "forbidden",
          "Your account is linked to a participant that no longer exists.",
          {
            hint: "Ask the operator to link your account again."
          }
        )
      }
      return {
        object: "account" as const,
        subject,
        participant: presentParticipant(config.publicBaseUrl, participant)
      }
    })

    const myTasks = Effect.fnUntraced(function* () {
      const { slug } = yield* ParticipantCaller
      const data = yield* tasks.forParticipant(slug).pipe(orActionFailure(docs))
      return { object: "list" as const, count: data.length, data }
    })

    // Bodies decoded by the schemas the OpenAPI document publishes; accept and start declare none
    // (a JSON object sent anyway is read and ignored).
    const noBody = (request: HttpServerRequest.HttpServerRequest) => readJsonObject(request, docs, { optional: true })
    const declineBody = jsonBodyDecoder(DeclineRequest, docs, { optional: true })
    const resultBody = jsonBodyDecoder(ResultSubmission, docs)

    /**
     * A participant's move on a task: signed in (the middleware), the task theirs (the wrong party is refused
     * before their body is judged), the body read and decoded, the move made.
     */
    const move = Effect.fnUntraced(function* <A, E>(
      request: HttpServerRequest.HttpServerRequest,
      reference: string,
      body: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<A, BodyError>,
      make: (slug: string, body: A) => Effect.Effect<StoredTask, E>
    ) {
      const { slug } = yield* ParticipantCaller
      yield* actions.checkHolder(reference, slug).pipe(orActionFailure(docs))
      const decoded = yield* body(request)
      return tasks.view(yield* make(slug, decoded).pipe(orActionFailure(docs)))
    })

    return handlers
      .handle("me", () => me())
      .handle("myTasks", () => myTasks())
      .handleRaw("acceptTask", ({ request, params }) =>
        move(request, params.reference, noBody, (slug) => actions.accept(params.reference, slug))
      )
      .handleRaw("startTask", ({ request, params }) =>
        move(request, params.reference, noBody, (slug) => actions.start(params.reference, slug))
      )
      .handleRaw("declineTask", ({ request, params }) =>
        move(request, params.reference, declineBody, (slug, { reason }) =>
          actions.decline(params.reference, slug, reason ?? undefined)
        )
      )
      .handleRaw("submitTask", ({ request, params }) =>
        move(request, params.reference, resultBody, (slug, result) => actions.submit(params.reference, slug, result))
      )
  })
)
