/**
 * The participant's profile in the console: `GET|POST /console/profile` (what they say of
 * themselves), `POST /console/profile/availability` (offers on or off) and
 * `POST /console/profile/mail` (which notifications are mailed; shown only when mail is on),
 * through the participant's operations.
 */

import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { notificationKinds } from "../domain/mail.ts"
import { readProfileEdit } from "../domain/participant.ts"
import { presentParticipant } from "../operations/agent.ts"
import { type ConsoleContext, type ConsoleRoute, callerOf, form, formAll, noticeOf, redirect, send } from "./context.ts"
import { profilePage } from "./pages.ts"
import type { ConsoleCaller } from "./session.ts"

/** Lines or commas to a list, each entry trimmed, empty ones dropped. */
const listOf = (text: string | undefined, separator: RegExp) =>
  (text ?? "")
    .split(separator)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")

/** The profile form's fields, in order. */
const profileFields = ["name", "discipline", "location", "task_type", "tags", "capabilities", "returns", "boundary"]

export const profileRoutes = (context: ConsoleContext): ReadonlyArray<ConsoleRoute> => {
  const { settings, operations, sessions, paths, notFound, refusedForm, signedIn, frameOf } = context

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
      const profile = yield* operations.profile(callerOf(caller))
      if (profile === undefined) return notFound
      const frame = yield* frameOf(caller)
      const mailOff = settings.mail.transport === undefined ? undefined : yield* operations.mailOff(callerOf(caller))
      return send(
        profilePage({
          frame,
          participant: presentParticipant(settings.publicBaseUrl, profile.record),
          available: profile.available,
          listed: profile.listed,
          mailOff,
          ...extra
        })
      )
    })

  const profile = (request: HttpServerRequest.HttpServerRequest) =>
    signedIn(request, (caller) => {
      const notice = noticeOf(request)
      return profileView(caller, notice === undefined ? {} : { notice })
    })

  const saveProfile = (request: HttpServerRequest.HttpServerRequest) =>
    signedIn(request, (caller) =>
      Effect.gen(function* () {
        const field = yield* form(request)
        if (!sessions.formIsOurs(request, caller, field("csrf"))) return refusedForm
        const values = Object.fromEntries(profileFields.map((name) => [name, field(name) ?? ""]))
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
        return yield* operations.updateProfile(callerOf(caller), read.edit).pipe(
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
        return yield* operations.setAvailable(callerOf(caller), available).pipe(
          Effect.as(redirect(`${paths.profile}?done=${available ? "available" : "unavailable"}`)),
          Effect.catchTag("ProfileNotFound", () => Effect.succeed(notFound))
        )
      })
    )

  /** The ticked kinds are mailed, the others turned off. */
  const setMail = (request: HttpServerRequest.HttpServerRequest) =>
    signedIn(request, (caller) =>
      Effect.gen(function* () {
        const fields = yield* formAll(request)
        if (!sessions.formIsOurs(request, caller, fields("csrf")[0])) return refusedForm
        const on = new Set(fields("on"))
        yield* operations.setMailOff(
          callerOf(caller),
          notificationKinds.filter((kind) => !on.has(kind))
        )
        return redirect(`${paths.profile}?done=mail`)
      })
    )

  return [
    ["GET", "/console/profile", profile],
    ["POST", "/console/profile/mail", setMail],
    ["POST", "/console/profile", saveProfile],
    ["POST", "/console/profile/availability", setAvailability]
  ]
}
