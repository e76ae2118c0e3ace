/**
 * A whole directory indexed for matching (`directoryIndexOf`): postings of each key, who is in
 * each place, the distinct boundaries, and the work space of ranking, worked out once per snapshot
 * of the directory, and the task texts read against it (`queryIn`). Read by the ranking
 * (matching.ts), by what is inferred from a free-text task (task_inference.ts) and by search.
 */
import { cachedPerObject, immutableKey, type VersionedCache, versionedCache } from "../read_cache.ts"
import { confiningPlaces, idfOf, profileWith, queryOf, rememberingReader } from "./matching_rules.ts"
import type { ParticipantRecord } from "./participant.ts"
import { type KnownPlaces, knownPlaces, type Place, placesOfLocation } from "./places.ts"
import { requestLanguageOf } from "./request_language.ts"
import type { ExecutionMode } from "./task_draft/execution_mode.ts"
import type { Term } from "./words.ts"

/**
 * The participants a location confines a task to (see `confiningPlaces`), remembered by location
 * as a task's text is (`queryIn`): reading the location's places was a third of a preflight's
 * ranking, measured in a profile of POST /preflight.
 */
export const participantsIn = (index: DirectoryIndex, location: string): ReadonlySet<number> => {
  let found = index.placed.get(location, immutableKey)
  if (found === undefined) {
    const people = new Set<number>()
    for (const place of confiningPlaces(location, index.known, index.cities)) {
      for (const i of index.places.get(place) ?? []) people.add(i)
    }
    found = people
    index.placed.set(location, immutableKey, found)
  }
  return found
}

/** How many participants, over all the locations remembered, a directory's index keeps (`participantsIn`). */
const rememberedPlacements = 100_000

/** How many task texts a directory's index remembers the terms of. */
const rememberedQueries = 1024

/**
 * `queryOf` over a directory's places, remembered by text: a task's text is read at preflight, at
 * submission and by the dispatcher's offer (and again at every re-match), each time the same
 * words against the same directory. Reading it was a third of a submission's ranking (measured
 * in a profile of POST /tasks). The memory is the index's, so it goes with the directory's
 * snapshot; the text is the whole key (`immutableKey`, src/read_cache.ts).
 */
export const queryIn = (index: DirectoryIndex, text: string): ReadonlyArray<Term> => readIn(index, text).terms

/**
 * The language a task text is written in (`requestLanguageOf`), remembered with its terms: worked
 * out on every ranking, it was half of a preflight's ranking (folding and splitting the text once
 * more), measured in a profile of POST /preflight.
 */
export const languageIn = (index: DirectoryIndex, text: string): string | undefined => readIn(index, text).language

/** A task text as read against a directory, once: its terms and the language it is written in. */
export interface ReadText {
  readonly terms: ReadonlyArray<Term>
  readonly language: string | undefined
}

const readIn = (index: DirectoryIndex, text: string): ReadText => {
  let read = index.texts.get(text, immutableKey)
  if (read === undefined) {
    read = { terms: queryOf(text, index.known), language: requestLanguageOf(text) }
    index.texts.set(text, immutableKey, read)
  }
  return read
}

/** The participants who use one key, each with the weight of its field in their record. */
export interface Posting {
  readonly ids: Int32Array
  readonly weights: Uint8Array
}

/**
 * A whole directory indexed for matching, worked out once per snapshot (its array of records is
 * immutable and reused until the directory changes). Positions are indexes into that array.
 */
export interface DirectoryIndex {
  /** Each participant's discipline keys (shared by records with the same discipline). */
  readonly disciplineOf: ReadonlyArray<ReadonlyArray<string>>
  readonly postings: ReadonlyMap<string, Posting>
  /** A key's weight in this directory (`idfOf`). */
  readonly idf: (key: string) => number
  /** By place: who has it among their location's places. */
  readonly places: ReadonlyMap<Place, ReadonlyArray<number>>
  readonly known: KnownPlaces
  /** Who is in each location asked about, remembered: see `participantsIn`. */
  readonly placed: VersionedCache<string, ReadonlySet<number>>
  /** Task texts as read in this directory, remembered: see `queryIn` and `languageIn`. */
  readonly texts: VersionedCache<string, ReadText>
  /** Places that are some participant's city. */
  readonly cities: ReadonlySet<Place>
  /** By place: the first location (in directory order) whose city it is, and a country as written. */
  readonly locationOfCity: ReadonlyMap<Place, string>
  readonly regionAsWritten: ReadonlyMap<Place, string>
  /** The task types of the directory; each participant's, by its position in `types`. */
  readonly types: ReadonlyArray<ExecutionMode>
  readonly typeOf: Uint8Array
  /** How many participants have each task type, by its code. */
  readonly typeCounts: ReadonlyArray<number>
  readonly bySlug: ReadonlyMap<string, number>
  /**
   * Work space of `rankTop`, all zero between calls: a call runs to its end on this thread, so
   * one per directory serves every call.
   */
  readonly scratch: {
    readonly points: Float64Array
    /** The evidence summed so far (`plausibleEvidence`); at most 64 terms of weight 3 fit a byte. */
    readonly evidence: Uint8Array
    /** 1 when a participant's work has a kind of work the task names (`isPlausible`). */
    readonly doesWork: Uint8Array
    readonly inPlace: Uint8Array
    /** 1 + a participant's discipline coverage once worked out in this call, else 0. */
    readonly coverageAt: Float64Array
  }
  /** Each participant's position in slug order (ties fall to it last). */
  readonly rank: Int32Array
  /**
   * The directory's distinct exclusions (see `Profile`), and each participant's position in them,
   * -1 for none: records repeat, so a task asks each distinct boundary once.
   */
  readonly boundaries: ReadonlyArray<ReadonlyArray<ReadonlyArray<string>>>
  readonly boundaryOf: Int32Array
}

export const directoryIndexOf = cachedPerObject((everyone: ReadonlyArray<ParticipantRecord>): DirectoryIndex => {
  const n = everyone.length
  const read = rememberingReader()
  const weights = new Map<string, number>()
  const lists = new Map<string, { ids: Array<number>; weights: Array<number> }>()
  const places = new Map<Place, Array<number>>()
  const cities = new Set<Place>()
  const locationOfCity = new Map<Place, string>()
  const regionAsWritten = new Map<Place, string>()
  const types: Array<ExecutionMode> = []
  const typeOf = new Uint8Array(n)
  const typeCounts: Array<number> = []
  const bySlug = new Map<string, number>()
  const disciplineOf: Array<ReadonlyArray<string>> = []
  const boundaries: Array<ReadonlyArray<ReadonlyArray<string>>> = []
  const boundaryAt = new Map<string, number>()
  const boundaryOf = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const participant = everyone[i]!
    const profile = profileWith(participant, read, weights)
    // Kept: the discipline's keys (one array per distinct discipline) and where the boundary's
    // exclusions are; the profile itself is let go (a profile per record took too much memory).
    disciplineOf.push(profile.discipline)
    if (profile.exclusions.length === 0) boundaryOf[i] = -1
    else {
      const text = JSON.stringify(profile.exclusions)
      let at = boundaryAt.get(text)
      if (at === undefined) {
        at = boundaries.push(profile.exclusions) - 1
        boundaryAt.set(text, at)
      }
      boundaryOf[i] = at
    }
    for (const [key, weight] of profile.weights) {
      const list = lists.get(key)
      if (list === undefined) lists.set(key, { ids: [i], weights: [weight] })
      else {
        list.ids.push(i)
        list.weights.push(weight)
      }
    }
    // A set: a city and its country can be the same place (Singapore, Singapore).
    for (const place of new Set(profile.places)) {
      const list = places.get(place)
      if (list === undefined) places.set(place, [i])
      else list.push(i)
    }
    const city = profile.places[0]
    if (city !== undefined) {
      cities.add(city)
      if (!locationOfCity.has(city)) locationOfCity.set(city, participant.location.trim())
    }
    for (const region of participant.location.split(",").slice(1)) {
      const place = placesOfLocation(region)[0]
      if (place !== undefined && !regionAsWritten.has(place)) regionAsWritten.set(place, region.trim())
    }
    let code = types.indexOf(participant.task_type)
    if (code < 0) code = types.push(participant.task_type) - 1
    typeOf[i] = code
    typeCounts[code] = (typeCounts[code] ?? 0) + 1
    bySlug.set(participant.slug, i)
  }
  const order = Int32Array.from(everyone.keys()).sort((a, b) =>
    everyone[a]!.slug < everyone[b]!.slug ? -1 : everyone[a]!.slug > everyone[b]!.slug ? 1 : 0
  )
  const rank = new Int32Array(n)
  order.forEach((i, r) => {
    rank[i] = r
  })
  const postings = new Map<string, Posting>()
  const idfs = new Map<string, number>()
  for (const [key, { ids, weights }] of lists) {
    postings.set(key, { ids: Int32Array.from(ids), weights: Uint8Array.from(weights) })
    idfs.set(key, idfOf(n, ids.length))
  }
  return {
    disciplineOf,
    postings,
    idf: (key) => idfs.get(key) ?? idfOf(n, 0),
    places,
    known: knownPlaces(places.keys()),
    texts: versionedCache({ budget: rememberedQueries }),
    placed: versionedCache({ budget: rememberedPlacements, weightOf: (found) => 1 + found.size }),
    cities,
    locationOfCity,
    regionAsWritten,
    types,
    typeOf,
    typeCounts,
    bySlug,
    scratch: {
      points: new Float64Array(n),
      evidence: new Uint8Array(n),
      doesWork: new Uint8Array(n),
      inPlace: new Uint8Array(n),
      coverageAt: new Float64Array(n)
    },
    rank,
    boundaries,
    boundaryOf
  }
})

// Inferring a task from free text -----------------------------------------------------------------
