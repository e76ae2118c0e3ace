/**
 * A typed client of the REST API, derived from its HttpApi description (MarketplaceApi): every
 * endpoint is a method taking its declared path, query, header and payload values and answering its
 * declared success, or failing with its declared error (the envelope classes of api/envelope.ts).
 * What a test sends is what the document allows, and what it reads back has been decoded by the
 * schemas the document publishes. Raw `fetch` stays for what no client sends (malformed requests)
 * and for tests whose subject is the wire itself (docs/testing.md, "The typed client").
 */
import { isDeepStrictEqual } from "node:util"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as HttpApiClient from "effect/http-api/HttpApiClient"
import * as Schema from "effect/Schema"
import { MarketplaceApi } from "../../src/api/api.ts"
import { isEnvelopeError } from "../../src/api/envelope.ts"
import { type Answer, answerOf } from "./process.ts"

export interface ClientOptions {
  /** Sent as `Authorization: Bearer` on every request (a task token or a participant's access token). */
  readonly token?: string | undefined
  /** Headers set on every request besides those the endpoints declare (a User-Agent, say). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Called with each response the client receives, before it is decoded. */
  readonly onResponse?: ((response: HttpClientResponse.HttpClientResponse) => void) | undefined
}

/** The client of the server at `url`. */
export const apiClient = (server: { readonly url: string }, options: ClientOptions = {}) => {
  const { token, headers, onResponse } = options
  return Effect.runSync(
    HttpApiClient.make(MarketplaceApi, {
      baseUrl: server.url,
      transformClient: (client) => {
        // No traceparent or b3 of the client's own span: a test sends what an ordinary client
        // sends, and a sampled parent would have the service trace every request.
        const untraced = HttpClient.transform(client, (effect) =>
          Effect.provideService(effect, HttpClient.TracerPropagationEnabled, false)
        )
        const withHeaders =
          headers === undefined ? untraced : HttpClient.mapRequest(untraced, HttpClientRequest.setHeaders(headers))
        const authorized =
          token === undefined ? withHeaders : HttpClient.mapRequest(withHeaders, HttpClientRequest.bearerToken(token))
        return onResponse === undefined
          ? authorized
          : HttpClient.tap(authorized, (response) => Effect.sync(() => onResponse(response)))
      }
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )
}

/** Runs a client call: its success, or a rejection with its typed error. */
export const call = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)

/** Runs a client call expected to fail: its typed error (an envelope class), or a rejection if it succeeded. */
export const refusal = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))

export type ApiClient = ReturnType<typeof apiClient>

/**
 * One call through the typed client, answered as the `Response` it came in, for a test's
 * assertions on status, headers and exact body (expectEnvelope, byte and ETag comparisons).
 * The request was encoded by the endpoint's schemas and the answer decoded by them: a success
 * by its success schema, a refusal by the envelope class of its status declared for the
 * endpoint. An answer the description does not declare (a status it lists for no schema, a body
 * its schema refuses) is not handed back: the call rejects, naming it.
 */
export const exchange = async <A, E>(
  server: { readonly url: string },
  run: (client: ApiClient) => Effect.Effect<A, E>,
  options: Omit<ClientOptions, "onResponse"> = {}
): Promise<Response> => {
  let last: HttpClientResponse.HttpClientResponse | undefined
  const client = apiClient(server, {
    ...options,
    onResponse: (response) => {
      last = response
    }
  })
  const exit = await Effect.runPromise(Effect.exit(run(client)))
  const answered = last as HttpClientResponse.HttpClientResponse | undefined
  const text =
    answered === undefined ? undefined : await Effect.runPromise(Effect.orElseSucceed(answered.text, () => ""))
  if (Exit.isFailure(exit)) {
    const error = Cause.squash(exit.cause)
    if (!isEnvelopeError(error)) {
      const seen = answered === undefined ? "no answer" : `${answered.status}: ${text?.slice(0, 500)}`
      throw new Error(`the typed client failed (${seen}): ${String(error)}`)
    }
  }
  if (answered === undefined) throw new Error("the typed client received no answer")
  const empty = answered.status === 204 || answered.status === 304
  return new Response(empty ? null : text, { status: answered.status, headers: answered.headers })
}

/** `exchange`, read whole as process.ts's `call` answers: status, headers, text and parsed JSON. */
export const typedCall = async <A, E>(
  server: { readonly url: string },
  run: (client: ApiClient) => Effect.Effect<A, E>,
  options: Omit<ClientOptions, "onResponse"> = {}
): Promise<Answer> => answerOf(await exchange(server, run, options))

/**
 * A payload written as JSON (a draft, a result), as the typed client takes it: decoded by the
 * endpoint's own schema, so a value the document refuses fails here, before anything is sent.
 * The client encodes it back; a value that would not be sent exactly as written (blanks trimmed,
 * a letter case folded, an unknown member dropped) fails too: what such a test sends is a wire
 * form, for raw `fetch`.
 */
export const asPayload = <S extends Schema.Codec<unknown, unknown>>(schema: S, value: unknown): S["Type"] => {
  // As JSON carries it: a member set to undefined is no member.
  const written: unknown = JSON.parse(JSON.stringify(value))
  const decoded = Schema.decodeUnknownSync(schema)(written)
  const sent = Schema.encodeSync(schema)(decoded)
  if (!isDeepStrictEqual(sent, written)) {
    throw new Error(`the typed client would send ${JSON.stringify(sent)}, not ${JSON.stringify(written)}: send it raw`)
  }
  return decoded
}

/** An object as JSON carries it (a member set to undefined is no member): for preflight's any-object body. */
export const asJsonObject = (value: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(value))
