/**
 * The embedded authorization server's routes, on the service's own HTTP server (only when
 * OAUTH_ISSUER is unset):
 * - `/oauth/*`: oidc-provider's endpoints (authorization, token, registration, JWKS, userinfo,
 *   revocation, sign-out, its metadata under `/oauth/.well-known/…`);
 * - the RFC 8414 and OpenID addresses of that metadata for an issuer with a path
 *   (`/.well-known/oauth-authorization-server/oauth`, `/.well-known/openid-configuration/oauth`);
 * - the pages a person meets on the way (interactions.ts): sign in, sign up (when open), consent,
 *   choose a password.
 * A background fiber sweeps what has expired.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { AppConfig } from "../config/app_config.ts"
import { isEmbeddedIssuer, issuerOf, participantMcpUrlOf } from "../config/settings.ts"
import { prefersHtml } from "../pages/accept.ts"
import { AttemptLimits } from "../services/attempt_limits.ts"
import { Logins } from "../services/logins/service.ts"
import { OAuthRecords } from "../services/oauth_records.ts"
import { Profiles } from "../services/profiles.ts"
import { OAuthCookieSecret } from "../services/service_secrets.ts"
import { SigningKeys } from "../services/signing_keys.ts"
import { makeProviderHost } from "./host.ts"
import { makeInteractions } from "./interactions.ts"
import { errorPage, errorPages, pageResponse } from "./pages.ts"
import { type AccountProfile, makeProvider } from "./provider.ts"

/** The issuer's path on this server. */
export const oauthPath = "/oauth"

/** The library's own endpoints, as paths under the issuer; anything else under /oauth is ours or unknown. */
const providerRoutes = [
  "/auth",
  "/token",
  "/reg",
  "/jwks",
  "/me",
  "/token/revocation",
  "/session/end",
  "/.well-known/oauth-authorization-server",
  "/.well-known/openid-configuration"
]
const isProviderPath = (path: string) => providerRoutes.some((route) => path === route || path.startsWith(`${route}/`))

const metadataPaths = ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"].map(
  (metadata) => `${metadata}${oauthPath}`
)

/** The window dynamic registrations are counted over, per client address. */
const registrationWindowMs = 3600_000

/** How often expired records and retired keys are swept. */
const sweepInterval = "1 minute"

export const OAuthRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const config = yield* AppConfig
    if (!isEmbeddedIssuer(config)) return
    const keys = yield* SigningKeys
    const records = yield* OAuthRecords
    const logins = yield* Logins
    const profiles = yield* Profiles
    const attempts = yield* AttemptLimits
    const recordsContext = yield* Effect.context<OAuthRecords>()
    const cookieKey = (yield* OAuthCookieSecret).value
    const basePath = new URL(config.publicBaseUrl).pathname.replace(/\/+$/, "")
    const run = Effect.runPromiseWith(yield* Effect.context<never>())
    const resources = { api: config.oauthAudience, mcp: participantMcpUrlOf(config) }

    /**
     * What the ID token and userinfo say of an account: its login and its participant's name (a
     * sign-up awaiting approval has a name too).
     */
    const findAccount = (id: string): Promise<AccountProfile | undefined> =>
      run(
        Effect.gen(function* () {
          const login = yield* logins.findById(id)
          if (login === undefined) return undefined
          const profile = yield* profiles.view(login.participantSlug)
          return {
            id: login.id,
            email: login.email,
            name: profile?.record.name ?? login.participantSlug,
            participantSlug: login.participantSlug
          }
        })
      )

    const clock = yield* Clock.Clock
    const host = makeProviderHost({
      publicBaseUrl: config.publicBaseUrl,
      now: () => clock.currentTimeMillisUnsafe(),
      mountPath: `${basePath}${oauthPath}`,
      currentKeys: () => run(Effect.andThen(keys.ensure, keys.current)),
      build: (set) =>
        makeProvider({
          settings: config,
          issuer: issuerOf(config),
          resources: [resources.api, resources.mcp],
          keys: set,
          cookieKeys: [cookieKey],
          records: recordsContext,
          findAccount,
          grantIdFor: (accountId, clientId) => run(records.grantIdFor(accountId, clientId))
        })
    })

    /** An address under /oauth nobody serves: a page for a browser, JSON for any other client. */
    const notFound = (request: HttpServerRequest.HttpServerRequest) => {
      if (prefersHtml(request.headers.accept)) {
        return pageResponse(errorPage(errorPages.notFound))
      }
      return HttpServerResponse.jsonUnsafe(
        { error: "not_found", error_description: "No endpoint of the authorization server at this address." },
        { status: 404 }
      )
    }

    /**
     * Dynamic registration is open to anyone (RFC 7591, as MCP hosts use it), so each client
     * address may register `oauthRegistrationsPerHour` clients an hour; past that, 429 with
     * Retry-After (counted in the database: every process shares the count).
     */
    const registrationAllowed = (request: HttpServerRequest.HttpServerRequest) =>
      attempts.take(
        `register:${Option.getOrElse(request.remoteAddress, () => "unknown")}`,
        config.oauthRegistrationsPerHour,
        registrationWindowMs
      )
    const tooManyRegistrations = (retryAfterSeconds: number) =>
      HttpServerResponse.jsonUnsafe(
        {
          error: "too_many_requests",
          error_description: `Too many client registrations from this address: at most ${config.oauthRegistrationsPerHour} an hour. Retry after ${retryAfterSeconds} seconds, or reuse a registered client.`
        },
        { status: 429, headers: { "retry-after": String(retryAfterSeconds), "cache-control": "no-store" } }
      )

    const toProvider = (request: HttpServerRequest.HttpServerRequest) => {
      const path = request.url.split("?", 1)[0]!.slice(oauthPath.length) || "/"
      if (!isProviderPath(path)) return Effect.succeed(notFound(request))
      return host.serve(request, path)
    }
    yield* router.add("*", `${oauthPath}/*`, toProvider)
    // Registration has a route of its own, which its limit guards (no other spelling of the path
    // reaches the library: http/canonical_path.ts).
    yield* router.add("POST", `${oauthPath}/reg`, (request) =>
      Effect.flatMap(registrationAllowed(request), (state) =>
        state._tag === "Closed"
          ? Effect.succeed(tooManyRegistrations(state.retryAfterSeconds))
          : host.serve(request, "/reg")
      )
    )
    yield* makeInteractions({ settings: config, host, secret: cookieKey, logins, profiles, resources }).routes(router)
    for (const path of metadataPaths) {
      const metadata = path.slice(0, -oauthPath.length)
      yield* router.add("GET", path as `/${string}`, (request) => host.serve(request, metadata))
    }

    yield* Effect.forkScoped(
      Effect.all([records.sweep, keys.sweep, attempts.sweep]).pipe(
        Effect.catchCause((cause) => Effect.logWarning("the OAuth sweep failed").pipe(Effect.annotateLogs({ cause }))),
        Effect.repeat(Schedule.spaced(sweepInterval))
      )
    )
  })
)
