/**
 * What the participant's console needs to sign a person in and keep their session
 * (console/session.ts), and nothing more: its records (sign-ins under way, sessions) kept where
 * the embedded authorization server keeps its own, the login's participant, the verification of
 * the access token the sign-in ends with, and the secret its forms' tokens are derived from.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { StorageUnavailable, Unauthenticated } from "../domain/errors.ts"
import { AccessTokens, type VerifiedToken } from "../services/access_tokens.ts"
import { Accounts } from "../services/accounts.ts"
import { type OAuthPayload, OAuthRecords } from "../services/oauth_records.ts"
import { OAuthCookieSecret } from "../services/service_secrets.ts"

export class ConsoleSignIn extends Context.Service<
  ConsoleSignIn,
  {
    /** The secret the console's CSRF tokens are derived from (the authorization server's cookie secret). */
    readonly cookieSecret: string
    /** A record of the console's (`model`: a sign-in under way or a session), unless expired. */
    findRecord(model: string, id: string): Effect.Effect<OAuthPayload | undefined, StorageUnavailable>
    /** Keeps a record for `lifetimeSeconds`. */
    keepRecord(
      model: string,
      id: string,
      payload: OAuthPayload,
      lifetimeSeconds: number
    ): Effect.Effect<void, StorageUnavailable>
    /** Marks a record used; false when it already was (a replay). */
    consumeRecord(model: string, id: string): Effect.Effect<boolean, StorageUnavailable>
    dropRecord(model: string, id: string): Effect.Effect<void, StorageUnavailable>
    /** The participant a login (an OAuth subject) is linked to, if any. */
    participantOf(subject: string): Effect.Effect<string | undefined, StorageUnavailable>
    /** The subject of an access token issued for `audience`. */
    verify(accessToken: string, audience: string): Effect.Effect<VerifiedToken, Unauthenticated>
  }
>()("task-marketplace/operations/ConsoleSignIn") {
  static readonly layer = Layer.effect(
    ConsoleSignIn,
    Effect.gen(function* () {
      const records = yield* OAuthRecords
      const accounts = yield* Accounts
      const accessTokens = yield* AccessTokens
      const { value: cookieSecret } = yield* OAuthCookieSecret

      return ConsoleSignIn.of({
        cookieSecret,
        findRecord: Effect.fn("ConsoleSignIn.findRecord")(function* (model: string, id: string) {
          return yield* records.find(model, id)
        }),
        keepRecord: Effect.fn("ConsoleSignIn.keepRecord")(function* (
          model: string,
          id: string,
          payload: OAuthPayload,
          lifetimeSeconds: number
        ) {
          yield* records.upsert(model, id, payload, lifetimeSeconds)
        }),
        consumeRecord: Effect.fn("ConsoleSignIn.consumeRecord")(function* (model: string, id: string) {
          return yield* records.consume(model, id)
        }),
        dropRecord: Effect.fn("ConsoleSignIn.dropRecord")(function* (model: string, id: string) {
          yield* records.destroy(model, id)
        }),
        participantOf: Effect.fn("ConsoleSignIn.participantOf")(function* (subject: string) {
          return yield* accounts.participantOf(subject)
        }),
        verify: Effect.fn("ConsoleSignIn.verify")(function* (accessToken: string, audience: string) {
          return yield* accessTokens.verify(accessToken, audience)
        })
      })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = ConsoleSignIn.layer.pipe(
    Layer.provide([OAuthRecords.layer, Accounts.layer, AccessTokens.layerWithDependencies, OAuthCookieSecret.layer])
  )
}
