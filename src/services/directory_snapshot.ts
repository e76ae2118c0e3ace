/**
 * The participant directory in memory: every participant as of a version of the directory, in
 * slug order, with their search texts joined into one string, so that matching reads it without a
 * statement and a listing is a substring search of that string (the LIKE of the SQL paths: both
 * sides are lower-cased already), its pages kept for the next identical request.
 */
import type { ParticipantRecord } from "../domain/participant.ts"
import { type VersionedCache, versionedCache } from "../read_cache.ts"

export interface ParticipantPage {
  readonly data: ReadonlyArray<ParticipantRecord>
  /** Slug to continue after, when another page follows. */
  readonly nextAfter: string | undefined
}

export interface Snapshot {
  readonly version: number
  /** Pages listed from this snapshot, kept for the next identical request (see `keptPage`). */
  readonly pages: VersionedCache<string, ParticipantPage>
  /** In slug order. */
  readonly everyone: ReadonlyArray<ParticipantRecord>
  /**
   * The stored `search_text` of everyone, in the same order, joined by NUL (which no q contains,
   * so no match spans two participants): one string searched natively, eight times faster than
   * testing 100,000 strings one by one.
   */
  readonly haystack: string
  /** Where each participant's text starts in `haystack`; one more entry, past the end. */
  readonly starts: ReadonlyArray<number>
  /** How often each UTF-16 code unit occurs in `haystack`. */
  readonly frequency: Uint32Array
}

/**
 * What a snapshot keeps at most, in records over all its pages plus one per page: about 3 MB of
 * public JSON where the HTTP adapter keeps each page's encoding beside it, and no more than 5,000
 * pages however many distinct queries match nothing.
 */
const keptWeightPerSnapshot = 5000

export const makeSnapshot = (
  version: number,
  rows: ReadonlyArray<ParticipantRecord & { readonly search_text: string }>
): Snapshot => {
  const starts: Array<number> = []
  let at = 0
  for (const row of rows) {
    starts.push(at)
    at += row.search_text.length + 1
  }
  starts.push(at)
  const haystack = rows.map((row) => row.search_text).join("\u0000")
  const frequency = new Uint32Array(65536)
  for (let i = 0; i < haystack.length; i++) frequency[haystack.charCodeAt(i)]!++
  return {
    version,
    // Weighed in records, plus one per page (so pages that list nobody count too).
    pages: versionedCache({ budget: keptWeightPerSnapshot, weightOf: (page) => page.data.length + 1 }),
    everyone: rows.map(({ search_text, ...record }) => record),
    haystack,
    starts,
    frequency
  }
}

/** The first `limit` of `records` (one more was read, to tell whether another page follows). */
export const pageFrom = (records: ReadonlyArray<ParticipantRecord>, limit: number): ParticipantPage => {
  const data = records.slice(0, limit)
  return { data, nextAfter: records.length > limit ? data[data.length - 1]?.slug : undefined }
}

/**
 * A listing whose query and cursor are longer than this together is answered without keeping its
 * page: discovery queries are a few words, and the keys of 5,000 kept pages stay small however
 * long a URL a client sends.
 */
const keptQueryLength = 200

/**
 * A page listed from the snapshot, the same object for the same (q, after, limit) until the
 * directory changes. Agents repeat their discovery queries; a repeated one then costs no search
 * and, in the HTTP adapter, which keeps each page's encoded body by the page object, no new body.
 * Kept at the snapshot's version: the directory's, which the directory reads fresh (or finds under
 * an unmoved commit mark) for every request before handing out this snapshot; a change makes a new
 * snapshot, with nothing kept.
 */
export const keptPage = (snap: Snapshot, q: string, after: string | undefined, limit: number): ParticipantPage => {
  // Unambiguous: the limit is digits, and a q that can match anything holds no NUL
  // (`canMatchAnything`). No cursor and an empty one list the same page.
  const key = q.length + (after?.length ?? 0) > keptQueryLength ? undefined : `${limit}:${after ?? ""}\u0000${q}`
  if (key === undefined) return pageFrom(pageOf(snap, q, after, limit + 1), limit)
  let page = snap.pages.get(key, snap.version)
  if (page === undefined) {
    page = pageFrom(pageOf(snap, q, after, limit + 1), limit)
    snap.pages.set(key, snap.version, page)
  }
  return page
}

/**
 * Where `q` next occurs in the snapshot's haystack at or after `from`, or -1. Searched from its
 * rarest character on (then the part before it checked in place): `indexOf` skips ahead fast to a
 * rare first character but tries every occurrence of a common one — "okafor" over 100,000
 * participants took 7 ms from its "o", under 2 ms from its "k".
 */
const indexOf = (snap: Snapshot, q: string, from: number) => {
  const { haystack, frequency } = snap
  let anchor = 0
  for (let k = 1; k < q.length; k++) if (frequency[q.charCodeAt(k)]! < frequency[q.charCodeAt(anchor)]!) anchor = k
  const head = q.slice(0, anchor)
  const tail = q.slice(anchor)
  for (let at = haystack.indexOf(tail, from + anchor); at >= 0; at = haystack.indexOf(tail, at + 1)) {
    if (haystack.startsWith(head, at - anchor)) return at - anchor
  }
  return -1
}

/** The first index in sorted `xs` whose value `above` says is past the point sought. */
const bisect = <A>(xs: ReadonlyArray<A>, above: (x: A) => boolean) => {
  let low = 0
  let high = xs.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (above(xs[mid]!)) high = mid
    else low = mid + 1
  }
  return low
}

/**
 * The first `n` participants of the snapshot after `after` whose search text contains `q` (all of
 * them for an empty q): the LIKE of the SQL paths, since both sides are lower-cased already.
 */
const pageOf = (snap: Snapshot, q: string, after: string | undefined, n: number) => {
  const { everyone, starts } = snap
  // Slug order is string order here (see `fromMemory`).
  const first = after === undefined ? 0 : bisect(everyone, (p) => p.slug > after)
  if (q === "") return everyone.slice(first, first + n)
  const page: Array<ParticipantRecord> = []
  let from = starts[first]!
  while (page.length < n) {
    const at = indexOf(snap, q, from)
    if (at < 0) break
    const i = bisect(starts, (start) => start > at) - 1
    page.push(everyone[i]!)
    from = starts[i + 1]!
  }
  return page
}
