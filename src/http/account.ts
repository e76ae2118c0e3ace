/**
 * Handlers of the participant's side: who am I, my offers and tasks, and the moves on a task —
 * all authorised by an OAuth 2.1 access token whose subject the operator linked to a participant.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { MarketplaceApi } from "../api/api.ts"
import { envelopeError } from "../api/envelope.ts"
import { DeclineRequest, ResultSubmission } from "../api/resources.ts"
import { AppConfig } from "../config.ts"
import { NotPermitted } from "../domain/errors.ts"
import { AccessTokens } from "../services/access_tokens.ts"
import { Accounts } from "../services/accounts.ts"
import { ParticipantDirectory } from "../services/participant_directory.ts"
import { TaskActions } from "../services/task_actions.ts"
import type { StoredTask } from "../services/task_store.ts"
import { Tasks } from "../services/tasks.ts"
import { bearerToken, orActionFailure } from "./failures.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { type BodyError, jsonBodyDecoder, readJsonObject } from "./json_body.ts"
import { presentParticipant } from "./participants.ts"

export const AccountHandlers = handlerGroup(MarketplaceApi, "account", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const docs = config.docsUrl
    const accessTokens = yield* AccessTokens
    const accounts = yield* Accounts
    const directory = yield* ParticipantDirectory
    const actions = yield* TaskActions
    const tasks = yield* Tasks

    // Each handler's generator is made once, here, not per request (docs/decisions.md, "Performance").

    /** The subject and participant of the request's access token. */
    const signedIn = Effect.fnUntraced(function* (authorization: string | undefined) {
      const token = bearerToken(authorization)
      if (token === undefined) {
        return yield* envelopeError(docs, "unauthorized", "This endpoint needs a participant's OAuth access token.", {
          hint: "Sign in with OAuth 2.1 (see /.well-known/oauth-protected-resource) and send Authorization: Bearer <access token>."
        })
      }
      const { subject } = yield* accessTokens.verify(token).pipe(orActionFailure(docs))
      const slug = yield* accounts.participantOf(subject).pipe(orActionFailure(docs))
      if (slug === undefined) {
        return yield* Effect.fail(new NotPermitted({ reason: "your account is not linked to a participant" })).pipe(
          orActionFailure(docs)
        )
      }
      return { subject, slug }
    })

    const me = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { subject, slug } = yield* signedIn(request.headers.authorization)
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

    const myTasks = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
      const { slug } = yield* signedIn(request.headers.authorization)
      const data = yield* tasks.forParticipant(slug).pipe(orActionFailure(docs))
      return { object: "list" as const, count: data.length, data }
    })

    // Bodies decoded by the schemas the OpenAPI document publishes; accept and start declare none
    // (a JSON object sent anyway is read and ignored).
    const noBody = (request: HttpServerRequest.HttpServerRequest) => readJsonObject(request, docs, { optional: true })
    const declineBody = jsonBodyDecoder(DeclineRequest, docs, { optional: true })
    const resultBody = jsonBodyDecoder(ResultSubmission, docs)

    /**
     * A participant's move on a task: signed in, the task theirs (the wrong party is refused
     * before their body is judged), the body read and decoded, the move made.
     */
    const move = Effect.fnUntraced(function* <A, E>(
      request: HttpServerRequest.HttpServerRequest,
      reference: string,
      body: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<A, BodyError>,
      make: (slug: string, body: A) => Effect.Effect<StoredTask, E>
    ) {
      const { slug } = yield* signedIn(request.headers.authorization)
      yield* actions.checkHolder(reference, slug).pipe(orActionFailure(docs))
      const decoded = yield* body(request)
      return tasks.view(yield* make(slug, decoded).pipe(orActionFailure(docs)))
    })

    return handlers
      .handle("me", ({ request }) => me(request))
      .handle("myTasks", ({ request }) => myTasks(request))
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
