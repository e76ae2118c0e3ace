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
import { NotPermitted } from "../domain/errors.ts"
import { orActionFailure } from "../operations/failures.ts"
import { AccessTokens } from "../services/access_tokens.ts"
import { Accounts } from "../services/accounts.ts"

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
    const { docsUrl, oauthAudience } = yield* AppConfig
    const accessTokens = yield* AccessTokens
    const accounts = yield* Accounts

    /** The subject and participant of an access token. Made once, not per request. */
    const signedIn = Effect.fnUntraced(function* (credential: Redacted.Redacted) {
      const token = tokenOf(credential)
      if (token === undefined) {
        return yield* envelopeError(
          docsUrl,
          "unauthorized",
          "This endpoint needs a participant's OAuth access token.",
          {
            hint: "Sign in with OAuth 2.1 (see /.well-known/oauth-protected-resource) and send Authorization: Bearer <access token>."
          }
        )
      }
      const { subject } = yield* accessTokens.verify(token, oauthAudience)
      const slug = yield* accounts.participantOf(subject)
      if (slug === undefined) return yield* new NotPermitted({ reason: "your account is not linked to a participant" })
      return { subject, slug }
    })

    return ParticipantAuthentication.of({
      participantAccessToken: (httpEffect, { credential }) =>
        Effect.flatMap(
          // The failures of signedIn are Unauthenticated, NotPermitted and StorageUnavailable, so
          // their envelopes are 401, 403 and 503: the errors the middleware declares.
          signedIn(credential).pipe(orActionFailure(docsUrl)) as Effect.Effect<
            { readonly subject: string; readonly slug: string },
            Unauthorized | Forbidden | ServiceUnavailable
          >,
          (caller) => Effect.provideService(httpEffect, ParticipantCaller, caller)
        )
    })
  })
)
