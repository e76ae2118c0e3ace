/**
 * The participant's tasks in the console: `GET /console` (offers, in progress, awaiting review,
 * history), `GET /console/tasks/:reference` (one task and what can be done now), the moves
 * (`POST …/accept`, `…/decline`, `…/start`, `…/submit`), a message to the agent (`POST …/messages`),
 * a file's download (file_routes.ts), and
 * `GET /console/live` (a fingerprint of the tasks) with its script `/console/live.js`.
 */

import { createHash } from "node:crypto"
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Schema from "effect/Schema"
import { type EnvelopedRefusal, statusOf } from "../api/envelope.ts"
import { consoleClient } from "../domain/login.ts"
import { MessageRequest, messageBodyLimit } from "../domain/messages.ts"
import type { Task } from "../domain/task.ts"
import type { Caller, TaskOnBoard } from "../operations/participant.ts"
import { formValuesOf } from "../pages/result_form/previous_result.ts"
import { type ConsoleContext, type ConsoleRoute, callerOf, form, noticeOf, pathOf, redirect, send } from "./context.ts"
import { fileHandler } from "./file_routes.ts"
import { liveScript } from "./live.ts"
import { homePage, messagePage, type ResultFormInput, taskPage } from "./pages.ts"
import type { ConsoleCaller } from "./session.ts"
import { makeSubmission, maxFormTextBytes, resultFormOf } from "./submission.ts"

const decodeMessage = Schema.decodeUnknownResult(MessageRequest)

/** The reference in `/console/tasks/<reference>[/…]`. */
const referenceOf = (request: HttpServerRequest.HttpServerRequest) => {
  try {
    return decodeURIComponent(pathOf(request).split("/")[3] ?? "")
  } catch {
    return ""
  }
}

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

/**
 * Refused with the rest of the body unread: the connection closes after the answer, so Node
 * does not read (and discard) what is still coming — a form of up to the files' limit.
 */
const unread = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeader(response, "connection", "close")

const script = HttpServerResponse.text(liveScript, {
  contentType: "text/javascript; charset=utf-8",
  headers: { "cache-control": "public, max-age=300", "x-content-type-options": "nosniff" }
})

export const taskRoutes = (context: ConsoleContext): ReadonlyArray<ConsoleRoute> => {
  const { operations, sessions, paths, notFound, refusedForm, signedIn, standingOf, frameOf } = context
  const submission = makeSubmission({ operations })
  const { maxFiles, maxFileBytes } = operations.uploadLimits

  /** The caller's tasks, with the times they must act by. */
  const boardOf = (caller: ConsoleCaller) => operations.board(callerOf(caller))

  const home = (request: HttpServerRequest.HttpServerRequest) =>
    signedIn(request, (caller) =>
      Effect.gen(function* () {
        const board = yield* boardOf(caller)
        const { frame, listed } = yield* standingOf(caller)
        return send(homePage({ frame, board, listed, now: yield* operations.tasksNow, notice: noticeOf(request) }))
      })
    )

  const entryOf = (caller: ConsoleCaller, reference: string) =>
    Effect.map(boardOf(caller), (board) => board.find((entry) => entry.task.reference === reference))

  const taskView = (
    caller: ConsoleCaller,
    entry: TaskOnBoard,
    extra: {
      notice?: string
      error?: string
      status?: number
      resultForm?: ResultFormInput
      draftMessage?: string
    } = {}
  ) =>
    Effect.gen(function* () {
      const frame = yield* frameOf(caller)
      const messages = yield* Effect.result(operations.messages(callerOf(caller), entry.task.reference))
      return send(
        taskPage({
          frame,
          entry,
          now: yield* operations.tasksNow,
          maxFiles,
          maxFileBytes,
          resultForm: extra.resultForm ?? freshResultForm(entry.task),
          messages: messages._tag === "Success" ? messages.success : undefined,
          ...extra
        })
      )
    })

  const task = (request: HttpServerRequest.HttpServerRequest) =>
    signedIn(request, (caller) =>
      Effect.gen(function* () {
        const entry = yield* entryOf(caller, referenceOf(request))
        if (entry === undefined) return notFound
        const notice = noticeOf(request)
        return yield* taskView(caller, entry, notice === undefined ? {} : { notice })
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

  const moves = {
    accept: move((caller, reference) => operations.accept(caller, reference), "accepted"),
    decline: move((caller, reference, field) => operations.decline(caller, reference, field("reason")), "declined"),
    start: move((caller, reference) => operations.start(caller, reference), "started")
  }

  /** `POST /console/tasks/:reference/messages`: a message to the task's agent, from a plain form. */
  const message = (request: HttpServerRequest.HttpServerRequest) =>
    signedIn(request, (caller) =>
      Effect.gen(function* () {
        const field = yield* form(request)
        if (!sessions.formIsOurs(request, caller, field("csrf"))) return refusedForm
        const reference = referenceOf(request)
        const body = field("body") ?? ""
        const decoded = decodeMessage({ body })
        const outcome = yield* Effect.result(
          decoded._tag === "Success"
            ? operations.postMessage(callerOf(caller), reference, decoded.success)
            : Effect.fail(undefined)
        )
        if (outcome._tag === "Success") return redirect(`${paths.task(reference)}?done=message#conversation`)
        const entry = yield* entryOf(caller, reference)
        if (entry === undefined) return notFound
        const refusal = outcome.failure
        return yield* taskView(caller, entry, {
          error:
            refusal === undefined
              ? `Write a message of 1 to ${messageBodyLimit} characters.`
              : `${refusal.message}${refusal.hint === undefined ? "" : ` ${refusal.hint}`}`,
          status: refusal === undefined ? 422 : statusOf(refusal),
          draftMessage: body
        })
      })
    )

  const tooMuchText = (reference: string) =>
    send(
      messagePage({
        status: 413,
        title: "This form is too large",
        message: `The result's text came to more than ${Math.round(maxFormTextBytes / 1024)} KB, more than a result may carry, so nothing was submitted. Go back, shorten the longest fields, and submit again.`,
        link: { href: paths.task(reference), label: "Back to the task" }
      })
    )

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

  const file = fileHandler(context)

  const onTask = (request: HttpServerRequest.HttpServerRequest) => {
    const segments = pathOf(request).split("/")
    const action = segments[4]
    if (segments.length === 4 && request.method === "GET") return task(request)
    if (segments.length === 5 && request.method === "POST" && action === "submit") return submit(request)
    if (segments.length === 5 && request.method === "POST" && action === "messages") return message(request)
    if (segments.length === 6 && request.method === "GET" && action === "files") return file(request)
    if (segments.length === 5 && request.method === "POST" && action !== undefined && action in moves) {
      return moves[action as keyof typeof moves](request)
    }
    return Effect.succeed(notFound)
  }

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

  return [
    ["GET", "/console/live", live],
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
}
