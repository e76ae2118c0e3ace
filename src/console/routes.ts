/**
 * The participant console at `<base>/console`: where a person takes offers, does the work and hands
 * in evidence. Server-rendered pages over the same operations as REST and the participant's MCP
 * endpoint (operations/participant.ts), so every rule, message and hint is the service's own.
 *
 * - `GET  /console`: the tasks (offers, in progress, awaiting review, history);
 * - `GET  /console/tasks/:reference`: one task, its brief and what can be done now;
 *   `POST …/accept`, `…/decline`, `…/start`, `…/submit` make the moves;
 * - `GET|POST /console/profile`, `POST /console/profile/availability`;
 * - `GET  /console/sign-in`, `/console/callback`, `POST /console/sign-out`, `GET /console/signed-out`;
 * - `GET  /console/live` (a fingerprint of the tasks) and `/console/live.js`.
 *
 * Served only with the embedded authorization server (the console signs in through it).
 */

import { createHash } from "node:crypto"
import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as UrlParams from "effect/http/UrlParams"
import * as Option from "effect/Option"
import { type EnvelopedRefusal, statusOf } from "../api/envelope.ts"
import { AppConfig, isEmbeddedIssuer } from "../config.ts"
import type { StorageUnavailable } from "../domain/errors.ts"
import { consoleClient } from "../domain/login.ts"
import { readProfileEdit } from "../domain/participant.ts"
import type { Task } from "../domain/task.ts"
import { downloadResponse } from "../http/evidence.ts"
import { presentParticipant } from "../operations/agent.ts"
import { type Caller, ParticipantOperations, type TaskOnBoard } from "../operations/participant.ts"
import { pageHeaders } from "../pages/layout.ts"
import { asPage as asPageWith, pageResponse, type RenderedPage } from "../pages/respond.ts"
import { formValuesOf } from "../pages/result_form.ts"
import { AccessTokens } from "../services/access_tokens.ts"
import { Accounts } from "../services/accounts.ts"
import { Artifacts } from "../services/artifacts.ts"
import { OAuthRecords } from "../services/oauth_records.ts"
import { Profiles } from "../services/profiles.ts"
import { SandboxClock } from "../services/sandbox_clock.ts"
import { OAuthCookieSecret } from "../services/service_secrets.ts"
import { liveScript } from "./live.ts"
import { consolePathsOf, homePage, messagePage, profilePage, type ResultFormInput, taskPage } from "./pages.ts"
import { type ConsoleCaller, type CookieToSet, makeConsoleSessions } from "./session.ts"
import { makeSubmission, maxFormTextBytes, resultFormOf } from "./submission.ts"

/** Forms other than a result are a few fields: 16 KiB is plenty. */
const maxFormBytes = ByteSize.kibibytes(16)

const notices: Record<string, string> = {
  accepted: "You accepted the task. Start work when you begin.",
  declined: "You declined the offer.",
  started: "Work started. Hand in your result below when you are done.",
  submitted: "Your result was submitted. The agent reviews it next.",
  saved: "Your profile is saved.",
  available: "You are taking offers again.",
  unavailable: "You are not taking offers. Offers you already have stay yours to answer."
}

export const ConsoleRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const config = yield* AppConfig
    if (!isEmbeddedIssuer(config)) return
    const operations = yield* ParticipantOperations
    const profiles = yield* Profiles
    // Offers' and reviews' times are the time of tasks (a sandbox's clock, in one).
    const time = yield* SandboxClock
    const artifacts = yield* Artifacts
    const submission = makeSubmission({ operations, artifacts })
    const sessions = makeConsoleSessions({
      settings: config,
      secret: (yield* OAuthCookieSecret).value,
      records: yield* OAuthRecords,
      accessTokens: yield* AccessTokens,
      accounts: yield* Accounts
    })
    const paths = consolePathsOf(sessions.basePath)

    const asPage = asPageWith(
      {
        unavailable: messagePage({
          status: 503,
          title: "Please try again in a moment",
          message:
            "The marketplace could not reach its database just now, so nothing was done. Wait a few seconds and try again."
        }),
        tooLarge: messagePage({
          status: 413,
          title: "This form is too large",
          message: "The form sent more than this page accepts, so nothing was done. Go back and send it again."
        }),
        serverError: messagePage({
          status: 500,
          title: "Something went wrong",
          message: "The marketplace could not complete this, so nothing was changed. Try again in a moment."
        })
      },
      "a console page"
    )
    const send = (rendered: RenderedPage) => pageResponse(rendered, pageHeaders({ scripts: true }))
    const redirect = (location: string, cookies: ReadonlyArray<CookieToSet> = []) =>
      cookies.reduce(
        (response, { name, value, options }) => HttpServerResponse.setCookieUnsafe(response, name, value, options),
        HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store" } })
      )

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

    /** The path under the console (`/tasks/…`), without the query. */
    const pathOf = (request: HttpServerRequest.HttpServerRequest) => request.url.split("?", 1)[0]!

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

    const form = (request: HttpServerRequest.HttpServerRequest) =>
      request.urlParamsBody.pipe(
        Effect.provideService(HttpIncomingMessage.MaxBodySize, maxFormBytes),
        Effect.map((params) => (name: string) => Option.getOrUndefined(UrlParams.getFirst(params, name)))
      )

    /** What every page of the caller's shows around its content, and whether their profile is listed yet. */
    const standingOf = (caller: ConsoleCaller) =>
      Effect.map(profiles.view(caller.slug), (profile) => ({
        frame: { paths, csrf: caller.csrf, name: profile?.record.name ?? caller.slug },
        listed: profile?.listed ?? true
      }))
    const frameOf = (caller: ConsoleCaller) => Effect.map(standingOf(caller), ({ frame }) => frame)
    const callerOf = ({ subject, slug }: ConsoleCaller): Caller => ({ subject, slug })

    /** The caller's tasks, with the times they must act by. */
    const boardOf = (caller: ConsoleCaller) => operations.board(callerOf(caller))

    const home = (request: HttpServerRequest.HttpServerRequest) =>
      signedIn(request, (caller) =>
        Effect.gen(function* () {
          const board = yield* boardOf(caller)
          const { frame, listed } = yield* standingOf(caller)
          const done = new URL(request.url, "http://console").searchParams.get("done") ?? ""
          return send(homePage({ frame, board, listed, now: yield* time.now, notice: notices[done] }))
        })
      )

    /** The reference in `/console/tasks/<reference>[/…]`. */
    const referenceOf = (request: HttpServerRequest.HttpServerRequest) => {
      try {
        return decodeURIComponent(pathOf(request).split("/")[3] ?? "")
      } catch {
        return ""
      }
    }

    const entryOf = (caller: ConsoleCaller, reference: string) =>
      Effect.map(boardOf(caller), (board) => board.find((entry) => entry.task.reference === reference))

    const taskView = (
      caller: ConsoleCaller,
      entry: TaskOnBoard,
      extra: { notice?: string; error?: string; status?: number; resultForm?: ResultFormInput } = {}
    ) =>
      Effect.gen(function* () {
        const frame = yield* frameOf(caller)
        return send(
          taskPage({
            frame,
            entry,
            now: yield* time.now,
            maxFiles: artifacts.limits.maxFiles,
            maxFileBytes: artifacts.limits.maxFileBytes,
            resultForm: extra.resultForm ?? freshResultForm(entry.task),
            ...extra
          })
        )
      })

    /**
     * The result form as the page first shows it: empty, or — when the agent asked for a revision —
     * filled with the result it sent back (files are chosen again).
     */
    const freshResultForm = (task: Task): ResultFormInput => {
      const schema = task.brief.result_schema
      const result = task.result
      if (result === null) return resultFormOf(schema)
      const values = formValuesOf(resultFormOf(schema).fieldList, result.fields)
      return resultFormOf(schema, {
        values: (name) => (name === "summary" ? [result.summary] : values(name)),
        problems: new Map(),
        topProblems: []
      })
    }

    const task = (request: HttpServerRequest.HttpServerRequest) =>
      signedIn(request, (caller) =>
        Effect.gen(function* () {
          const entry = yield* entryOf(caller, referenceOf(request))
          if (entry === undefined) return notFound
          const done = new URL(request.url, "http://console").searchParams.get("done") ?? ""
          return yield* taskView(caller, entry, notices[done] === undefined ? {} : { notice: notices[done] })
        })
      )

    /**
     * A move on a task from a plain form: the form must be this session's, the move is the
     * operations' own; done, back to the task (or the list, once it is no longer the caller's);
     * refused, the task again with the service's words.
     */
    const move =
      (
        make: (
          caller: Caller,
          reference: string,
          field: (name: string) => string | undefined
        ) => Effect.Effect<Task, EnvelopedRefusal>,
        done: string
      ) =>
      (request: HttpServerRequest.HttpServerRequest) =>
        signedIn(request, (caller) =>
          Effect.gen(function* () {
            const field = yield* form(request)
            if (!sessions.formIsOurs(request, caller, field("csrf"))) return refusedForm
            const reference = referenceOf(request)
            const outcome = yield* Effect.result(make(callerOf(caller), reference, field))
            if (outcome._tag === "Success") {
              const mine = outcome.success.participant_slug === caller.slug
              return redirect(mine ? `${paths.task(reference)}?done=${done}` : `${paths.home}?done=${done}`)
            }
            const entry = yield* entryOf(caller, reference)
            if (entry === undefined) return notFound
            const refusal = outcome.failure
            return yield* taskView(caller, entry, {
              error: `${refusal.message}${refusal.hint === undefined ? "" : ` ${refusal.hint}`}`,
              status: statusOf(refusal)
            })
          })
        )

    /** The profile page, as saved or with what the person typed and the problems to fix. */
    const profileView = (
      caller: ConsoleCaller,
      extra: {
        notice?: string
        problems?: ReadonlyMap<string, string>
        values?: Record<string, string>
        status?: number
      } = {}
    ) =>
      Effect.gen(function* () {
        const profile = yield* profiles.view(caller.slug)
        if (profile === undefined) return notFound
        const frame = yield* frameOf(caller)
        return send(
          profilePage({
            frame,
            participant: presentParticipant(config.publicBaseUrl, profile.record),
            available: profile.available,
            listed: profile.listed,
            ...extra
          })
        )
      })

    const profile = (request: HttpServerRequest.HttpServerRequest) =>
      signedIn(request, (caller) => {
        const done = new URL(request.url, "http://console").searchParams.get("done") ?? ""
        return profileView(caller, notices[done] === undefined ? {} : { notice: notices[done] })
      })

    /** Lines or commas to a list, each entry trimmed, empty ones dropped. */
    const listOf = (text: string | undefined, separator: RegExp) =>
      (text ?? "")
        .split(separator)
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "")

    const saveProfile = (request: HttpServerRequest.HttpServerRequest) =>
      signedIn(request, (caller) =>
        Effect.gen(function* () {
          const field = yield* form(request)
          if (!sessions.formIsOurs(request, caller, field("csrf"))) return refusedForm
          const names = ["name", "discipline", "location", "task_type", "tags", "capabilities", "returns", "boundary"]
          const values = Object.fromEntries(names.map((name) => [name, field(name) ?? ""]))
          const read = readProfileEdit({
            ...values,
            tags: listOf(values.tags, /,/),
            capabilities: listOf(values.capabilities, /\r?\n/),
            boundary: values.boundary
          })
          if (read._tag === "Invalid") {
            return yield* profileView(caller, {
              problems: new Map(
                Object.entries(read.problems).filter((entry): entry is [string, string] => entry[1] !== undefined)
              ),
              values,
              status: 422
            })
          }
          return yield* profiles.update(caller.slug, read.edit).pipe(
            Effect.as(redirect(`${paths.profile}?done=saved`)),
            Effect.catchTag("ProfileNotFound", () => Effect.succeed(notFound))
          )
        })
      )

    const setAvailability = (request: HttpServerRequest.HttpServerRequest) =>
      signedIn(request, (caller) =>
        Effect.gen(function* () {
          const field = yield* form(request)
          if (!sessions.formIsOurs(request, caller, field("csrf"))) return refusedForm
          const available = field("available") === "yes"
          return yield* profiles.setAvailable(caller.slug, available).pipe(
            Effect.as(redirect(`${paths.profile}?done=${available ? "available" : "unavailable"}`)),
            Effect.catchTag("ProfileNotFound", () => Effect.succeed(notFound))
          )
        })
      )

    const live = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.flatMap(sessions.current(request), (caller) =>
        caller === undefined
          ? Effect.succeed(
              HttpServerResponse.jsonUnsafe(
                { error: "unauthorized", message: "Sign in to the console again." },
                { status: 401, headers: { "cache-control": "no-store" } }
              )
            )
          : Effect.map(boardOf(caller), (board) =>
              HttpServerResponse.jsonUnsafe(
                {
                  fingerprint: createHash("sha256")
                    .update(board.map(({ task }) => `${task.reference}@${task.updated_at}`).join("\n"))
                    .digest("base64url")
                },
                { headers: { "cache-control": "no-store" } }
              )
            )
      )

    const signIn = (request: HttpServerRequest.HttpServerRequest) => {
      const back = new URL(request.url, "http://console").searchParams.get("return") ?? consoleClient.path
      return Effect.map(sessions.start(back), ({ location, setCookie }) => redirect(location, [setCookie]))
    }

    const callback = (request: HttpServerRequest.HttpServerRequest) =>
      sessions.finish(request).pipe(
        Effect.map(({ returnTo, setCookies }) => redirect(returnTo, setCookies)),
        Effect.catchTag("SignInFailed", ({ problem }) =>
          Effect.succeed(
            send(
              messagePage({
                status: problem === "denied" ? 403 : 400,
                title: problem === "denied" ? "You did not sign in" : "Signing in did not finish",
                message:
                  problem === "state"
                    ? "This sign-in link was already used, has expired, or was opened in another browser."
                    : problem === "denied"
                      ? "The sign-in was cancelled, so you are not signed in to the console."
                      : "The marketplace could not complete your sign-in. Please try again.",
                link: { href: `${paths.home}/sign-in`, label: "Sign in again" }
              })
            )
          )
        )
      )

    const signOut = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const caller = yield* sessions.current(request)
        const field = yield* form(request)
        if (caller !== undefined && !sessions.formIsOurs(request, caller, field("csrf"))) return refusedForm
        const clear = yield* sessions.end(request)
        return redirect(sessions.signOutUrl, [clear])
      })

    const signedOut = send(
      messagePage({
        status: 200,
        title: "You are signed out",
        message: "You signed out of the console. Sign in again to see your offers and tasks.",
        link: { href: `${paths.home}/sign-in`, label: "Sign in" }
      })
    )

    const script = HttpServerResponse.text(liveScript, {
      contentType: "text/javascript; charset=utf-8",
      headers: { "cache-control": "public, max-age=300", "x-content-type-options": "nosniff" }
    })

    const moves = {
      accept: move((caller, reference) => operations.accept(caller, reference), "accepted"),
      decline: move((caller, reference, field) => operations.decline(caller, reference, field("reason")), "declined"),
      start: move((caller, reference) => operations.start(caller, reference), "started")
    }

    const tooMuchText = (reference: string) =>
      send(
        messagePage({
          status: 413,
          title: "This form is too large",
          message: `The result's text came to more than ${Math.round(maxFormTextBytes / 1024)} KB, more than a result may carry, so nothing was submitted. Go back, shorten the longest fields, and submit again.`,
          link: { href: paths.task(reference), label: "Back to the task" }
        })
      )

    /**
     * Refused with the rest of the body unread: the connection closes after the answer, so Node
     * does not read (and discard) what is still coming — a form of up to the files' limit.
     */
    const unread = (response: HttpServerResponse.HttpServerResponse) =>
      HttpServerResponse.setHeader(response, "connection", "close")

    /** `POST /console/tasks/:reference/submit`: the result form (multipart, files streamed to the store). */
    const submit = (request: HttpServerRequest.HttpServerRequest) =>
      signedIn(request, (caller) =>
        Effect.gen(function* () {
          const reference = referenceOf(request)
          const entry = yield* entryOf(caller, reference)
          if (entry === undefined) return notFound
          const outcome = yield* submission.submit(
            request,
            callerOf(caller),
            reference,
            entry.task.brief.result_schema,
            (csrf) => sessions.formIsOurs(request, caller, csrf)
          )
          switch (outcome._tag) {
            case "Submitted":
              return redirect(`${paths.task(reference)}?done=submitted`)
            case "ForeignForm":
              return unread(refusedForm)
            case "TooLarge":
              return unread(tooMuchText(reference))
            case "Refused":
              return yield* taskView(caller, entry, { resultForm: outcome.form, status: outcome.status })
          }
        })
      )

    /** `GET /console/tasks/:reference/files/:id`: a file the signed-in participant uploaded. */
    const file = (request: HttpServerRequest.HttpServerRequest) =>
      signedIn(request, (caller) =>
        Effect.gen(function* () {
          const reference = referenceOf(request)
          let id: string
          try {
            id = decodeURIComponent(pathOf(request).split("/")[5] ?? "")
          } catch {
            return notFound
          }
          const stored = yield* artifacts.find(reference, id)
          if (stored === undefined || stored.uploader !== caller.slug) return notFound
          return yield* artifacts.open(reference, id).pipe(
            Effect.map(({ file, body }) => downloadResponse(file, body)),
            Effect.catchTag("ArtifactNotFound", () => Effect.succeed(notFound))
          )
        })
      )

    const onTask = (request: HttpServerRequest.HttpServerRequest) => {
      const segments = pathOf(request).split("/")
      const action = segments[4]
      if (segments.length === 4 && request.method === "GET") return task(request)
      if (segments.length === 5 && request.method === "POST" && action === "submit") return submit(request)
      if (segments.length === 6 && request.method === "GET" && action === "files") return file(request)
      if (segments.length === 5 && request.method === "POST" && action !== undefined && action in moves) {
        return moves[action as keyof typeof moves](request)
      }
      return Effect.succeed(notFound)
    }

    type Handler = (
      request: HttpServerRequest.HttpServerRequest
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>
    const routes: ReadonlyArray<readonly ["GET" | "POST" | "*", `/${string}`, Handler]> = [
      ["GET", "/console/sign-in", signIn],
      ["GET", "/console/callback", callback],
      ["POST", "/console/sign-out", signOut],
      ["GET", "/console/signed-out", () => Effect.succeed(signedOut)],
      ["GET", "/console/live", live],
      ["GET", "/console/profile", profile],
      ["POST", "/console/profile", saveProfile],
      ["POST", "/console/profile/availability", setAvailability],
      ["GET", "/console/live.js", () => Effect.succeed(script)],
      ["*", "/console/tasks/*", onTask],
      // Also `/console` itself (a wildcard route serves its parent path too).
      [
        "*",
        "/console/*",
        (request) =>
          pathOf(request) === consoleClient.path && request.method === "GET" ? home(request) : Effect.succeed(notFound)
      ]
    ]
    for (const [method, path, handle] of routes) {
      yield* router.add(method, path, (request) => asPage(handle(request)))
    }
  })
)
