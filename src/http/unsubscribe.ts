/**
 * One-click unsubscribe from a kind of notification (RFC 8058), the address every notification's
 * `List-Unsubscribe` names: `<base>/mail/unsubscribe/<token>` (services/mail_preferences.ts).
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
import { unsubscribePath } from "../services/mail_preferences.ts"

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

export const UnsubscribeRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const settings = yield* AppConfig
    const operations = yield* ParticipantOperations
    const profileUrl = `${settings.publicBaseUrl}/console/profile`
    const path = `${unsubscribePath}/:token` as const

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
