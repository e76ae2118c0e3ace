/**
 * The rules of matching, for one participant and one task: what matching reads of a participant
 * (their profile) and of a task (its terms), a term's weight, a participant's score and the order
 * of candidates, and who may take a task at all (mode, place, boundary). `matching.ts` applies
 * them over a whole directory through its index; tests hold it to the plain definition written
 * with them (test/support/matching_oracle.ts). Pure (docs/decisions/relevance.md).
 */

import { cachedPerObject, madeOnce, memoized } from "../read_cache.ts"
import { clockTimesOf } from "./clock_times.ts"
import type { ParticipantRecord } from "./participant.ts"
import {
  isWorldCity,
  type KnownPlaces,
  metropolisOf,
  type Place,
  placesNamedIn,
  placesOfLocation,
  placeWordsIn
} from "./places.ts"
import type { ExecutionMode } from "./task_draft/execution_mode.ts"
import {
  englishKey,
  fold,
  isAskedWorkKey,
  isLanguageKey,
  isLanguageWorkKey,
  isSkillLessVerb,
  isWorkKey,
  keysOf,
  readWords,
  saysWhereKey,
  type Term,
  termsOfWords,
  withIncluded
} from "./words.ts"

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

// Participants ------------------------------------------------------------------------------------

/**
 * What matching reads of a participant: each key of their work at the weight of the field it is
 * in (discipline and tags 3, capabilities 2, returns 1; name and location are not their work),
 * their discipline's keys, what their boundary excludes, and their places, city first.
 */
export interface Profile {
  readonly weights: ReadonlyMap<string, number>
  readonly discipline: ReadonlyArray<string>
  readonly exclusions: ReadonlyArray<ReadonlyArray<string>>
  readonly places: ReadonlyArray<Place>
}

/** How a profile reads a participant's texts: plainly, or remembering texts a directory repeats. */
export interface Reader {
  readonly keys: (text: string) => ReadonlyArray<string>
  readonly refusals: (boundary: string) => ReadonlyArray<ReadonlyArray<string>>
  readonly places: (location: string) => ReadonlyArray<Place>
}

const plainReader: Reader = { keys: keysOf, refusals: refusalsOf, places: placesOfLocation }

/** A reader that reads each distinct text once (disciplines, boundaries and places repeat). */
export const rememberingReader = (): Reader => ({
  keys: memoized(keysOf),
  refusals: memoized(refusalsOf),
  places: memoized(placesOfLocation)
})

/**
 * A participant's profile, their texts read by `read`. `weights`: a map to fill (cleared first),
 * when the profile is only passed through.
 */
export const profileWith = (
  participant: ParticipantRecord,
  read: Reader,
  weights = new Map<string, number>()
): Profile => {
  weights.clear()
  const add = (weight: number, texts: ReadonlyArray<string>) => {
    for (const text of texts) {
      for (const named of read.keys(text)) {
        for (const key of withIncluded(named)) if ((weights.get(key) ?? 0) < weight) weights.set(key, weight)
      }
    }
  }
  add(3, [participant.discipline, ...participant.tags])
  add(2, participant.capabilities)
  add(1, [participant.returns])
  // What a boundary refuses, less the participant's own work ("No certified or sworn
  // translations" from a translator rules out "certified" and "sworn", not translation).
  const exclusions: Array<ReadonlyArray<string>> = []
  for (const refusal of participant.boundary === null ? [] : read.refusals(participant.boundary)) {
    const keys = refusal.filter((key) => !weights.has(key))
    if (keys.length > 0) exclusions.push(keys)
  }
  return {
    weights,
    discipline: read.keys(participant.discipline),
    exclusions,
    places: read.places(participant.location)
  }
}

/** A participant's profile, worked out once per record (records are immutable and reused). */
export const profileOf = cachedPerObject((participant: ParticipantRecord) => profileWith(participant, plainReader))

/**
 * What a `boundary` refuses, as sets of keys: a task whose text has every key of one set is not
 * the participant's (`profileWith` leaves out their own work). Read conservatively, from
 * sentences that say "No …", "Not …" or "never …": each item of such a sentence (split at
 * commas, "or", "and", "nor") is one set, read with a head noun the items share (`sharedHead`).
 * An item stating a condition (without, unless, outside, after, during, for…) is the
 * participant's to judge and refuses nothing: "No entry without the owner's consent" does not
 * make them refuse entry — except a clock time, which a task states as plainly: "No deliveries
 * after 22:00" refuses a task asked for 23:00 (`clockKey`).
 */
function refusalsOf(boundary: string): ReadonlyArray<ReadonlyArray<string>> {
  const out: Array<ReadonlyArray<string>> = []
  // Sentences end at a full stop, not at a clock's colon ("after 22:00").
  for (const sentence of fold(boundary).split(/[.;!?]|:(?!\d)|\band\s+(?=no\b|not\b|never\b)/)) {
    const refusal = /\b(?:no|not|never)\b(.*)$/.exec(sentence)?.[1]
    if (refusal === undefined) continue
    for (const [, side, rest] of refusal.matchAll(/\b(after|before)\s+([^,]*)/g)) {
      const time = clockTimesOf(rest!)[0]
      if (time !== undefined) out.push([`${side === "after" ? afterKey : beforeKey}${time}`])
    }
    if (conditionWords.test(refusal)) continue
    const items = refusal
      .split(/,|\bor\b|\band\b|\bnor\b/)
      .map(keysOf)
      .filter((keys) => keys.some((key) => !genericBoundaryKeys().has(key)))
    for (const item of sharedHead(items)) out.push(item.filter((key) => !genericBoundaryKeys().has(key)))
  }
  return out
}

/**
 * Coordinated items with the head noun they share: when every item but the last is one word and
 * the last is more, the last one's final word is the head of them all, so "certified or sworn
 * translations" is "certified translations" or "sworn translations", and "cash, card or cheque
 * payments" refuses a card payment, not a birthday card. Any other list is of whole phrases:
 * "heavy lifting or ladders" refuses ladders alone. Each item still refuses on its own. Reading
 * the single words alone as well would add nothing but refusals of "certified" or "card"
 * anywhere: "certified translations" needs more of a task than "certified" does. The cost: an
 * item like "pets or farm animals" reads as "pet animals", so a pet-sitting task is offered and
 * the participant declines it, as they do one that a condition of theirs rules out.
 */
const sharedHead = (items: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<ReadonlyArray<string>> => {
  const last = items.at(-1)
  if (last === undefined || last.length < 2 || items.some((item) => item !== last && item.length > 1)) return items
  const head = last.at(-1)!
  return items.map((item) => (item === last ? item : [item[0]!, head]))
}

const conditionWords =
  /\b(?:without|unless|outside|after|before|above|below|under|inside|during|beyond|except|within|for|until|while|if)\b/

/**
 * Words of a boundary that name no kind of work, nor what it is about: a unit of work ("tasks",
 * "queues", "requests") is what the content it is made of comes in, so "No review of
 * extreme-violence queues" refuses reviewing extreme violence wherever it comes from.
 */
const genericBoundaryKeys = madeOnce(
  () =>
    new Set(
      keysOf(
        "work works job jobs item items thing things involve involving task tasks queue queues request requests assignment assignments"
      )
    )
)

/**
 * A task's clock time as a key ("@at:1380" for 23:00), and a boundary's refusal of times after or
 * before one ("@after:1320"): a task at a time a boundary refuses has that refusal's key.
 */
export const clockKey = (minutes: number) => `@at:${minutes}`
const afterKey = "@after:"
const beforeKey = "@before:"
export const isClockKey = (key: string) => key.startsWith("@at:")

/** Whether a task's keys have this one, or a clock time past a boundary's time refusal. */
const hasKey = (keys: ReadonlySet<string>, key: string) => {
  if (keys.has(key)) return true
  const after = key.startsWith(afterKey)
  if (!after && !key.startsWith(beforeKey)) return false
  const limit = Number(key.slice(after ? afterKey.length : beforeKey.length))
  for (const asked of keys) {
    if (!isClockKey(asked)) continue
    const time = Number(asked.slice(4))
    if (after ? time > limit : time < limit) return true
  }
  return false
}

/** Whether a participant's boundary (their profile's `exclusions`) rules out a task with these keys. */
export const refuses = (exclusions: Profile["exclusions"], keys: ReadonlySet<string>) =>
  exclusions.some((set) => set.every((key) => hasKey(keys, key)))

// Relevance ---------------------------------------------------------------------------------------

/**
 * A term's weight in a directory of `n` participants, `df` of whom use it: BM25's inverse
 * document frequency, so a rare word counts above a common one, in thousandths and at least 1,
 * so that scores are whole numbers — summed in any order they are the same, which keeps
 * the index's sums (`rankTop`) exactly the plain definition's.
 */
export const idfOf = (n: number, df: number) =>
  Math.max(1, Math.round(1000 * Math.log(1 + (n - df + 0.5) / (df + 0.5))))

/**
 * The one threshold between a plausible candidate and an unrelated one, shared by POST /search,
 * preflight's feasibility and the dispatcher (all rank through `rankTop`, and its plain
 * definition in test/support/matching_oracle.ts): a participant is plausible for a task when the
 * field weights of the task's keys found in their work — each key not a skill-less verb
 * ("file", "fix") — sum to at least 3. One key of their discipline or tags is
 * enough; a capability needs a second key; words that only their returns mention need three.
 * Below it a participant shares words with the task, not work, and is not eligible.
 */
export const plausibleEvidence = 3

/** Whether a key counts toward `plausibleEvidence`: not a skill-less verb. */
export const isEvidence = (key: string) => !isSkillLessVerb(key)

/**
 * The weight a kind of work the task names (`isWorkKey`) must have in a participant's record for
 * them to be shown to do it: their discipline, tags or capabilities — what they do, not only
 * what they send back.
 */
export const doesTheWork = 1

/**
 * The threshold's second half, also shared by every ranking: a task that names a kind of work
 * (translation, inspection, repair, editing…) asks for that work, so a participant is plausible
 * only when their work (`doesTheWork`) has one of the kinds it names, or the task names their
 * whole discipline (`namesTheDiscipline`). Who shares only what the
 * work is about ("solar panels" for an inspector asked to install them, "video" for an
 * interpreter asked to edit one) does other work on the same things. A task naming no kind of
 * work is judged by its evidence alone. Read off the concept layer's data, the same for every
 * language, never from a list of requests.
 */
export const isPlausible = (s: { readonly evidence: number; readonly doesWork: boolean }, asksWork: boolean) =>
  s.evidence >= plausibleEvidence && (!asksWork || s.doesWork)

/**
 * The languages, other than English, a task asks its work to be done in: when it asks for work
 * done in a language (`Concept.inLanguages`: translating, interpreting, transcribing, subtitling,
 * editing, voicing, moderating) and names languages, those whose record has none of them are
 * weak matches, and search says so (a translator of Japanese and Spanish asked for a Korean
 * contract). Not a filter: the speaker of a language who does related work (a field surveyor
 * who speaks Chichewa asked to transcribe Chichewa interviews) would be turned away with the
 * rest, and an answerable request answered with nobody costs most. English, which nearly every
 * record names, asks for nobody in particular. Empty when the task asks no such work.
 */
export const languagesAsked = (query: ReadonlyArray<Term>): ReadonlyArray<string> =>
  query.some(({ key }) => isLanguageWorkKey(key))
    ? query.filter(({ key }) => isLanguageKey(key) && key !== englishKey).map(({ key }) => key)
    : []

/**
 * Whether a task's terms name one discipline's kind of work (`isPlausible`); then whoever does any
 * kind of work it names, one discipline's or several's, does the work asked.
 */
export const asksForWork = (query: ReadonlyArray<Term>) => query.some(({ key }) => isAskedWorkKey(key))

/** A participant's relevance to a task, as `before` orders it. */
export interface Scored {
  readonly participant: ParticipantRecord
  /** Summed over the task's terms: the term's weight times the weight of its field. */
  readonly points: number
  readonly matched: ReadonlyArray<string>
  /** The field weights of the task's evidence keys found in the participant's work (`plausibleEvidence`). */
  readonly evidence: number
  /** Whether their work has a kind of work the task names, or the task names their whole discipline (`isPlausible`). */
  readonly doesWork: boolean
  /** How many of the participant's discipline keys the task has, and how many there are. */
  readonly covered: number
  readonly disciplineSize: number
  /** Whether their record names the language the task is written in (`requestLanguageOf`): `before`'s last tie-break but one. */
  readonly speaks: boolean
}

export interface RankedParticipant {
  readonly participant: ParticipantRecord
  readonly score: number
  /** The task's words that matched, as the task wrote them (folded). */
  readonly matched: ReadonlyArray<string>
}

/**
 * A participant's relevance to a task of these terms (`queryOf`) and keys, each term weighing
 * `idf` (the directory's `idfOf`) times the weight of its field in the profile.
 */
export const scoredWith = (
  participant: ParticipantRecord,
  profile: Profile,
  query: ReadonlyArray<Term>,
  keys: ReadonlySet<string>,
  idf: (key: string) => number,
  language?: string
): Scored => {
  let points = 0
  let evidence = 0
  let doesWork = false
  const matched: Array<string> = []
  query.forEach(({ key, word }, at) => {
    const weight = profile.weights.get(key)
    if (weight === undefined) return
    points += idf(key) * weight * emphasis(at)
    if (isEvidence(key)) evidence += weight
    if (weight >= doesTheWork && isWorkKey(key)) doesWork = true
    if (!matched.includes(word)) matched.push(word)
  })
  const coverage = coverageOf(profile.discipline, keys)
  return {
    participant,
    points,
    matched,
    evidence,
    doesWork: doesWork || namesTheDiscipline(coverage),
    ...coverage,
    speaks: language !== undefined && profile.weights.has(language)
  }
}

/**
 * Whether a task names a participant's whole discipline ("Photograph the water sampling points"
 * for a water sampler): then they do the work asked, whatever other kind of work the task names
 * on the way (`isPlausible`). A discipline the task names only in part does not: an inspector of
 * solar panels asked to install them shares "solar panel", not "inspection".
 */
export const namesTheDiscipline = (c: { readonly covered: number; readonly disciplineSize: number }) =>
  c.covered > 0 && c.covered === c.disciplineSize

/** How many of a participant's discipline keys a task has, out of how many (at least 1): `before`'s tie-break. */
export const coverageOf = (discipline: ReadonlyArray<string>, keys: ReadonlySet<string>) => {
  let covered = 0
  for (const key of discipline) if (keys.has(key)) covered++
  return { covered, disciplineSize: Math.max(1, discipline.length) }
}

/**
 * Best first: by relevance; at equal relevance the participant whose discipline the task covers
 * more (for "a photographer", Photography before Product photography); then the one whose record
 * names the language the task is written in (`requestLanguageOf`: "Nutzerforschung für unsere
 * App", the German-speaking UX researcher); then by slug, so the order is total and the same
 * everywhere.
 */
export const before = (a: Scored, b: Scored): number =>
  b.points - a.points ||
  b.covered * a.disciplineSize - a.covered * b.disciplineSize ||
  Number(b.speaks) - Number(a.speaks) ||
  (a.participant.slug < b.participant.slug ? -1 : a.participant.slug > b.participant.slug ? 1 : 0)

/**
 * A task's terms, less the words of the places it names: where the task is decides who can take
 * it (`placeFilterOf`), not how well their work matches ("in Lagos" is no skill of someone whose
 * capabilities mention Lagos); and less the words that only say where work happens (on site,
 * online, a file or its format: `saysWhereKey`), which decide the mode (task_inference.ts), not
 * who does the work ("fichier SRT" is no reason to rank a translator who lists SRT above the
 * subtitler).
 */
export const queryOf = (text: string, known: KnownPlaces): ReadonlyArray<Term> => {
  const words = readWords(text)
  const placeWords = placeWordsIn(words, known)
  const terms = termsOfWords(words.folded)
  const inPlace = terms.filter((t) => !placeWords.has(t.word) && !saysWhereKey(t.key))
  // The clock times it is asked for, which no profile has: read only by boundaries (`refuses`).
  const times = clockTimesOf(fold(text))
  return times.length === 0
    ? inPlace
    : [...inPlace, ...times.map((time) => ({ key: clockKey(time), word: String(time) }))]
}

/**
 * A task's first term weighs half as much again as the others (the points are kept doubled, in
 * whole numbers): agents lead with the work ("Translate a contract into German", "Proofread our
 * product page"), and what follows is often its object or a qualifier.
 */
export const emphasis = (at: number) => (at === 0 ? 3 : 2)

/** A participant as a ranking answers: `score` is the points without the thousandths and the doubling. */
export const ranked = (s: Scored): RankedParticipant => ({
  participant: s.participant,
  score: s.points / 2000,
  matched: s.matched
})

// Eligibility -------------------------------------------------------------------------------------

/**
 * The words a task is ranked by: what is to be done and what comes back. Preflight, submission and
 * the dispatcher's offer all read a task through this, so they rank it alike (and the index's
 * memory of a text's terms, keyed by the text, serves all three).
 */
export const taskTextOf = (action: string | undefined, expectedResult: string | undefined) =>
  [action, expectedResult].filter((part) => part !== undefined).join(" ")

export interface TaskProfile {
  /** Undefined when the task's mode is unknown: every participant's type may serve it. */
  readonly executionMode: ExecutionMode | undefined
  readonly location?: string | undefined
  readonly text: string
  readonly participantSlug?: string | undefined
}

/** The location a task's candidates must be in, if any: a digital task has none. */
export const placeFilterOf = (task: TaskProfile): string | undefined =>
  task.executionMode !== "digital" && task.location !== undefined && task.location.trim() !== ""
    ? task.location
    : undefined

/**
 * The places a task's location confines it to: the cities it names (a participant's city, or a
 * city of the world) when it names any — "Lagos, Nigeria" is Lagos, not Abuja — otherwise the
 * regions and countries it names. A city in a larger one's metropolitan area takes that city in
 * (Giza: Cairo). A location naming no known place confines the task to nowhere.
 */
export const confiningPlaces = (
  location: string,
  known: KnownPlaces,
  cities: ReadonlySet<Place>
): ReadonlySet<Place> => {
  const named = placesNamedIn(location, known)
  const namedCities = named.filter((place) => cities.has(place) || isWorldCity(place))
  if (namedCities.length === 0) return new Set(named)
  const confined = new Set(namedCities)
  for (const city of namedCities) {
    const metropolis = metropolisOf(city)
    if (metropolis !== undefined) confined.add(metropolis)
  }
  return confined
}
