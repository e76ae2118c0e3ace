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
  queryTerms.map((term) => {
    const long = term.length >= 4
    return { term, long, key: long ? term.slice(0, 4) : term }
  })

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
  const weights = new Map<string, number>()
  const add = (weight: number, texts: ReadonlyArray<string>) => {
    for (const text of texts) {
      for (const word of terms(text)) if ((weights.get(word) ?? 0) < weight) weights.set(word, weight)
    }
  }
  add(3, [participant.discipline, ...participant.tags])
  add(2, participant.capabilities)
  add(1, [participant.returns, participant.name, participant.location])
  const index = new Map<string, Array<WeightedWord>>()
  for (const [word, weight] of weights) {
    const key = word.length >= 4 ? word.slice(0, 4) : word
    const bucket = index.get(key)
    if (bucket === undefined) index.set(key, [{ word, weight }])
    else bucket.push({ word, weight })
  }
  return index
})

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

/** Participants that can serve the task, best first (score, then slug for a stable order). */
export const rankEligible = (
  task: TaskProfile,
  candidates: ReadonlyArray<ParticipantRecord>
): ReadonlyArray<RankedParticipant> => {
  const serving = task.executionMode === undefined ? undefined : servingTypes[task.executionMode]
  const inPlace =
    task.executionMode !== "digital" && task.location !== undefined ? locationMatcher(task.location) : undefined
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
    const [city, ...rest] = location.split(",").map((s) => s.trim())
    const country = rest.join(", ")
    if (city !== undefined && inText(placesOf(city))) return location
    if (countryOnly === null && country !== "" && inText(placesOf(country))) countryOnly = country
  }
  return countryOnly
}
