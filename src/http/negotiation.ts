/**
 * Content negotiation for the few plain routes: which media type `GET /` answers with (`Accept`),
 * and compressed copies of the large static documents (`Accept-Encoding`). API endpoints do not
 * negotiate: they are always identity-encoded JSON, and nothing here runs on their path.
 */
import { brotliCompress, constants, gzip } from "node:zlib"
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

/**
 * The quality a header (`Accept`, `Accept-Encoding`) gives a value: that of the most specific entry
 * matching it — `value` itself, else each of `wildcards` in turn (for `text/html`: `text/*`, then
 * the any-type wildcard) — 1 when the entry names no `q`, and 0 when no entry matches.
 */
export const quality = (header: string, value: string, wildcards: ReadonlyArray<string>): number => {
  const entries = new Map<string, number>()
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase())
    if (name === "") continue
    const q = params.find((p) => p.startsWith("q="))
    const parsed = q === undefined ? 1 : Number(q.slice(2))
    entries.set(name, Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0)
  }
  for (const name of [value, ...wildcards]) {
    const q = entries.get(name)
    if (q !== undefined) return q
  }
  return 0
}

const mediaQuality = (accept: string, type: string) => quality(accept, type, [`${type.split("/")[0]}/*`, "*/*"])

/**
 * Whether a client asks for HTML rather than JSON: only when it rates `text/html` strictly above
 * `application/json`. A browser does (it names `text/html`, and gives any other type q=0.8); curl's
 * any-type wildcard, a missing header and an agent's `application/json` do not: a tie goes to
 * JSON, the API's own language.
 */
export const prefersHtml = (accept: string | undefined) =>
  accept !== undefined && mediaQuality(accept, "text/html") > mediaQuality(accept, "application/json")

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

/**
 * A static document (the same bytes for every request in this process) served in the encoding the
 * client accepts. `load` makes the body on the first request; each encoding is compressed once, on
 * the first request that asks for it (in zlib's thread pool, off the event loop), and kept. Every
 * answer says `Vary: Accept-Encoding`, so that a cache keeps the copies apart.
 */
export const staticDocument = (contentType: string, load: () => Promise<string>) => {
  const plain = memo(() => load().then((text) => new TextEncoder().encode(text)))
  const encoded = {
    br: memo(() => plain().then(compressors.br)),
    gzip: memo(() => plain().then(compressors.gzip))
  }
  const respond = async (encoding: Encoding | undefined) => {
    const body = await plain()
    if (encoding === undefined || body.length < minimumCompressedBytes) {
      return HttpServerResponse.uint8Array(body, { contentType, headers: { vary: "accept-encoding" } })
    }
    return HttpServerResponse.uint8Array(await encoded[encoding](), {
      contentType,
      headers: { vary: "accept-encoding", "content-encoding": encoding }
    })
  }
  return (request: HttpServerRequest.HttpServerRequest) =>
    Effect.promise(() => respond(preferredEncoding(request.headers["accept-encoding"])))
}
