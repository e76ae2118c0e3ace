/**
 * Signing in to the console: the console is a first-party client of the embedded authorization
 * server (`consoleClient`), so a person signs in there exactly as any app signs them in — the
 * authorization code flow with PKCE — and the console then keeps a session of its own.
 *
 * - `start`: a state and a PKCE verifier are made; the verifier (and where to return) is kept in
 *   the database under the state's hash for ten minutes, the state in a short cookie bound to this
 *   browser; the browser goes to the authorization endpoint.
 * - `finish` (the callback): the state must be this browser's and unused (consumed once, so a
 *   replayed callback does nothing); the code is exchanged at the token endpoint, by this very
 *   server over its own socket, like any client; the access token is verified as every resource
 *   verifies one; a session is made.
 * - A session is a random token in an HttpOnly, SameSite=Lax cookie (Secure on https), kept in the
 *   database as its hash under the login's id (`oauth_records`, model `ConsoleSession`), so every
 *   process knows it, and choosing a new password ends it with the login's other sessions.
 * - Forms carry a CSRF token derived from the session (an HMAC under the service's cookie secret),
 *   and a POST from another site's origin is refused.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { IncomingMessage } from "node:http"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type * as Cookies from "effect/http/Cookies"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { type AppSettings, issuerOf } from "../config/settings.ts"
import { consoleClient, isConsolePath } from "../domain/login.ts"
import type { ConsoleSignIn } from "../operations/console_sign_in.ts"

/** How long a console session lasts; signing in again within the authorization server's own session needs no password. */
const sessionLifetimeSeconds = 8 * 3600

/** How long a person has to sign in once sent to the authorization server. */
const signInLifetimeSeconds = 600

const sessionCookie = "tm_console"
const stateCookie = "tm_console_state"
const sessionModel = "ConsoleSession"
const signInModel = "ConsoleSignIn"

/** A cookie to set on the response (`HttpServerResponse.setCookieUnsafe`). */
export interface CookieToSet {
  readonly name: string
  readonly value: string
  readonly options: NonNullable<Cookies.Cookie["options"]>
}

/** The signed-in person: their login (the OAuth subject) and the participant it is linked to. */
export interface ConsoleCaller {
  readonly subject: string
  readonly slug: string
  /** The token every form of this session carries. */
  readonly csrf: string
}

/** Why a sign-in could not finish, in the person's words. */
export class SignInFailed extends Data.TaggedError("SignInFailed")<{
  readonly problem: "state" | "denied" | "exchange"
}> {}

const hashOf = (value: string) => createHash("sha256").update(value).digest("base64url")
const randomToken = () => randomBytes(32).toString("base64url")

/**
 * Where a return path may lead: the console's own pages only, written in printable ASCII (a
 * decoded `return=` may hold CR, LF or other bytes a `Location` header cannot carry; a path the
 * console itself makes never does).
 */
const isReturnPath = (path: string) =>
  /^[\x21-\x7e]*$/.test(path) &&
  isConsolePath(path) &&
  !path.startsWith(consoleClient.callbackPath) &&
  !path.includes("//") &&
  !path.includes("\\")

/** `path` when it may be returned to, else the console's home. */
const returnPathOr = (path: unknown) => (typeof path === "string" && isReturnPath(path) ? path : consoleClient.path)

export const makeConsoleSessions = (options: {
  readonly settings: AppSettings
  readonly signIn: ConsoleSignIn["Service"]
}) => {
  const { settings, signIn } = options
  const base = settings.publicBaseUrl.replace(/\/+$/, "")
  const basePath = new URL(base).pathname.replace(/\/+$/, "")
  const origin = new URL(base).origin
  const secure = base.startsWith("https:")
  const issuer = issuerOf(settings)
  const redirectUri = `${base}${consoleClient.callbackPath}`
  const cookiePath = `${basePath}${consoleClient.path}`

  /** A cookie of the console's: HttpOnly, SameSite=Lax, Secure on https, sent to the console's paths only. */
  const cookie = (name: string, value: string, maxAgeSeconds: number): CookieToSet => ({
    name,
    value,
    options: { path: cookiePath, maxAge: `${maxAgeSeconds} seconds`, httpOnly: true, sameSite: "lax", secure }
  })

  const csrfFor = (sessionHash: string) =>
    createHmac("sha256", signIn.cookieSecret).update(`console:${sessionHash}`).digest("base64url")

  /** The signed-in caller of this request, or undefined (no cookie, an ended or expired session, an unlinked login). */
  const current = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const token = request.cookies[sessionCookie]
      if (token === undefined || token === "") return undefined
      const id = hashOf(token)
      const session = yield* signIn.findRecord(sessionModel, id)
      const subject = session?.accountId
      if (typeof subject !== "string") return undefined
      const slug = yield* signIn.participantOf(subject)
      if (slug === undefined) return undefined
      return { subject, slug, csrf: csrfFor(id) } satisfies ConsoleCaller
    })

  /** Sends the browser to sign in, to come back to `returnTo` (a console path) afterwards. */
  const start = (returnTo: string) =>
    Effect.gen(function* () {
      const state = randomToken()
      const verifier = randomToken()
      yield* signIn.keepRecord(
        signInModel,
        hashOf(state),
        { verifier, returnTo: returnPathOr(returnTo) },
        signInLifetimeSeconds
      )
      const authorize = new URL(`${issuer}/auth`)
      authorize.search = new URLSearchParams({
        client_id: consoleClient.id,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: "openid",
        state,
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256"
      }).toString()
      return {
        location: authorize.href,
        setCookie: cookie(stateCookie, state, signInLifetimeSeconds)
      }
    })

  /** The token endpoint of this very server, reached over the socket the request came in on. */
  const tokenEndpointOf = (request: HttpServerRequest.HttpServerRequest) => {
    if (!(request.source instanceof IncomingMessage)) return undefined
    const { localAddress, localPort } = request.source.socket
    if (localAddress === undefined || localPort === undefined) return undefined
    const host = localAddress.includes(":") ? `[${localAddress}]` : localAddress
    return `http://${host}:${localPort}/oauth/token`
  }

  const exchange = (request: HttpServerRequest.HttpServerRequest, code: string, verifier: string) =>
    Effect.tryPromise(async () => {
      const endpoint = tokenEndpointOf(request)
      if (endpoint === undefined) return undefined
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          client_id: consoleClient.id,
          code_verifier: verifier
        }),
        signal: AbortSignal.timeout(10_000)
      })
      if (!response.ok) return undefined
      const body = (await response.json()) as { access_token?: unknown }
      return typeof body.access_token === "string" ? body.access_token : undefined
    }).pipe(Effect.orElseSucceed(() => undefined))

  /**
   * The callback: `code` and `state` (or `error`) from the authorization server. On success, a new
   * session's cookie and where to go; the state cookie is cleared either way.
   */
  const finish = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const query = new URL(request.url, "http://console").searchParams
      const state = query.get("state") ?? ""
      const expected = request.cookies[stateCookie] ?? ""
      const a = Buffer.from(state)
      const b = Buffer.from(expected)
      if (state === "" || a.length !== b.length || !timingSafeEqual(a, b))
        return yield* new SignInFailed({ problem: "state" })
      const kept = yield* signIn.findRecord(signInModel, hashOf(state))
      // One use: a replayed callback finds the state consumed.
      if (
        kept === undefined ||
        kept.consumed !== undefined ||
        !(yield* signIn.consumeRecord(signInModel, hashOf(state)))
      ) {
        return yield* new SignInFailed({ problem: "state" })
      }
      if (query.get("error") !== null) return yield* new SignInFailed({ problem: "denied" })
      const code = query.get("code")
      if (code === null) return yield* new SignInFailed({ problem: "exchange" })
      const accessToken = yield* exchange(request, code, String(kept.verifier))
      if (accessToken === undefined) return yield* new SignInFailed({ problem: "exchange" })
      const verified = yield* signIn
        .verify(accessToken, settings.oauthAudience)
        .pipe(Effect.mapError(() => new SignInFailed({ problem: "exchange" })))
      const token = randomToken()
      yield* signIn.keepRecord(sessionModel, hashOf(token), { accountId: verified.subject }, sessionLifetimeSeconds)
      return {
        // Judged again: a sign-in begun by an older process kept whatever path it was given.
        returnTo: `${basePath}${returnPathOr(kept.returnTo)}`,
        setCookies: [cookie(sessionCookie, token, sessionLifetimeSeconds), cookie(stateCookie, "", 0)]
      }
    })

  /** Ends this browser's session; the cookie that clears it. */
  const end = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const token = request.cookies[sessionCookie]
      if (token !== undefined && token !== "") yield* signIn.dropRecord(sessionModel, hashOf(token))
      return cookie(sessionCookie, "", 0)
    })

  /** Where the authorization server ends its own session and then sends the browser back to the console. */
  const signOutUrl = `${issuer}/session/end?${new URLSearchParams({
    client_id: consoleClient.id,
    post_logout_redirect_uri: `${base}${consoleClient.signedOutPath}`
  })}`

  /** A POST this session's own page sent: the CSRF token matches and no other site's origin is named. */
  const formIsOurs = (
    request: HttpServerRequest.HttpServerRequest,
    caller: ConsoleCaller,
    token: string | undefined
  ) => {
    const from = request.headers.origin
    if (from !== undefined && from !== "null" && from !== origin) return false
    if (token === undefined) return false
    const a = Buffer.from(caller.csrf)
    const b = Buffer.from(token)
    return a.length === b.length && timingSafeEqual(a, b)
  }

  return { current, start, finish, end, signOutUrl, formIsOurs, basePath }
}

export type ConsoleSessions = ReturnType<typeof makeConsoleSessions>
