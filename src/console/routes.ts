/**
 * The participant console at `<base>/console`: where a person takes offers, does the work and hands
 * in evidence. Server-rendered pages over the same operations as REST and the participant's MCP
 * endpoint (operations/participant.ts), so every rule, message and hint is the service's own; the
 * console reaches no service directly. Its routes, by concern:
 *
 * - signing in and out (sign_in_routes.ts; the session: session.ts, through `ConsoleSignIn`);
 * - the tasks, their moves, the result form and files, the live fingerprint (task_routes.ts,
 *   file_routes.ts, submission.ts);
 * - the profile (profile_routes.ts).
 *
 * Served only with the embedded authorization server (the console signs in through it).
 */

import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { AppConfig } from "../config/app_config.ts"
import { isEmbeddedIssuer } from "../config/settings.ts"
import { ConsoleSignIn } from "../operations/console_sign_in.ts"
import { ParticipantOperations } from "../operations/participant.ts"
import { asPage as asPageWith } from "../pages/respond.ts"
import { makeConsoleContext } from "./context.ts"
import { messagePage } from "./pages.ts"
import { profileRoutes } from "./profile_routes.ts"
import { makeConsoleSessions } from "./session.ts"
import { signInRoutes } from "./sign_in_routes.ts"
import { taskRoutes } from "./task_routes.ts"

/** Every failure of a console page, as a page a person can read. */
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

export const ConsoleRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const settings = yield* AppConfig
    if (!isEmbeddedIssuer(settings)) return
    const operations = yield* ParticipantOperations
    const sessions = makeConsoleSessions({ settings, signIn: yield* ConsoleSignIn })
    const context = makeConsoleContext({ settings, operations, sessions })
    const routes = [...signInRoutes(context), ...profileRoutes(context), ...taskRoutes(context)]
    for (const [method, path, handle] of routes) {
      yield* router.add(method, path, (request) => asPage(handle(request)))
    }
  })
)
