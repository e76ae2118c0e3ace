/**
 * The service as an OAuth 2.1 resource server: it validates participants' bearer access tokens
 * (JWTs) — signature against the issuer's published keys (JWKS, fetched and cached by `jose`),
 * `iss`, `aud`, `exp` and `nbf` — and yields the token's subject. It never sees passwords.
 *
 * With the embedded issuer (OAUTH_ISSUER unset) the keys are read from the database, where that
 * issuer keeps them (signing_keys.ts): no request leaves the process. With an external one, the
 * keys' address is OAUTH_JWKS_URI, or the `jwks_uri` of the issuer's metadata
 * (`/.well-known/oauth-authorization-server`, then `/.well-known/openid-configuration`).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { JWTVerifyGetKey } from "jose"
import { AppConfig } from "../config/app_config.ts"
import { isEmbeddedIssuer, issuerOf } from "../config/settings.ts"
import { Unauthenticated } from "../domain/errors.ts"
import { publicJwk, SigningKeys } from "./signing_keys.ts"

/** `jose` (46 modules) is loaded with the first access token, not at start-up: most requests never carry one. */
const jose = () => import("jose")

export interface VerifiedToken {
  readonly subject: string
}

export class AccessTokens extends Context.Service<
  AccessTokens,
  {
    /** The token's subject, when it is valid and was issued for `audience` (the resource it is presented to). */
    verify(token: string, audience: string): Effect.Effect<VerifiedToken, Unauthenticated>
  }
>()("task-marketplace/services/AccessTokens") {
  static readonly layer = Layer.effect(
    AccessTokens,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const issuer = issuerOf(config)
      const embedded = isEmbeddedIssuer(config)
      const services = yield* Effect.context<SigningKeys>()
      let keys: Promise<JWTVerifyGetKey> | undefined

      /** The embedded issuer's keys, read from the database (every process signs with them). */
      const localKeys = async (): Promise<JWTVerifyGetKey> => {
        const { createLocalJWKSet } = await jose()
        const set = await Effect.runPromiseWith(services)(SigningKeys.use((keys) => keys.current))
        return createLocalJWKSet({ keys: set.keys.map(publicJwk) })
      }

      const discoverKeys = async (): Promise<JWTVerifyGetKey> => {
        const { createRemoteJWKSet } = await jose()
        if (config.oauthJwksUri !== undefined) return createRemoteJWKSet(new URL(config.oauthJwksUri))
        const base = issuer.replace(/\/+$/, "")
        for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
          try {
            const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(5000) })
            if (!response.ok) continue
            const metadata = (await response.json()) as { jwks_uri?: unknown }
            if (typeof metadata.jwks_uri === "string") return createRemoteJWKSet(new URL(metadata.jwks_uri))
          } catch {
            // try the next well-known address
          }
        }
        throw new Error("the issuer's metadata (with its jwks_uri) could not be read")
      }

      // A failed load is retried on the next request rather than cached.
      const keySet = () =>
        (keys ??= (embedded ? localKeys() : discoverKeys()).catch((error) => {
          keys = undefined
          throw error
        }))

      // A key the embedded set does not know may have been made by another process's rotation:
      // the set is read again, at most once a second.
      let reloadedAt = 0
      const reloadable = (error: unknown, now: number) =>
        embedded && (error as { code?: unknown }).code === "ERR_JWKS_NO_MATCHING_KEY" && now - reloadedAt > 1000

      const check = async (token: string, audience: string, now: number) => {
        const { jwtVerify } = await jose()
        const options = {
          issuer,
          audience,
          algorithms: ["RS256", "PS256", "ES256", "ES384", "EdDSA"],
          clockTolerance: 5,
          currentDate: new Date(now),
          // RFC 9068: the embedded issuer's access tokens say so in their header, which tells them
          // from its ID tokens (signed by the same keys).
          ...(embedded ? { typ: "at+jwt" } : {})
        }
        try {
          return await jwtVerify(token, await keySet(), options)
        } catch (error) {
          if (!reloadable(error, now)) throw error
          reloadedAt = now
          keys = undefined
          return await jwtVerify(token, await keySet(), options)
        }
      }

      // Expiry is judged at the service's instant (`Clock`), so a test can move time past it.
      const verify = Effect.fn("AccessTokens.verify")(function* (token: string, audience: string) {
        const now = yield* Clock.currentTimeMillis
        return yield* Effect.tryPromise({
          try: async (): Promise<VerifiedToken> => {
            const { payload } = await check(token, audience, now)
            if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("the token has no subject")
            return { subject: payload.sub }
          },
          catch: (error) =>
            new Unauthenticated({
              reason: error instanceof Error ? error.message.slice(0, 200) : "the access token is not valid"
            })
        })
      })

      return AccessTokens.of({ verify })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = AccessTokens.layer.pipe(Layer.provide([SigningKeys.layer]))
}
