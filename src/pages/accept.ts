/**
 * What a client's `Accept` and `Accept-Encoding` headers ask for: shared by the HTTP adapter (which
 * answers `/` with the docs page or the service index) and the pages (a page for a browser, JSON
 * for any other client).
 */

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
