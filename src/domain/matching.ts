/**
 * Lexical matching of tasks to participants: which participants can serve a task (execution mode,
 * location) and how relevant each is to its text. Pure: no external model, no I/O. Used by preflight
 * feasibility, POST /search, and (later) the matcher that offers tasks.
 */
import type { ParticipantRecord } from "./participant.ts"
import { perObject } from "./per_object.ts"
import type { ExecutionMode } from "./task_draft.ts"

/**
 * Participant task types that can serve a task of each mode. A hybrid participant works both on
 * site and online, so serves every mode; a physical participant can do a hybrid task's on-site
 * part and report online.
 */
export const servingTypes: Record<ExecutionMode, ReadonlyArray<ExecutionMode>> = {
  digital: ["digital", "hybrid"],
  physical: ["physical", "hybrid"],
  hybrid: ["hybrid", "physical"]
}

const stopWords = new Set(
  (
    "a an and any are as at be by can for from get has have i in into is it its me my need of on or our please " +
    "some someone somebody that the their them then this to up us we who will with would you your want task person human " +
    "people hire find able should must one two"
  ).split(" ")
)

/** Lower-cased word tokens of a text, without stop words, each at least 2 characters. */
export const terms = (text: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length >= 2 && !stopWords.has(word) && !out.includes(word)) out.push(word)
    if (out.length >= 64) break
  }
  return out
}

/**
 * The place names of a "City, Country" location, lower-cased, as the words a location text must
 * contain: each between spaces, as it appears in a text normalised by `locationMatcher`.
 */
const placesOf = (location: string): ReadonlyArray<string> =>
  location
    .toLowerCase()
    .split(",")
    .filter((s) => s.trim().length > 1)
    .map((place) => place.replace(/[^\p{L}\p{N}]+/gu, " ").trim())
    .filter((place) => place !== "")
    .map((place) => ` ${place} `)

/**
 * Whether a participant's city or country appears in `taskLocation` (word-bounded): the task's
 * text is normalised once, so a matcher can be applied to every candidate cheaply.
 */
const locationMatcher = (taskLocation: string) => {
  const haystack = ` ${taskLocation.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ")} `
  return (places: ReadonlyArray<string>) => {
    for (const place of places) if (haystack.includes(place)) return true
    return false
  }
}

/** A participant's place names, worked out once per record (records are immutable and reused). */
const placesOfParticipant = perObject((participant: ParticipantRecord) => placesOf(participant.location))

export interface Relevance {
  readonly score: number
  readonly matched: ReadonlyArray<string>
}

/**
 * How well a participant's fields match the terms: discipline and tags weigh most, then
 * capabilities and returns, then name and location. Prefix matches count (photo → photography):
 * a term and a word match when they are equal, or when both have at least 4 characters and one
 * starts with the other. Each term counts once, at the weight of its best-weighted match.
 */
export const relevance = (participant: ParticipantRecord, queryTerms: ReadonlyArray<string>): Relevance => {
  const { score, matched } = scored(participant, queryOf(queryTerms))
  return { score, matched }
}

/** A query's term with the bucket it looks in (see `wordIndexOf`), worked out once per query. */
interface QueryTerm {
  readonly term: string
  readonly long: boolean
  readonly key: string
}

const queryOf = (queryTerms: ReadonlyArray<string>): ReadonlyArray<QueryTerm> =>
  queryTerms.map((term) => ({ term, long: term.length >= 4, key: bucketOf(term) }))

const scored = (participant: ParticipantRecord, query: ReadonlyArray<QueryTerm>): RankedParticipant => {
  const index = wordIndexOf(participant)
  let score = 0
  const matched: Array<string> = []
  for (const { term, long, key } of query) {
    const bucket = index.get(key)
    if (bucket === undefined) continue
    let best = 0
    for (const { word, weight } of bucket) {
      if (weight > best && (word === term || (long && (word.startsWith(term) || term.startsWith(word))))) best = weight
    }
    if (best > 0) {
      score += best
      matched.push(term)
    }
  }
  return { participant, score, matched }
}

interface WeightedWord {
  readonly word: string
  readonly weight: number
}

/**
 * A participant's words, each at its highest weight, by where a matching term must start: words
 * of 4 characters or more under their first 4 (every term that matches them starts so), shorter
 * ones under themselves (only an equal term matches them). A term then checks one bucket, not
 * every word: worked out once per record (records are immutable and reused).
 */
const wordIndexOf = perObject((participant: ParticipantRecord): ReadonlyMap<string, ReadonlyArray<WeightedWord>> => {
  const index = new Map<string, Array<WeightedWord>>()
  for (const [word, weight] of wordWeightsOf(participant)) appendTo(index, bucketOf(word), { word, weight })
  return index
})

/** Adds `value` to the list `map` keeps under `key`. */
const appendTo = <K, V>(map: Map<K, Array<V>>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/** Where a word or term is looked up: its first 4 characters, or itself when shorter. */
const bucketOf = (word: string) => (word.length >= 4 ? word.slice(0, 4) : word)

/** A participant's words, each at its highest weight: discipline and tags 3, capabilities 2, the rest 1. */
const wordWeightsOf = (
  participant: ParticipantRecord,
  termsOf: (text: string) => ReadonlyArray<string> = terms
): ReadonlyMap<string, number> => {
  const weights = new Map<string, number>()
  const add = (weight: number, texts: ReadonlyArray<string>) => {
    for (const text of texts) {
      for (const word of termsOf(text)) if ((weights.get(word) ?? 0) < weight) weights.set(word, weight)
    }
  }
  add(3, [participant.discipline, ...participant.tags])
  add(2, participant.capabilities)
  add(1, [participant.returns, participant.name, participant.location])
  return weights
}

export interface TaskProfile {
  /** Undefined when the task's mode is unknown: every participant's type may serve it. */
  readonly executionMode: ExecutionMode | undefined
  readonly location?: string | undefined
  readonly text: string
  readonly participantSlug?: string | undefined
}

export interface RankedParticipant {
  readonly participant: ParticipantRecord
  readonly score: number
  readonly matched: ReadonlyArray<string>
}

/**
 * Participants that can serve the task, best first (score, then slug for a stable order): the
 * definition, over any list of candidates. `rankTop` gives the same answer for a whole directory
 * without scoring everyone.
 */
export const rankEligible = (
  task: TaskProfile,
  candidates: ReadonlyArray<ParticipantRecord>
): ReadonlyArray<RankedParticipant> => {
  const serving = task.executionMode === undefined ? undefined : servingTypes[task.executionMode]
  const location = placeFilterOf(task)
  const inPlace = location === undefined ? undefined : locationMatcher(location)
  const query = queryOf(terms(task.text))
  return candidates
    .filter(
      (p) =>
        (task.participantSlug === undefined || p.slug === task.participantSlug) &&
        (serving === undefined || serving.includes(p.task_type)) &&
        (inPlace === undefined || inPlace(placesOfParticipant(p)))
    )
    .map((participant) => scored(participant, query))
    .sort((a, b) => b.score - a.score || (a.participant.slug < b.participant.slug ? -1 : 1))
}

/** The location a task's candidates must be in, if any: a digital task has none. */
const placeFilterOf = (task: TaskProfile): string | undefined =>
  task.executionMode !== "digital" ? task.location : undefined

export interface Ranking {
  /** How many participants can serve the task. */
  readonly eligible: number
  /** The first `limit` of them as `rankEligible` orders them. */
  readonly best: ReadonlyArray<RankedParticipant>
}

export interface RankOptions {
  readonly limit: number
  /** Only participants whose relevance is above 0 (search); otherwise the order fills up by slug. */
  readonly scoredOnly?: boolean | undefined
  /** Slugs that are not candidates (participants who passed the task over). */
  readonly excluding?: ReadonlyArray<string> | undefined
}

/**
 * The best `limit` participants of a whole directory for a task, and how many are eligible:
 * exactly `rankEligible` over the directory (less `excluding`), cut to `limit`. Only participants
 * that share a word bucket with the task's terms are scored, through the directory's inverted
 * index (`directoryIndexOf`); everyone else scores 0 and follows in slug order, so a task costs
 * what its terms and its place match, not the size of the directory.
 */
export const rankTop = (
  task: TaskProfile,
  everyone: ReadonlyArray<ParticipantRecord>,
  options: RankOptions
): Ranking => {
  const excluded = new Set(options.excluding ?? [])
  const index = directoryIndexOf(everyone)
  const query = queryOf(terms(task.text))
  const keep = (ranked: ReadonlyArray<RankedParticipant>): Ranking => ({
    eligible: ranked.length,
    best: (options.scoredOnly ? ranked.filter((r) => r.score > 0) : ranked).slice(0, options.limit)
  })
  if (task.participantSlug !== undefined) {
    const at = index.bySlug.get(task.participantSlug)
    const named = at === undefined || excluded.has(task.participantSlug) ? [] : [everyone[at]!]
    return keep(rankEligible(task, named))
  }
  const serving = task.executionMode === undefined ? undefined : servingTypes[task.executionMode]
  const { score, best, seen, inPlace } = index.scratch
  // Whether each task type (by its code in the index) can serve the task.
  const serves = index.types.map((type) => (serving === undefined || serving.includes(type) ? 1 : 0))
  const location = placeFilterOf(task)
  // Who is in the task's place: the participants of every place the location names.
  const placed = location === undefined ? undefined : participantsIn(index, location)
  if (placed !== undefined) for (const i of placed) inPlace[i] = 1
  const scoredIds: Array<number> = []
  try {
    const isEligible = (i: number) =>
      serves[index.typeOf[i]!] === 1 &&
      (placed === undefined || inPlace[i] === 1) &&
      (excluded.size === 0 || !excluded.has(everyone[i]!.slug))

    // Scores through the inverted index: per term, each participant's best weight over the
    // matching words of the term's bucket, summed over terms. `seen` tells whether `best` holds
    // this term's weight for a participant yet (a mark per term, never reused).
    for (const { term, long, key } of query) {
      const mark = nextMark(index.scratch)
      for (const { word, ids, weights } of index.words.get(key) ?? []) {
        if (!(word === term || (long && (word.startsWith(term) || term.startsWith(word))))) continue
        for (let k = 0; k < ids.length; k++) {
          const i = ids[k]!
          // Who cannot serve the task is not scored (exclusions, few, are left to the selection).
          // `isEligible`'s first two tests, spelled out: through a closure this loop ran ~25% slower.
          if (serves[index.typeOf[i]!] === 0 || (placed !== undefined && inPlace[i] === 0)) continue
          const weight = weights[k]!
          if (seen[i] !== mark) {
            seen[i] = mark
            best[i] = weight
            if (score[i] === 0) scoredIds.push(i)
            score[i] = score[i]! + weight
          } else if (weight > best[i]!) {
            score[i] = score[i]! + weight - best[i]!
            best[i] = weight
          }
        }
      }
    }

    // The best scored, by score and then slug, kept in order as they are found.
    const before = (a: number, b: number) =>
      score[a]! > score[b]! || (score[a] === score[b] && index.rank[a]! < index.rank[b]!)
    const top: Array<number> = []
    for (const i of scoredIds) {
      if (!isEligible(i)) continue
      if (top.length === options.limit && !before(i, top[top.length - 1]!)) continue
      let lo = 0
      let hi = top.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (before(top[mid]!, i)) lo = mid + 1
        else hi = mid
      }
      top.splice(lo, 0, i)
      if (top.length > options.limit) top.pop()
    }
    // Then, unless only scored participants are asked for, those scoring 0, by slug.
    if (!options.scoredOnly && top.length < options.limit) {
      const bySlug = placed === undefined ? index.order : [...placed].sort((a, b) => index.rank[a]! - index.rank[b]!)
      for (const i of bySlug) {
        if (top.length === options.limit) break
        if (score[i] === 0 && isEligible(i)) top.push(i)
      }
    }

    let eligible = 0
    if (placed !== undefined) {
      for (const i of placed) if (isEligible(i)) eligible++
    } else {
      index.typeCounts.forEach((count, code) => {
        eligible += serves[code]! * count
      })
      for (const slug of excluded) {
        const at = index.bySlug.get(slug)
        if (at !== undefined && serves[index.typeOf[at]!] === 1) eligible--
      }
    }
    return { eligible, best: top.map((i) => scored(everyone[i]!, query)) }
  } finally {
    for (const i of scoredIds) score[i] = 0
    if (placed !== undefined) for (const i of placed) inPlace[i] = 0
  }
}

/** The participants of every place a location names (a place is named when its words appear in a row). */
const participantsIn = (index: DirectoryIndex, location: string): ReadonlySet<number> => {
  const found = new Set<number>()
  forEachPlaceIn(location, index.placeStarts, (place) => {
    for (const i of index.places.get(place) ?? []) found.add(i)
  })
  return found
}

/**
 * Every run of consecutive words of a text that may be a place, space-padded as `placesOf` gives
 * a place: a place appears in the text (as `locationMatcher` tells) exactly when it is one of
 * these. A run grows only while some place starts with it (`starts`), so a text costs about its
 * number of words, whatever the places are.
 */
const forEachPlaceIn = (text: string, starts: ReadonlySet<string>, f: (place: string) => void) => {
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .split(" ")
    .filter((w) => w !== "")
  for (let from = 0; from < words.length; from++) {
    let place = ""
    for (let to = from; to < words.length; to++) {
      place += ` ${words[to]}`
      if (!starts.has(place)) break
      f(`${place} `)
    }
  }
}

/** The participants who use one word, each with the word's weight in their record. */
interface IndexedWord {
  readonly word: string
  readonly ids: Int32Array
  readonly weights: Uint8Array
}

/**
 * A whole directory indexed for matching, worked out once per snapshot (its array of records is
 * immutable and reused until the directory changes). Positions are indexes into that array.
 */
interface DirectoryIndex {
  /** By bucket (see `wordIndexOf`): every word of the directory, with who uses it and how. */
  readonly words: ReadonlyMap<string, ReadonlyArray<IndexedWord>>
  /** By place, space-padded as `placesOf` gives it: who is there. */
  readonly places: ReadonlyMap<string, ReadonlyArray<number>>
  /** The first words of every place, space-led and not space-ended: " new", " new york". */
  readonly placeStarts: ReadonlySet<string>
  /** The task types of the directory; each participant's, by its position in `types`; how many have each. */
  readonly types: ReadonlyArray<ExecutionMode>
  readonly typeOf: Uint8Array
  readonly typeCounts: ReadonlyArray<number>
  readonly bySlug: ReadonlyMap<string, number>
  /** Each participant's position in slug order, and the positions in that order. */
  readonly rank: Int32Array
  readonly order: Int32Array
  /** Distinct locations, in the directory's order of their first participant. */
  readonly locations: ReadonlyArray<string>
  /** By place: the first of `locations` whose city it is, and the first whose country names it. */
  readonly cities: ReadonlyMap<string, number>
  readonly countries: ReadonlyMap<string, number>
  /**
   * Work space of `rankTop`, `score` and `inPlace` zero between calls: a call runs to its end on
   * this thread, so one set per directory serves every call.
   */
  readonly scratch: Scratch
}

interface Scratch {
  readonly score: Uint16Array
  readonly best: Uint8Array
  readonly seen: Uint32Array
  readonly inPlace: Uint8Array
  /** The last mark given out for `seen`. */
  lastMark: number
}

/** A mark no entry of `seen` holds. */
const nextMark = (scratch: Scratch) => {
  if (scratch.lastMark === 0xffffffff) {
    scratch.seen.fill(0)
    scratch.lastMark = 0
  }
  return ++scratch.lastMark
}

export const directoryIndexOf = perObject((everyone: ReadonlyArray<ParticipantRecord>): DirectoryIndex => {
  const n = everyone.length
  const postings = new Map<string, { ids: Array<number>; weights: Array<number> }>()
  const places = new Map<string, Array<number>>()
  const types: Array<ExecutionMode> = []
  const typeOf = new Uint8Array(n)
  const typeCounts: Array<number> = []
  const bySlug = new Map<string, number>()
  // Disciplines, tags, capabilities and places repeat across a directory: each text is read once.
  const termsOf = new Map<string, ReadonlyArray<string>>()
  const termsOnce = (text: string) => {
    let words = termsOf.get(text)
    if (words === undefined) {
      words = terms(text)
      termsOf.set(text, words)
    }
    return words
  }
  for (let i = 0; i < n; i++) {
    const participant = everyone[i]!
    for (const [word, weight] of wordWeightsOf(participant, termsOnce)) {
      const posting = postings.get(word)
      if (posting === undefined) postings.set(word, { ids: [i], weights: [weight] })
      else {
        posting.ids.push(i)
        posting.weights.push(weight)
      }
    }
    // A set: a city and its country can be the same place (Singapore, Singapore).
    for (const place of new Set(placesOf(participant.location))) appendTo(places, place, i)
    let code = types.indexOf(participant.task_type)
    if (code < 0) code = types.push(participant.task_type) - 1
    typeOf[i] = code
    typeCounts[code] = (typeCounts[code] ?? 0) + 1
    bySlug.set(participant.slug, i)
  }
  const words = new Map<string, Array<IndexedWord>>()
  for (const [word, { ids, weights }] of postings) {
    appendTo(words, bucketOf(word), { word, ids: Int32Array.from(ids), weights: Uint8Array.from(weights) })
  }
  const order = Int32Array.from(everyone.keys()).sort((a, b) =>
    everyone[a]!.slug < everyone[b]!.slug ? -1 : everyone[a]!.slug > everyone[b]!.slug ? 1 : 0
  )
  const rank = new Int32Array(n)
  order.forEach((i, r) => {
    rank[i] = r
  })
  const locations = [...new Set(everyone.map((p) => p.location))]
  const cities = new Map<string, number>()
  const countries = new Map<string, number>()
  locations.forEach((location, at) => {
    const { city, country } = cityAndCountry(location)
    for (const place of placesOf(city)) if (!cities.has(place)) cities.set(place, at)
    for (const place of placesOf(country)) if (!countries.has(place)) countries.set(place, at)
  })
  // Cities and countries are parts of participants' locations: their places are among `places`.
  const placeStarts = new Set<string>()
  for (const place of places.keys()) {
    const words = place.trim().split(" ")
    for (let n = 1; n <= words.length; n++) placeStarts.add(` ${words.slice(0, n).join(" ")}`)
  }
  return {
    words,
    places,
    placeStarts,
    types,
    typeOf,
    typeCounts,
    bySlug,
    rank,
    order,
    locations,
    cities,
    countries,
    scratch: {
      score: new Uint16Array(n),
      best: new Uint8Array(n),
      seen: new Uint32Array(n),
      inPlace: new Uint8Array(n),
      lastMark: 0
    }
  }
})

const physicalCues =
  /\b(in person|on site|on-site|onsite|visit|go to|drive|deliver|pick up|pickup|photograph|photos?|inspect|inspection|attend|courier|measure|install|check (?:the|a|if)|store|shop|premises|notar(?:y|ise|ize)|sign(?:ature)? in person|walk)\b/i
const digitalCues =
  /\b(online|remote(?:ly)?|website|web site|app|review (?:a|the|our)|translate|translation|transcribe|transcription|label(?:l?ing)?|proofread|edit(?:ing)?|research|spreadsheet|document|pdf|audit (?:a|the|our) (?:site|website|app)|test (?:a|the|our) (?:site|website|app)|survey|call|email|video call|record)\b/i

/** Infers an execution mode from free text: both kinds of cue → hybrid; none → null. */
export const inferExecutionMode = (text: string): ExecutionMode | null => {
  const physical = physicalCues.test(text)
  const digital = digitalCues.test(text)
  if (physical && digital) return "hybrid"
  if (physical) return "physical"
  if (digital) return "digital"
  return null
}

/** Infers a location: a known participant city or country named in the text, as "City, Country" when a city. */
export const inferLocation = (text: string, knownLocations: ReadonlyArray<string>): string | null => {
  let countryOnly: string | null = null
  const inText = locationMatcher(text)
  for (const location of knownLocations) {
    const { city, country } = cityAndCountry(location)
    if (inText(placesOf(city))) return location
    if (countryOnly === null && country !== "" && inText(placesOf(country))) countryOnly = country
  }
  return countryOnly
}

/** A location's first part, and the rest as its country ("" when there is none). */
const cityAndCountry = (location: string) => {
  const [city, ...rest] = location.split(",").map((s) => s.trim())
  return { city: city ?? "", country: rest.join(", ") }
}

/**
 * `inferLocation` over a whole directory's locations, through its index: the text's runs of words
 * are looked up among the places the directory's cities and countries name, so a search costs
 * what its text costs, not the number of distinct locations.
 */
export const inferLocationIn = (text: string, everyone: ReadonlyArray<ParticipantRecord>): string | null => {
  const index = directoryIndexOf(everyone)
  let city = Number.POSITIVE_INFINITY
  let country = Number.POSITIVE_INFINITY
  forEachPlaceIn(text, index.placeStarts, (place) => {
    city = Math.min(city, index.cities.get(place) ?? city)
    country = Math.min(country, index.countries.get(place) ?? country)
  })
  if (city !== Number.POSITIVE_INFINITY) return index.locations[city]!
  return country === Number.POSITIVE_INFINITY ? null : cityAndCountry(index.locations[country]!).country
}

// ---------------------------------------------------------------------------------------------
// Why nobody is eligible: counts by the rules `rankTop` applies, for preflight's explanations.
// Kept apart from ranking: nothing here scores, and ranking never calls it.
// ---------------------------------------------------------------------------------------------

export interface EligibilityCounts {
  /** Participants in the directory, and their task types. */
  readonly directory: { readonly total: number; readonly types: ReadonlyArray<ExecutionMode> }
  /** Participants whose task type serves the task's mode, wherever they are. */
  readonly servingMode: number
  /**
   * When the task is bound to a place (physical or hybrid, with a location): how many
   * participants are there, of any task type, and which task types those are.
   */
  readonly inPlace: { readonly total: number; readonly types: ReadonlyArray<ExecutionMode> } | undefined
  /** Participants who can serve the task (mode and place; `participantSlug` is not applied). */
  readonly eligible: number
}

/**
 * The counts behind a task's eligibility, by the rules `rankTop` applies, without scoring
 * anyone: what a task's mode and place each rule out. Costs the directory's number of task types
 * plus the number of participants in the task's place.
 */
export const eligibilityCounts = (task: TaskProfile, everyone: ReadonlyArray<ParticipantRecord>): EligibilityCounts => {
  const index = directoryIndexOf(everyone)
  const serving = task.executionMode === undefined ? index.types : servingTypes[task.executionMode]
  let servingMode = 0
  index.typeCounts.forEach((count, code) => {
    if (serving.includes(index.types[code]!)) servingMode += count
  })
  const location = placeFilterOf(task)
  const directory = { total: everyone.length, types: index.types }
  if (location === undefined) return { directory, servingMode, inPlace: undefined, eligible: servingMode }
  const placed = participantsIn(index, location)
  const types = new Set<ExecutionMode>()
  let eligible = 0
  for (const i of placed) {
    const type = index.types[index.typeOf[i]!]!
    types.add(type)
    if (serving.includes(type)) eligible++
  }
  return { directory, servingMode, inPlace: { total: placed.size, types: [...types] }, eligible }
}

/** Whether one participant meets each of a task's eligibility rules (as `rankEligible` applies them). */
export const eligibilityOf = (
  task: TaskProfile,
  participant: ParticipantRecord
): { readonly servesMode: boolean; readonly inPlace: boolean } => {
  const location = placeFilterOf(task)
  return {
    servesMode: task.executionMode === undefined || servingTypes[task.executionMode].includes(participant.task_type),
    inPlace: location === undefined || locationMatcher(location)(placesOfParticipant(participant))
  }
}
