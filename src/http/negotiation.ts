/**
 * Content negotiation for the few plain routes: which media type `GET /` answers with (`Accept`),
 * and compressed copies of the large static documents (`Accept-Encoding`). API endpoints do not
 * negotiate: they are always identity-encoded JSON, and nothing here runs on their path.
 */
import { brotliCompress, constants, gzip } from "node:zlib"
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { quality } from "../pages/accept.ts"

type Encoding = "br" | "gzip"

/** The encoding to send: br, else gzip, as the client accepts them (`*` covers both), else none. */
export const preferredEncoding = (acceptEncoding: string | undefined): Encoding | undefined => {
  if (acceptEncoding === undefined) return undefined
  const br = quality(acceptEncoding, "br", ["*"])
  const gz = quality(acceptEncoding, "gzip", ["x-gzip", "*"])
  if (br > 0 && br >= gz) return "br"
  return gz > 0 ? "gzip" : undefined
}

/** Bodies under this size are sent as they are: compressing them saves less than it costs. */
const minimumCompressedBytes = 1024

const compressors: Record<Encoding, (body: Uint8Array) => Promise<Uint8Array>> = {
  gzip: (body) =>
    new Promise((resolve, reject) => gzip(body, { level: 9 }, (e, out) => (e ? reject(e) : resolve(out)))),
  // Quality 9, not Brotli's default 11: a fifth of the size of the 3 MB docs page in ~0.4 s, where
  // 11 takes ~5 s for another tenth (measured). Either way it runs once, off the event loop.
  br: (body) =>
    new Promise((resolve, reject) =>
      brotliCompress(
        body,
        { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } },
        (e, out) => (e ? reject(e) : resolve(out))
      )
    )
}

/** A promise kept for reuse, forgotten if it fails (so that the next request tries again). */
const memo = <A>(make: () => Promise<A>) => {
  let kept: Promise<A> | undefined
  return () => {
    kept ??= make().catch((cause) => {
      kept = undefined
      throw cause
    })
    return kept
  }
}

/** A static document's text, and the headers that go with it (a page's policy, made from its text). */
export interface StaticText {
  readonly text: string
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * A static document (the same bytes for every request in this process) served in the encoding the
 * client accepts. `load` makes the body (and its headers) on the first request; each encoding is
 * compressed once, on the first request that asks for it (in zlib's thread pool, off the event
 * loop), and kept. Every answer says `Vary: Accept-Encoding`, so that a cache keeps the copies apart.
 */
export const staticDocument = (contentType: string, load: () => Promise<StaticText>) => {
  const loaded = memo(() =>
    load().then(({ text, headers = {} }) => ({ body: new TextEncoder().encode(text), headers }))
  )
  const plain = () => loaded().then(({ body }) => body)
  const encoded = {
    br: memo(() => plain().then(compressors.br)),
    gzip: memo(() => plain().then(compressors.gzip))
  }
  const respond = async (encoding: Encoding | undefined) => {
    const { body, headers } = await loaded()
    if (encoding === undefined || body.length < minimumCompressedBytes) {
      return HttpServerResponse.uint8Array(body, { contentType, headers: { ...headers, vary: "accept-encoding" } })
    }
    return HttpServerResponse.uint8Array(await encoded[encoding](), {
      contentType,
      headers: { ...headers, vary: "accept-encoding", "content-encoding": encoding }
    })
  }
  return (request: HttpServerRequest.HttpServerRequest) =>
    Effect.promise(() => respond(preferredEncoding(request.headers["accept-encoding"])))
}
