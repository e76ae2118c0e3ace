/**
 * The pages a person meets while an app or assistant signs them in (oidc-provider's
 * "interactions"), and the page where an invitation or reset link leads:
 * - `GET  /oauth/interaction/:uid`: sign in, or approve the app (consent), whichever is due;
 * - `POST /oauth/interaction/:uid/sign-in`: email and password (throttled: a browser that signed in
 *   to that login before shows its device cookie and is counted on its own, strangers per login and
 *   per address);
 * - `GET|POST /oauth/interaction/:uid/sign-up`: create an account and a profile awaiting the
 *   operator's approval, then sign in with it (only with PARTICIPANT_SIGNUP=open: otherwise these
 *   addresses are unknown, the catch-all's 404 page). An address that has an account already gets
 *   the very page a new one gets, and nothing is made or changed: the page never tells who has one;
 * - `POST /oauth/interaction/:uid/consent`: `Allow` or `Deny`;
 * - `GET|POST /oauth/password?token=…`: choose a password from a one-time link.
 *
 * Forms carry a CSRF token bound to the interaction (an HMAC of its id under the cookie secret),
 * and a POST whose `Origin` is another site's is refused: the interaction cookie alone (SameSite=Lax)
 * would already keep another site's form out; the token makes it explicit. The rules themselves
 * (passwords, links, throttling, profiles) live in the Logins and Profiles services; these handlers
 * only translate.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import type * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as UrlParams from "effect/http/UrlParams"
import * as Option from "effect/Option"
import type { default as Provider } from "oidc-provider"

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>

import type { AppSettings } from "../config/settings.ts"
import type { LinkNotUsable } from "../domain/errors.ts"
import {
  choosePasswordPath,
  consoleClient,
  deviceCookiePath,
  deviceTrustMs,
  emailProblem,
  type Login,
  passwordProblem
} from "../domain/login.ts"
import { type ProfileProblems, readProfileEdit } from "../domain/participant.ts"
import { pageHeaders } from "../pages/layout.ts"
import { asPage as asPageWith } from "../pages/respond.ts"
import type { Logins } from "../services/logins/service.ts"
import type { Profiles } from "../services/profiles.ts"
import type { ProviderHost } from "./host.ts"
import {
  choosePasswordPage,
  consentPage,
  errorPage,
  errorPages,
  linkProblemPage,
  passwordChosenPage,
  resourceDescriptions,
  pageResponse as respond,
  type SignUpField,
  type SignUpValues,
  signInPage,
  signUpPage
} from "./pages.ts"
import { interactionPath } from "./provider.ts"

/** Form bodies are a few fields: 16 KiB is plenty. */
const maxFormBytes = ByteSize.kibibytes(16)

/**
 * The sign-up form carries a profile: its texts at their limits (domain/participant.ts,
 * `profileLimits`), in a script of three bytes a character, percent-encoded, stay under this.
 */
const maxSignUpFormBytes = ByteSize.kibibytes(64)

/** A field's problem as the sign-up page words it, where the profile's own words would name a member. */
const signUpWording: Partial<Record<SignUpField, string>> = {
  name: "Enter your name.",
  discipline: "Say what you do.",
  location: "Say where you are: city and country.",
  task_type: "Choose how you work."
}

/** "tags: at most 20" → "Tags: at most 20."; a blank or missing required field in the page's own words. */
const signUpProblem = (field: SignUpField, message: string) => {
  const blank = /must not be blank|is required|must be one of/.test(message)
  const worded = blank ? signUpWording[field] : undefined
  if (worded !== undefined) return worded
  const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}`
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`
}

/** The device cookie: a browser that signed in keeps it, to be told apart from strangers (Logins.signIn). */
const deviceCookie = "tm_device"

const interactionRoutePath = interactionPath("", ":uid") as `/${string}`
const passwordPath = choosePasswordPath

export const makeInteractions = (options: {
  readonly settings: AppSettings
  readonly host: ProviderHost
  readonly secret: string
  readonly logins: Logins["Service"]
  readonly profiles: Profiles["Service"]
  readonly resources: { readonly api: string; readonly mcp: string }
}) => {
  const { settings, host, logins, profiles, resources } = options
  const signUpOpen = settings.participantSignup === "open"
  const basePath = new URL(settings.publicBaseUrl).pathname.replace(/\/+$/, "")
  const origin = new URL(settings.publicBaseUrl).origin
  // Not a session: sent only to the sign-in pages, never readable by a script.
  const deviceCookieOptions = {
    path: `${basePath}${deviceCookiePath}`,
    maxAge: `${deviceTrustMs / 1000} seconds`,
    httpOnly: true,
    sameSite: "lax",
    secure: settings.publicBaseUrl.startsWith("https:")
  } as const

  const csrfFor = (uid: string) => createHmac("sha256", options.secret).update(`interaction:${uid}`).digest("base64url")
  const csrfMatches = (uid: string, token: string | undefined) => {
    if (token === undefined) return false
    const a = Buffer.from(csrfFor(uid))
    const b = Buffer.from(token)
    return a.length === b.length && timingSafeEqual(a, b)
  }

  /** A POST from another site's page (a browser names the page's origin). */
  const crossSite = (request: HttpServerRequest.HttpServerRequest) => {
    const from = request.headers.origin
    return from !== undefined && from !== "null" && from !== origin
  }

  const form = (request: HttpServerRequest.HttpServerRequest, maxBytes = maxFormBytes) =>
    request.urlParamsBody.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBytes),
      Effect.map((params) => (name: string) => Option.getOrUndefined(UrlParams.getFirst(params, name)))
    )

  const expired = respond(errorPage(errorPages.signInExpired))
  const refusedForm = respond(
    errorPage({
      status: 403,
      title: "This form cannot be sent from here",
      message: "The form did not come from this site's own page, so nothing was done.",
      hint: "Go back to your assistant or app and start signing in again."
    })
  )

  /** The interaction of this request (its cookie), or undefined when it has expired or is unknown. */
  const details = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.tryPromise(async () => {
      const { req, res } = host.raw(request)
      const provider = await host.provider()
      return { provider, interaction: await provider.interactionDetails(req, res) }
    }).pipe(Effect.option)

  /** Finishes the interaction with `result` and sends the browser back to the authorization endpoint. */
  const finish = (request: HttpServerRequest.HttpServerRequest, provider: Provider, result: object) =>
    Effect.tryPromise(async () => {
      const { req, res } = host.raw(request)
      return await provider.interactionResult(req, res, result as never, { mergeWithLastSubmission: false })
    }).pipe(Effect.map((location) => HttpServerResponse.redirect(location, { status: 303 })))

  const clientOf = (provider: Provider, clientId: string) =>
    Effect.promise(() => provider.Client.find(clientId).catch(() => undefined))

  const formHeaders = (redirectUri: unknown) =>
    pageHeaders({ formActionOrigins: typeof redirectUri === "string" ? [redirectUri] : [] })

  const signInView = (
    uid: string,
    provider: Provider,
    params: Record<string, unknown>,
    extra: { email?: string; error?: string; notice?: string; status?: number; retryAfter?: number } = {}
  ) =>
    Effect.map(clientOf(provider, String(params.client_id)), (client) => {
      const rendered = signInPage({
        action: `${interactionPath(basePath, uid)}/sign-in`,
        csrfToken: csrfFor(uid),
        clientName: client?.clientName ?? String(params.client_id),
        email: extra.email,
        error: extra.error,
        notice: extra.notice,
        signUpUrl: signUpOpen ? `${interactionPath(basePath, uid)}/sign-up` : undefined
      })
      const headers = formHeaders(params.redirect_uri)
      if (extra.retryAfter !== undefined) headers["retry-after"] = String(extra.retryAfter)
      return respond({ ...rendered, status: extra.status ?? rendered.status }, headers)
    })

  const signUpView = (
    uid: string,
    provider: Provider,
    params: Record<string, unknown>,
    extra: {
      values?: SignUpValues
      problems?: Partial<Record<SignUpField, string>>
      error?: string
      status?: number
      retryAfter?: number
    } = {}
  ) =>
    Effect.map(clientOf(provider, String(params.client_id)), (client) => {
      const rendered = signUpPage({
        action: `${interactionPath(basePath, uid)}/sign-up`,
        csrfToken: csrfFor(uid),
        clientName: client?.clientName ?? String(params.client_id),
        signInUrl: interactionPath(basePath, uid),
        values: extra.values,
        problems: extra.problems,
        error: extra.error
      })
      const headers = formHeaders(params.redirect_uri)
      if (extra.retryAfter !== undefined) headers["retry-after"] = String(extra.retryAfter)
      return respond({ ...rendered, status: extra.status ?? rendered.status }, headers)
    })

  const consentView = (uid: string, provider: Provider, params: Record<string, unknown>, login: Login) =>
    Effect.map(clientOf(provider, String(params.client_id)), (client) => {
      const asked = typeof params.resource === "string" ? [params.resource] : ((params.resource as string[]) ?? [])
      const named = asked.length === 0 ? [resources.api] : asked
      return respond(
        consentPage({
          action: `${interactionPath(basePath, uid)}/consent`,
          csrfToken: csrfFor(uid),
          clientName: client?.clientName ?? String(params.client_id),
          clientUri: client?.clientUri,
          redirectUri: String(params.redirect_uri),
          scopes: String(params.scope ?? "")
            .split(" ")
            .filter((scope) => scope !== ""),
          resources: named.map((url) => ({
            url,
            description: url === resources.mcp ? resourceDescriptions.mcp : resourceDescriptions.api
          })),
          accountEmail: login.email,
          signOutUrl: `${basePath}/oauth/session/end`
        }),
        formHeaders(params.redirect_uri)
      )
    })

  /** Grants the client what the interaction asked and has not been granted yet; the grant's id. */
  const grantAsked = (provider: Provider, interaction: Interaction, accountId: string) =>
    Effect.tryPromise(async () => {
      const clientId = String(interaction.params.client_id)
      const grant =
        (interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId)) ??
        new provider.Grant({ accountId, clientId })
      const missing = interaction.prompt.details as {
        missingOIDCScope?: string[]
        missingOIDCClaims?: string[]
        missingResourceScopes?: Record<string, string[]>
      }
      if (missing.missingOIDCScope !== undefined) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
      if (missing.missingOIDCClaims !== undefined) grant.addOIDCClaims(missing.missingOIDCClaims)
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(" "))
      }
      return await grant.save()
    })

  const show = (request: HttpServerRequest.HttpServerRequest, uid: string) =>
    Effect.gen(function* () {
      const found = yield* details(request)
      if (Option.isNone(found) || found.value.interaction.uid !== uid) return expired
      const { provider, interaction } = found.value
      const params = interaction.params as Record<string, unknown>
      if (interaction.prompt.name === "login") return yield* signInView(uid, provider, params)
      const accountId = interaction.session?.accountId
      const login = accountId === undefined ? undefined : yield* logins.findById(accountId)
      if (login === undefined) return yield* signInView(uid, provider, params)
      // The console is the marketplace's own: signing in to it is consent enough.
      if (params.client_id === consoleClient.id) {
        const grantId = yield* grantAsked(provider, interaction, login.id)
        return yield* finish(request, provider, { consent: { grantId } })
      }
      return yield* consentView(uid, provider, params, login)
    })

  /**
   * A form posted to an interaction's page, if it is that page's own: not from another site's
   * origin, for the interaction this browser has in progress, carrying its CSRF token. Otherwise
   * the page to answer with (refused, or the sign-in expired), and nothing is done.
   */
  const postedForm = (request: HttpServerRequest.HttpServerRequest, uid: string, maxBytes = maxFormBytes) =>
    Effect.gen(function* () {
      if (crossSite(request)) return { _tag: "Refused", page: refusedForm } as const
      const found = yield* details(request)
      if (Option.isNone(found) || found.value.interaction.uid !== uid)
        return { _tag: "Refused", page: expired } as const
      const field = yield* form(request, maxBytes)
      if (!csrfMatches(uid, field("csrf"))) return { _tag: "Refused", page: refusedForm } as const
      const { provider, interaction } = found.value
      return {
        _tag: "Posted",
        provider,
        interaction,
        params: interaction.params as Record<string, unknown>,
        field
      } as const
    })

  const signIn = (request: HttpServerRequest.HttpServerRequest, uid: string) =>
    Effect.gen(function* () {
      const posted = yield* postedForm(request, uid)
      if (posted._tag === "Refused") return posted.page
      const { provider, params, field } = posted
      const email = field("email") ?? ""
      const password = field("password") ?? ""
      const address = Option.getOrElse(request.remoteAddress, () => "unknown")
      return yield* logins.signIn(email, password, address, request.cookies[deviceCookie]).pipe(
        Effect.matchEffect({
          onSuccess: (login) =>
            Effect.zipWith(
              logins.deviceTokenFor(login),
              finish(request, provider, { login: { accountId: login.id, remember: true } }),
              (device, response) =>
                HttpServerResponse.setCookieUnsafe(response, deviceCookie, device, deviceCookieOptions)
            ),
          onFailure: (refusal) =>
            refusal._tag === "SignInRefused" && refusal.reason === "throttled"
              ? signInView(uid, provider, params, {
                  email,
                  status: 429,
                  retryAfter: refusal.retryAfterSeconds ?? 60,
                  error: `Too many attempts. Try again in ${minutes(refusal.retryAfterSeconds ?? 60)}.`
                })
              : refusal._tag === "SignInRefused"
                ? signInView(uid, provider, params, {
                    email,
                    status: 401,
                    error: "That email and password do not match."
                  })
                : Effect.fail(refusal)
        })
      )
    })

  /** Back to the interaction's own page (the app's consent), for a sign-up page of a sign-in already done. */
  const onwards = (uid: string) => HttpServerResponse.redirect(interactionPath(basePath, uid), { status: 303 })

  const signUpForm = (request: HttpServerRequest.HttpServerRequest, uid: string) =>
    Effect.gen(function* () {
      const found = yield* details(request)
      if (Option.isNone(found) || found.value.interaction.uid !== uid) return expired
      const { provider, interaction } = found.value
      if (interaction.prompt.name !== "login") return onwards(uid)
      return yield* signUpView(uid, provider, interaction.params as Record<string, unknown>)
    })

  const signUp = (request: HttpServerRequest.HttpServerRequest, uid: string) =>
    Effect.gen(function* () {
      const posted = yield* postedForm(request, uid, maxSignUpFormBytes)
      if (posted._tag === "Refused") return posted.page
      const { provider, interaction, params, field } = posted
      if (interaction.prompt.name !== "login") return onwards(uid)
      const values = {
        email: field("email") ?? "",
        name: field("name") ?? "",
        discipline: field("discipline") ?? "",
        location: field("location") ?? "",
        task_type: field("task_type") ?? "",
        tags: field("tags") ?? "",
        capabilities: field("capabilities") ?? "",
        returns: field("returns") ?? ""
      } satisfies SignUpValues
      const password = field("password") ?? ""
      const again = (extra: {
        problems?: Partial<Record<SignUpField, string>>
        error?: string
        status?: number
        retryAfter?: number
      }) => signUpView(uid, provider, params, { values, ...extra })

      // Everything the person can fix, said at once, before anything is counted or made.
      const problems: Partial<Record<SignUpField, string>> = {}
      const emailIssue = emailProblem(values.email)
      if (emailIssue !== undefined) problems.email = emailIssue
      const passwordIssue = passwordProblem(password)
      if (passwordIssue !== undefined) problems.password = passwordIssue
      else if (password !== (field("confirm") ?? "")) problems.confirm = "The two passwords do not match."
      const profile = readProfileEdit({
        name: values.name,
        discipline: values.discipline,
        location: values.location,
        task_type: values.task_type,
        tags: listOf(values.tags, /[,\n]/),
        capabilities: listOf(values.capabilities, /\n/),
        returns: values.returns,
        boundary: null
      })
      if (profile._tag === "Invalid") Object.assign(problems, signUpProblems(profile.problems))
      if (profile._tag === "Invalid" || Object.keys(problems).length > 0) return yield* again({ problems })

      // Made or not (the address had an account already), the person is asked to sign in with
      // what they chose: one page, so it never tells whether the address has an account.
      const sent = signInView(uid, provider, params, { email: values.email, notice: signedUpNotice })
      const address = Option.getOrElse(request.remoteAddress, () => "unknown")
      return yield* profiles.signUp({ email: values.email, password, profile: profile.edit }, address).pipe(
        Effect.matchEffect({
          onSuccess: () => sent,
          onFailure: (refusal) => {
            switch (refusal._tag) {
              case "EmailTaken":
                // Its holder is mailed that the address has an account (Profiles.signUp); the log
                // names the participant, never the address.
                return Effect.andThen(
                  Effect.logInfo("a sign-up named an address that has an account; nothing was made").pipe(
                    Effect.annotateLogs({ event: "sign_up_address_taken", participant: refusal.participantSlug })
                  ),
                  sent
                )
              case "SignUpThrottled":
                return again({ status: 429, retryAfter: refusal.retryAfterSeconds, error: refusal.message })
              case "InvalidEmail":
                return again({ problems: { email: refusal.problem } })
              case "PasswordRejected":
                return again({ problems: { password: refusal.problem } })
              default:
                return Effect.fail(refusal)
            }
          }
        })
      )
    })

  const consent = (request: HttpServerRequest.HttpServerRequest, uid: string) =>
    Effect.gen(function* () {
      const posted = yield* postedForm(request, uid)
      if (posted._tag === "Refused") return posted.page
      const { provider, interaction, field } = posted
      const accountId = interaction.session?.accountId
      if (interaction.prompt.name !== "consent" || accountId === undefined) return expired
      if (field("decision") !== "allow") {
        return yield* finish(request, provider, {
          error: "access_denied",
          error_description: "The person declined to allow this app."
        })
      }
      const grantId = yield* grantAsked(provider, interaction, accountId)
      return yield* finish(request, provider, { consent: { grantId } })
    })

  /** The console, where a person whose password is chosen signs in. */
  const consoleUrl = `${basePath}${consoleClient.path}`

  const linkProblem = (error: LinkNotUsable) =>
    Effect.succeed(respond(linkProblemPage({ reason: error.reason, consoleUrl })))

  const passwordForm = (request: HttpServerRequest.HttpServerRequest) => {
    const token = new URL(request.url, "http://x").searchParams.get("token") ?? ""
    return logins.linkFor(token).pipe(
      Effect.map((link) =>
        respond(
          choosePasswordPage({ action: `${basePath}${passwordPath}`, token, email: link.email, purpose: link.purpose })
        )
      ),
      Effect.catchTag("LinkNotUsable", linkProblem)
    )
  }

  const choosePassword = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      if (crossSite(request)) return refusedForm
      const field = yield* form(request)
      const token = field("token") ?? ""
      const password = field("password") ?? ""
      const link = yield* logins.linkFor(token)
      const again = (error: string) =>
        respond(
          choosePasswordPage({
            action: `${basePath}${passwordPath}`,
            token,
            email: link.email,
            purpose: link.purpose,
            error
          })
        )
      if (password !== (field("confirm") ?? "")) return again("The two passwords do not match.")
      return yield* logins.choosePassword(token, password).pipe(
        Effect.map((login) =>
          respond(passwordChosenPage({ email: login.email, consoleUrl, docsUrl: `${settings.docsUrl}#authentication` }))
        ),
        Effect.catchTag("PasswordRejected", (rejected) => Effect.succeed(again(rejected.problem)))
      )
    }).pipe(Effect.catchTag("LinkNotUsable", linkProblem))

  /** Every failure is a page a person can read (src/pages/respond.ts). */
  const asPage = asPageWith(
    {
      unavailable: errorPage({
        status: 503,
        title: "Please try again in a moment",
        message: "The marketplace could not reach its database just now, so nothing was done.",
        hint: "Wait a few seconds and send the form again."
      }),
      tooLarge: errorPage({
        status: 413,
        title: "This form is too large",
        message: "The form sent more than the few fields this page has, so nothing was done.",
        hint: "Go back and send the form again."
      }),
      serverError: errorPage(errorPages.serverError)
    },
    "an authorization page"
  )

  /** The interaction id in the path (an undecodable one names no interaction). */
  const uidOf = (request: HttpServerRequest.HttpServerRequest) => {
    const segment = request.url.split("?", 1)[0]!.split("/")[3] ?? ""
    try {
      return decodeURIComponent(segment)
    } catch {
      return ""
    }
  }

  return {
    routes: (router: HttpRouter.HttpRouter) =>
      Effect.all(
        [
          router.add("GET", interactionRoutePath, (request) => asPage(show(request, uidOf(request)))),
          router.add("POST", `${interactionRoutePath}/sign-in`, (request) => asPage(signIn(request, uidOf(request)))),
          router.add("POST", `${interactionRoutePath}/consent`, (request) => asPage(consent(request, uidOf(request)))),
          // Closed, the addresses are left to the catch-all under /oauth: its 404 page.
          ...(signUpOpen
            ? [
                router.add("GET", `${interactionRoutePath}/sign-up`, (request) =>
                  asPage(signUpForm(request, uidOf(request)))
                ),
                router.add("POST", `${interactionRoutePath}/sign-up`, (request) =>
                  asPage(signUp(request, uidOf(request)))
                )
              ]
            : []),
          router.add("GET", passwordPath, (request) => asPage(passwordForm(request))),
          router.add("POST", passwordPath, (request) => asPage(choosePassword(request)))
        ],
        { discard: true }
      )
  }
}

/** What the sign-in page says after a sign-up is sent, whether it made an account or not. */
const signedUpNotice =
  "Thank you for signing up. Sign in with the email address and password you chose to continue. Your profile is listed once the marketplace operator approves it."

/** The non-blank entries of a list typed as text, split at `separator`. */
const listOf = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")

/** The profile's problems on the sign-up page's fields (its boundary is not asked there). */
const signUpProblems = (problems: ProfileProblems): Partial<Record<SignUpField, string>> => {
  const onPage: Partial<Record<SignUpField, string>> = {}
  for (const field of ["name", "discipline", "location", "task_type", "tags", "capabilities", "returns"] as const) {
    const message = problems[field]
    if (message !== undefined) onPage[field] = signUpProblem(field, message)
  }
  return onPage
}

const minutes = (seconds: number) => {
  const m = Math.ceil(seconds / 60)
  return m === 1 ? "1 minute" : `${m} minutes`
}
