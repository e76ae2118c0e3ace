/**
 * The layers of the two security middlewares (src/api/security.ts): each turns the request's
 * bearer credential into a typed caller for the handlers, or refuses the request in the envelope
 * (401, with `WWW-Authenticate` added by the envelope middleware for every 401).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { envelopeError, type Forbidden, type ServiceUnavailable, type Unauthorized } from "../api/envelope.ts"
import { AgentAuthentication, AgentCaller, ParticipantAuthentication, ParticipantCaller } from "../api/security.ts"
import { AppConfig } from "../config.ts"
import { protectedResourceMetadataPath } from "../operations/discovery.ts"
import { ParticipantOperations } from "../operations/participant.ts"

/** The credential as one token (`Bearer <token>`), or undefined when none, or not one, was sent. */
const tokenOf = (credential: Redacted.Redacted): string | undefined => {
  const token = Redacted.value(credential).trimEnd()
  return /^\S+$/.test(token) ? token : undefined
}

export const AgentAuthenticationLive = Layer.effect(
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

export const ParticipantAuthenticationLive = Layer.effect(
  ParticipantAuthentication,
  Effect.gen(function* () {
    const { oauthAudience } = yield* AppConfig
    const operations = yield* ParticipantOperations
    /** The REST API as the resource its access tokens are issued for. */
    const api = { audience: oauthAudience, metadataPath: protectedResourceMetadataPath }

    return ParticipantAuthentication.of({
      participantAccessToken: (httpEffect, { credential }) =>
        Effect.flatMap(
          // The failures of signIn are 401, 403 and 503 (storage): the errors the middleware declares.
          operations.signIn(tokenOf(credential), api) as Effect.Effect<
            { readonly subject: string; readonly slug: string },
            Unauthorized | Forbidden | ServiceUnavailable
          >,
          (caller) => Effect.provideService(httpEffect, ParticipantCaller, caller)
        )
    })
  })
)
