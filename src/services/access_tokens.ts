/**
 * The service as an OAuth 2.1 resource server: it validates participants' bearer access tokens
 * (JWTs) — signature against the issuer's published keys (JWKS, fetched and cached by `jose`),
 * `iss`, `aud`, `exp` and `nbf` — and yields the token's subject. It never sees passwords.
 *
 * The keys' address is OAUTH_JWKS_URI, or the `jwks_uri` of the issuer's metadata
 * (`/.well-known/oauth-authorization-server`, then `/.well-known/openid-configuration`).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { JWTVerifyGetKey } from "jose"
import { AppConfig } from "../config.ts"
import { Unauthenticated } from "../domain/errors.ts"

/** `jose` (46 modules) is loaded with the first access token, not at start-up: most requests never carry one. */
const jose = () => import("jose")

export interface VerifiedToken {
  readonly subject: string
}

export class AccessTokens extends Context.Service<
  AccessTokens,
  { verify(token: string): Effect.Effect<VerifiedToken, Unauthenticated> }
>()("task-marketplace/services/AccessTokens") {
  static readonly layer = Layer.effect(
    AccessTokens,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const issuer = config.oauthIssuer
      let keys: Promise<JWTVerifyGetKey> | undefined

      const discoverKeys = async (): Promise<JWTVerifyGetKey> => {
        const { createRemoteJWKSet } = await jose()
        if (config.oauthJwksUri !== undefined) return createRemoteJWKSet(new URL(config.oauthJwksUri))
        const base = issuer!.replace(/\/+$/, "")
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

      // Expiry is judged at the service's instant (`Clock`), so a test can move time past it.
      const verify = (token: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.tryPromise({
            try: async () => {
              if (issuer === undefined) throw new Error("no OAuth issuer is configured (OAUTH_ISSUER)")
              // A failed discovery is retried on the next request rather than cached.
              keys ??= discoverKeys().catch((error) => {
                keys = undefined
                throw error
              })
              const { payload } = await (await jose()).jwtVerify(token, await keys, {
                issuer,
                audience: config.oauthAudience,
                algorithms: ["RS256", "PS256", "ES256", "ES384", "EdDSA"],
                clockTolerance: 5,
                currentDate: new Date(now)
              })
              if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("the token has no subject")
              return { subject: payload.sub }
            },
            catch: (error) =>
              new Unauthenticated({
                reason: error instanceof Error ? error.message.slice(0, 200) : "the access token is not valid"
              })
          })
        ).pipe(Effect.withSpan("AccessTokens.verify"))

      return AccessTokens.of({ verify })
    })
  )
}
