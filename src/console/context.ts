/**
 * What every page handler of the console shares: the caller's session (or a sign-in), the forms'
 * reading, the pages every handler may answer with (not found, a form from elsewhere), redirects,
 * and the frame around the caller's pages. Made once when the routes are (`makeConsoleContext`);
 * each concern's handlers (sign_in_routes.ts, task_routes.ts, profile_routes.ts) take it.
 */

import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as UrlParams from "effect/http/UrlParams"
import * as Option from "effect/Option"
import type { AppSettings } from "../config/settings.ts"
import type { StorageUnavailable } from "../domain/errors.ts"
import type { Caller, ParticipantOperations } from "../operations/participant.ts"
import { pageHeaders } from "../pages/layout.ts"
import { pageResponse, type RenderedPage } from "../pages/respond.ts"
import { type ConsolePaths, consolePathsOf, messagePage } from "./pages.ts"
import type { ConsoleCaller, ConsoleSessions, CookieToSet } from "./session.ts"

/** A page handler of the console. */
export type Handler = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>

/** A route of the console: its method, its path, its handler. */
export type ConsoleRoute = readonly ["GET" | "POST" | "*", `/${string}`, Handler]

/** Forms other than a result are a few fields: 16 KiB is plenty. */
const maxFormBytes = ByteSize.kibibytes(16)

/** What a page says after a move, named by its `?done=` parameter. */
export const notices: Record<string, string> = {
  accepted: "You accepted the task. Start work when you begin.",
  declined: "You declined the offer.",
  started: "Work started. Hand in your result below when you are done.",
  submitted: "Your result was submitted. The agent reviews it next.",
  message: "Your message was sent to the agent.",
  saved: "Your profile is saved.",
  mail: "Your mail settings are saved.",
  available: "You are taking offers again.",
  unavailable: "You are not taking offers. Offers you already have stay yours to answer."
}

/** The notice named by the request's `?done=`, if any. */
export const noticeOf = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  notices[new URL(request.url, "http://console").searchParams.get("done") ?? ""]

/** A rendered page as the console sends it (its script allowed). */
export const send = (rendered: RenderedPage) => pageResponse(rendered, pageHeaders({ scripts: true }))

/** A 303 to `location`, with the cookies to set. */
export const redirect = (location: string, cookies: ReadonlyArray<CookieToSet> = []) =>
  cookies.reduce(
    (response, { name, value, options }) => HttpServerResponse.setCookieUnsafe(response, name, value, options),
    HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store" } })
  )

/** The path under the console (`/tasks/…`), without the query. */
export const pathOf = (request: HttpServerRequest.HttpServerRequest) => request.url.split("?", 1)[0]!

/** The caller as the operations know them. */
export const callerOf = ({ subject, slug }: ConsoleCaller): Caller => ({ subject, slug })

/** A small form's fields, read from the body (at most `maxFormBytes`). */
export const form = (request: HttpServerRequest.HttpServerRequest) =>
  request.urlParamsBody.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, maxFormBytes),
    Effect.map((params) => (name: string) => Option.getOrUndefined(UrlParams.getFirst(params, name)))
  )

/** The same, with every value of a field given more than once (checkboxes). */
export const formAll = (request: HttpServerRequest.HttpServerRequest) =>
  request.urlParamsBody.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, maxFormBytes),
    Effect.map((params) => (name: string) => UrlParams.getAll(params, name))
  )

/** The console's shared parts (see the module's note). */
export const makeConsoleContext = (options: {
  readonly settings: AppSettings
  readonly operations: ParticipantOperations["Service"]
  readonly sessions: ConsoleSessions
}) => {
  const { settings, operations, sessions } = options
  const paths: ConsolePaths = consolePathsOf(sessions.basePath)

  const notFound = send(
    messagePage({
      status: 404,
      title: "Nothing here",
      message: "This address is not a page of the console, or not one of your tasks.",
      link: { href: paths.home, label: "Go to your tasks" }
    })
  )
  const refusedForm = send(
    messagePage({
      status: 403,
      title: "This form cannot be sent from here",
      message: "The form did not come from your console page, so nothing was done.",
      link: { href: paths.home, label: "Go to your tasks" }
    })
  )

  /** A signed-in page: the caller, or the browser sent to sign in and come back here. */
  const signedIn = <E>(
    request: HttpServerRequest.HttpServerRequest,
    handle: (caller: ConsoleCaller) => Effect.Effect<HttpServerResponse.HttpServerResponse, E>
  ) =>
    Effect.flatMap(
      sessions.current(request),
      (caller): Effect.Effect<HttpServerResponse.HttpServerResponse, E | StorageUnavailable> => {
        if (caller !== undefined) return handle(caller)
        if (request.method !== "GET") {
          return Effect.succeed(
            send(
              messagePage({
                status: 401,
                title: "Please sign in again",
                message: "Your session ended, so nothing was done. Sign in, then send the form again.",
                link: { href: `${paths.home}/sign-in`, label: "Sign in" }
              })
            )
          )
        }
        return Effect.map(sessions.start(request.url), ({ location, setCookie }) => redirect(location, [setCookie]))
      }
    )

  /** What every page of the caller's shows around its content, and whether their profile is listed yet. */
  const standingOf = (caller: ConsoleCaller) =>
    Effect.map(operations.profile(callerOf(caller)), (profile) => ({
      frame: { paths, csrf: caller.csrf, name: profile?.record.name ?? caller.slug },
      listed: profile?.listed ?? true
    }))
  const frameOf = (caller: ConsoleCaller) => Effect.map(standingOf(caller), ({ frame }) => frame)

  return { settings, operations, sessions, paths, notFound, refusedForm, signedIn, standingOf, frameOf }
}

export type ConsoleContext = ReturnType<typeof makeConsoleContext>
