/**
 * The layers of the two security middlewares (src/api/security.ts): each turns the request's
 * bearer credential into a typed caller for the handlers, or refuses the request in the envelope
 * (401, with `WWW-Authenticate` added by the envelope middleware for every 401).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import {
  type EnvelopedRefusal,
  envelopeError,
  Forbidden,
  refusalBody,
  ServiceUnavailable,
  Unauthorized
} from "../api/envelope.ts"
import {
  AgentAuthentication,
  AgentCaller,
  ParticipantAuthentication,
  ParticipantCaller,
  TaskReader,
  TaskReaderAuthentication
} from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { protectedResourceMetadataPath } from "../operations/discovery.ts"
import { ParticipantOperations, type ProtectedResource } from "../operations/participant.ts"

/** The credential as one token (`Bearer <token>`), or undefined when none, or not one, was sent. */
const tokenOf = (credential: Redacted.Redacted): string | undefined => {
  const token = Redacted.value(credential).trimEnd()
  return /^\S+$/.test(token) ? token : undefined
}

/**
 * The participant's sign-in as the security middlewares answer it: each of its refusals (401, 403,
 * 503 when storage is unavailable) as the envelope error the middleware declares.
 */
const signInWith = (operations: ParticipantOperations["Service"], docsUrl: string) => {
  const unauthorized = (refusal: EnvelopedRefusal) =>
    Effect.fail(new Unauthorized({ error: refusalBody(docsUrl, refusal) }))
  const forbidden = (refusal: EnvelopedRefusal) => Effect.fail(new Forbidden({ error: refusalBody(docsUrl, refusal) }))
  return (token: string | undefined, resource: ProtectedResource) =>
    Effect.catchTags(operations.signIn(token, resource), {
      SignInRequired: unauthorized,
      Unauthenticated: unauthorized,
      NotPermitted: forbidden,
      AwaitingApproval: forbidden,
      StorageUnavailable: (refusal) => Effect.fail(new ServiceUnavailable({ error: refusalBody(docsUrl, refusal) }))
    })
}

export const AgentAuthenticationLayer = Layer.effect(
  AgentAuthentication,
  Effect.gen(function* () {
    const { docsUrl } = yield* AppConfig
    return AgentAuthentication.of({
      taskToken: (httpEffect, { credential }) => {
        const taskToken = tokenOf(credential)
        return taskToken === undefined
          ? Effect.fail(
              envelopeError(docsUrl, "unauthorized", "This action needs the task's token.", {
                hint: "Send Authorization: Bearer <task_token> — the task_token of the 201 response that created the task."
              })
            )
          : Effect.provideService(httpEffect, AgentCaller, { taskToken })
      }
    })
  })
)

export const ParticipantAuthenticationLayer = Layer.effect(
  ParticipantAuthentication,
  Effect.gen(function* () {
    const { oauthAudience, docsUrl } = yield* AppConfig
    const operations = yield* ParticipantOperations
    /** The REST API as the resource its access tokens are issued for. */
    const api = { audience: oauthAudience, metadataPath: protectedResourceMetadataPath }
    const signIn = signInWith(operations, docsUrl)

    return ParticipantAuthentication.of({
      participantAccessToken: (httpEffect, { credential }) =>
        Effect.flatMap(signIn(tokenOf(credential), api), (caller) =>
          Effect.provideService(httpEffect, ParticipantCaller, caller)
        )
    })
  })
)

/** A task token, as the service issues them (`tt_` + base64url): what tells it from an access token. */
const isTaskToken = (token: string) => token.startsWith("tt_")

export const TaskReaderAuthenticationLayer = Layer.effect(
  TaskReaderAuthentication,
  Effect.gen(function* () {
    const { oauthAudience, docsUrl } = yield* AppConfig
    const operations = yield* ParticipantOperations
    const api = { audience: oauthAudience, metadataPath: protectedResourceMetadataPath }
    const signIn = signInWith(operations, docsUrl)
    const noCredential = envelopeError(
      docsUrl,
      "unauthorized",
      "Reading this file needs the task's token (the agent) or the uploader's access token.",
      {
        hint: "Send Authorization: Bearer <task_token> (from the 201 response that created the task), or the participant's OAuth access token."
      }
    )

    return TaskReaderAuthentication.of({
      // Tried first: a task token is the agent's; anything else is left to the next scheme.
      taskToken: (httpEffect, { credential }) => {
        const token = tokenOf(credential)
        return token !== undefined && isTaskToken(token)
          ? Effect.provideService(httpEffect, TaskReader, { _tag: "Agent", taskToken: token })
          : Effect.fail(noCredential)
      },
      // Tried second, so its refusal is the answer: no token, or an access token that does not verify.
      participantAccessToken: (httpEffect, { credential }) => {
        const token = tokenOf(credential)
        if (token === undefined) return Effect.fail(noCredential)
        return Effect.flatMap(signIn(token, api), (caller) =>
          Effect.provideService(httpEffect, TaskReader, { _tag: "Participant", ...caller })
        )
      }
    })
  })
)
