/**
 * Signing in and out of the console: `GET /console/sign-in` (to the authorization server),
 * `GET /console/callback` (back from it: a session), `POST /console/sign-out` and
 * `GET /console/signed-out`. The session itself is session.ts's.
 */

import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { consoleClient } from "../domain/login.ts"
import { type ConsoleContext, type ConsoleRoute, form, redirect, send } from "./context.ts"
import { messagePage } from "./pages.ts"

export const signInRoutes = ({ sessions, paths, refusedForm }: ConsoleContext): ReadonlyArray<ConsoleRoute> => {
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

  return [
    ["GET", "/console/sign-in", signIn],
    ["GET", "/console/callback", callback],
    ["POST", "/console/sign-out", signOut],
    ["GET", "/console/signed-out", () => Effect.succeed(signedOut)]
  ]
}
