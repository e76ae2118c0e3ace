/**
 * The pages mails link to besides the console and the password page (services/mail_preferences.ts
 * makes their tokens): a sign-up's address confirmation and the one-click unsubscribe.
 *
 * `<base>/mail/confirm/<token>`: `GET` asks (a link scanner changes nothing), `POST` confirms the
 * address the token names (the login's `email_confirmed_at`), until the token expires.
 *
 * One-click unsubscribe from a kind of notification (RFC 8058), the address every notification's
 * `List-Unsubscribe` names: `<base>/mail/unsubscribe/<token>`.
 *
 * - `POST` turns the kind off at once: what a mail program sends for `List-Unsubscribe-Post:
 *   List-Unsubscribe=One-Click`, and what the page's button sends. No sign-in and no form token:
 *   the token is the credential, and all it can do is turn that one kind off.
 * - `GET` (the link followed in a browser, or fetched by a link scanner) changes nothing: it asks
 *   first, with that button.
 *
 * A token that is not one of ours is the 404 page, and nothing changes.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { AppConfig } from "../config/app_config.ts"
import { notificationTitles } from "../domain/mail.ts"
import { ParticipantOperations } from "../operations/participant.ts"
import { html } from "../pages/html.ts"
import { page } from "../pages/layout.ts"
import { asPage as asPageWith, pageResponse, type RenderedPage } from "../pages/respond.ts"
import { confirmPath, unsubscribePath } from "../services/mail_preferences.ts"

const simplePage = (status: number, title: string, body: ReturnType<typeof html>): RenderedPage => ({
  status,
  html: page({ title, body: html`<h1>${title}</h1>${body}` })
})

const asPage = asPageWith(
  {
    unavailable: simplePage(
      503,
      "Please try again in a moment",
      html`<p>The marketplace could not reach its database just now, so nothing was changed.</p>`
    ),
    tooLarge: simplePage(413, "This request is too large", html`<p>Nothing was changed.</p>`),
    serverError: simplePage(500, "Something went wrong", html`<p>Nothing was changed. Try again in a moment.</p>`)
  },
  "an unsubscribe page"
)

const unknown = simplePage(
  404,
  "This unsubscribe link is not valid",
  html`<p>It may have been copied only in part. Nothing was changed; you can choose which mails you receive on your profile in the console.</p>`
)

const tokenOf = (request: HttpServerRequest.HttpServerRequest) => {
  const segment = request.url.split("?", 1)[0]!.split("/").pop() ?? ""
  try {
    return decodeURIComponent(segment)
  } catch {
    return ""
  }
}

const confirmAnswers = {
  unknown: simplePage(
    404,
    "This confirmation link is not valid",
    html`<p>It may have been copied only in part. Open it again from the mail, or copy the whole link into the address bar. Nothing was changed.</p>`
  ),
  expired: simplePage(
    410,
    "This confirmation link has expired",
    html`<p>Nothing was changed. Your sign-up still awaits the operator's approval.</p>`
  ),
  changed: simplePage(
    409,
    "This address is no longer your account's",
    html`<p>The account's address was changed after this link was sent. Nothing was changed.</p>`
  ),
  confirmed: simplePage(
    200,
    "Your address is confirmed",
    html`<p>Thank you. The marketplace operator reviews your profile next; a mail tells you when it is approved and listed.</p>`
  )
} as const

export const MailLinkRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const settings = yield* AppConfig
    const operations = yield* ParticipantOperations
    const profileUrl = `${settings.publicBaseUrl}/console/profile`
    const path = `${unsubscribePath}/:token` as const

    yield* router.add("GET", `${confirmPath}/:token`, (request) =>
      asPage(
        Effect.map(operations.confirmationState(tokenOf(request)), ({ state, email }) =>
          state !== "usable"
            ? pageResponse(confirmAnswers[state])
            : pageResponse(
                simplePage(
                  200,
                  "Confirm your address",
                  html`<p>You signed up to the task marketplace with <strong>${email ?? ""}</strong>. Confirm that this address is yours, so that offers and messages about your tasks reach you.</p>
<form method="post" action="${settings.publicBaseUrl}${confirmPath}/${tokenOf(request)}"><button type="submit">Confirm my address</button></form>
<p>If you did not sign up, close this page: nothing happens unless you confirm.</p>`
                )
              )
        )
      )
    )

    yield* router.add("POST", `${confirmPath}/:token`, (request) =>
      asPage(Effect.map(operations.confirmAddress(tokenOf(request)), (state) => pageResponse(confirmAnswers[state])))
    )

    yield* router.add("GET", path, (request) =>
      asPage(
        Effect.sync(() => {
          const named = operations.readUnsubscribe(tokenOf(request))
          if (named === undefined) return pageResponse(unknown)
          const title = notificationTitles[named.kind]
          return pageResponse(
            simplePage(
              200,
              "Unsubscribe?",
              html`<p>Stop receiving mails of this kind: <strong>${title}</strong>.</p>
<form method="post" action="${settings.publicBaseUrl}${unsubscribePath}/${tokenOf(request)}"><button type="submit">Unsubscribe</button></form>`
            )
          )
        })
      )
    )

    yield* router.add("POST", path, (request) =>
      asPage(
        Effect.map(operations.unsubscribe(tokenOf(request)), (named) =>
          named === undefined
            ? pageResponse(unknown)
            : pageResponse(
                simplePage(
                  200,
                  "Unsubscribed",
                  html`<p>You will no longer receive mails of this kind: <strong>${notificationTitles[named.kind]}</strong>. Mails about your account (invitations, password resets) still come.</p>
<p>Turn it back on in your <a href="${profileUrl}">profile</a>.</p>`
                )
              )
        )
      )
    )
  })
)
