/**
 * Handlers of the participant's side: who am I, my offers and tasks, and the moves on a task —
 * all authorised by an OAuth 2.1 access token whose subject the operator linked to a participant.
 */
import * as Effect from "effect/Effect"
import { MarketplaceApi } from "../api/api.ts"
import { envelopeError } from "../api/envelope.ts"
import { AppConfig } from "../config.ts"
import { NotPermitted } from "../domain/errors.ts"
import { AccessTokens } from "../services/access_tokens.ts"
import { Accounts } from "../services/accounts.ts"
import { ParticipantDirectory } from "../services/participant_directory.ts"
import { TaskActions } from "../services/task_actions.ts"
import { Tasks } from "../services/tasks.ts"
import { bearerToken, orActionFailure } from "./failures.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { readJsonObject } from "./json_body.ts"
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

    /** The subject and participant of the request's access token. */
    const signedIn = (authorization: string | undefined) =>
      Effect.gen(function* () {
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

    return handlers
      .handle("me", ({ request }) =>
        Effect.gen(function* () {
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
      )
      .handle("myTasks", ({ request }) =>
        Effect.gen(function* () {
          const { slug } = yield* signedIn(request.headers.authorization)
          const data = yield* tasks.forParticipant(slug).pipe(orActionFailure(docs))
          return { object: "list" as const, count: data.length, data }
        })
      )
      .handleRaw("acceptTask", ({ request, params }) =>
        Effect.gen(function* () {
          const { slug } = yield* signedIn(request.headers.authorization)
          yield* readJsonObject(request, docs, { optional: true })
          return tasks.view(yield* actions.accept(params.reference, slug).pipe(orActionFailure(docs)))
        })
      )
      .handleRaw("startTask", ({ request, params }) =>
        Effect.gen(function* () {
          const { slug } = yield* signedIn(request.headers.authorization)
          yield* readJsonObject(request, docs, { optional: true })
          return tasks.view(yield* actions.start(params.reference, slug).pipe(orActionFailure(docs)))
        })
      )
      .handleRaw("declineTask", ({ request, params }) =>
        Effect.gen(function* () {
          const { slug } = yield* signedIn(request.headers.authorization)
          const body = yield* readJsonObject(request, docs, { optional: true })
          return tasks.view(yield* actions.decline(params.reference, slug, body.reason).pipe(orActionFailure(docs)))
        })
      )
      .handleRaw("submitTask", ({ request, params }) =>
        Effect.gen(function* () {
          const { slug } = yield* signedIn(request.headers.authorization)
          const body = yield* readJsonObject(request, docs)
          return tasks.view(
            yield* actions
              .submit(params.reference, slug, { summary: body.summary, fields: body.fields, artifacts: body.artifacts })
              .pipe(orActionFailure(docs))
          )
        })
      )
  })
)
