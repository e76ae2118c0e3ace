/**
 * A typed client of the REST API, derived from its HttpApi description (MarketplaceApi): every
 * endpoint is a method taking its declared path, query, header and payload values and answering its
 * declared success, or failing with its declared error (the envelope classes of api/envelope.ts).
 * What a test sends is what the document allows, and what it reads back has been decoded by the
 * schemas the document publishes. Raw `fetch` stays for what no client sends (malformed requests).
 */
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpApiClient from "effect/http-api/HttpApiClient"
import { MarketplaceApi } from "../../src/api/api.ts"

/**
 * The client of the server at `url`; with `token`, every request carries `Authorization: Bearer`
 * (a task token or a participant's access token).
 */
export const apiClient = (server: { readonly url: string }, options: { readonly token?: string } = {}) =>
  Effect.runSync(
    HttpApiClient.make(MarketplaceApi, {
      baseUrl: server.url,
      transformClient:
        options.token === undefined ? undefined : HttpClient.mapRequest(HttpClientRequest.bearerToken(options.token))
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

/** Runs a client call: its success, or a rejection with its typed error. */
export const call = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)

/** Runs a client call expected to fail: its typed error (an envelope class), or a rejection if it succeeded. */
export const refusal = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))

export type ApiClient = ReturnType<typeof apiClient>
