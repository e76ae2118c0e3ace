/**
 * Sending pages: a rendered page as a response, and every failure of a page's handler as a page a
 * person can read — a database that did not answer (503, try again), a form past its size limit
 * (413), anything else a 500 whose cause is logged, never shown. The authorization server's pages
 * and the console's share this; each brings its own words.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Option from "effect/Option"
import type { Html } from "./html.ts"
import { htmlContentType, pageHeaders } from "./layout.ts"

/** A rendered page and the status the caller should send it with. */
export interface RenderedPage {
  readonly status: number
  readonly html: Html
}

/**
 * A rendered page as the response that sends it, with every page's headers (or `headers`, built by
 * `pageHeaders`). The body's media type is what the server sends, whatever `headers` say: it names
 * the charset too.
 */
export const pageResponse = (rendered: RenderedPage, headers: Record<string, string> = pageHeaders()) =>
  HttpServerResponse.text(String(rendered.html), { status: rendered.status, headers, contentType: htmlContentType })

export interface FailurePages {
  /** The database did not answer (sent with Retry-After). */
  readonly unavailable: RenderedPage
  /** A form body past its limit. */
  readonly tooLarge: RenderedPage
  /** Anything else. */
  readonly serverError: RenderedPage
}

/** `effect`, with every failure answered by one of `pages`; `what` names the page in the log. */
export const asPage =
  (pages: FailurePages, what: string) =>
  <E>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E>) =>
    Effect.catchCause(effect, (cause) => {
      if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
      const failure = Option.getOrUndefined(Cause.findErrorOption(cause)) as
        | { readonly _tag?: string; readonly reason?: { readonly _tag?: string; readonly reason?: string } }
        | undefined
      if (failure?._tag === "StorageUnavailable") {
        return Effect.succeed(pageResponse(pages.unavailable, { ...pageHeaders(), "retry-after": "5" }))
      }
      if (failure?._tag === "HttpServerError" && failure.reason?.reason === "BodyTooLarge") {
        return Effect.succeed(pageResponse(pages.tooLarge))
      }
      return Effect.as(
        Effect.logError(`${what} failed`).pipe(Effect.annotateLogs({ cause: Cause.pretty(cause) })),
        pageResponse(pages.serverError)
      )
    })
