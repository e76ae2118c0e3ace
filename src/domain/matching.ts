/**
 * Matching tasks to participants over a whole directory: who can take a task and how relevant
 * each is, by the rules of `matching_rules.ts`, answered through an index of the directory
 * (`directoryIndexOf`) so that a task costs what its words and its place match, not the
 * directory's size (the index: directory_index.ts; a free-text task's mode and place and why
 * nobody can take it: task_inference.ts, directory_search.ts). Pure: no external model, no I/O, the same answer on either database. Used by preflight
 * feasibility, POST /search and the dispatcher's offers (docs/decisions/relevance.md).
 */

import { type DirectoryIndex, directoryIndexOf, languageIn, participantsIn, queryIn } from "./directory_index.ts"
import {
  asksForWork,
  confiningPlaces,
  coverageOf,
  doesTheWork,
  emphasis,
  isEvidence,
  isPlausible,
  placeFilterOf,
  plausibleEvidence,
  profileOf,
  type RankedParticipant,
  ranked,
  refuses,
  scoredWith,
  servingTypes,
  type TaskProfile
} from "./matching_rules.ts"
import type { ParticipantRecord } from "./participant.ts"
import type { ExecutionMode } from "./task_draft/execution_mode.ts"
import { isWorkKey } from "./words.ts"
import { isUnread, workReadingIn } from "./work_reading.ts"

// Ranking -----------------------------------------------------------------------------------------

export interface Ranking {
  /** How many participants can take the task. */
  readonly eligible: number
  /** The first `limit` of them, best first (`before`). */
  readonly best: ReadonlyArray<RankedParticipant>
  /**
   * The most relevant participant who would be eligible but for their boundary, when that
   * participant ranks above every eligible one (or nobody is eligible): the reason a search
   * gives when the one who fits refuses the work.
   */
  readonly refused?: RankedParticipant | undefined
}

export interface RankOptions {
  readonly limit: number
  /** Slugs that are not candidates (participants who passed the task over). */
  readonly excluding?: ReadonlyArray<string> | undefined
  /**
   * Participants not taking offers right now: never eligible, named or not (as if in
   * `excluding`). They still weigh in the directory's term statistics, so a participant switching
   * off changes nobody else's ranking.
   */
  readonly unavailable?: ReadonlySet<string> | undefined
}

/**
 * The best `limit` participants of a whole directory for a task, best first (`before`), and how
 * many are eligible. Eligible: not in `excluding` nor `unavailable`; of a task type that serves
 * the mode; in the task's place (unless digital); not ruled out by their boundary; and matching
 * the task's text at all — unless the task names them, when the agent has chosen and relevance
 * is not asked. Exactly the plain definition in test/support/matching_oracle.ts, cut to `limit`.
 * Only participants who share a key with the task are scored, through the directory's inverted
 * index (`directoryIndexOf`); nobody else is eligible, so a task costs what its terms and its
 * place match, not the directory's size.
 */
export const rankTop = (
  task: TaskProfile,
  everyone: ReadonlyArray<ParticipantRecord>,
  options: RankOptions
): Ranking => {
  const index = directoryIndexOf(everyone)
  const query = queryIn(index, task.text)
  const keys = new Set(query.map((t) => t.key))
  const location = placeFilterOf(task)
  const placed = location === undefined ? undefined : participantsIn(index, location)
  const { points, evidence, doesWork, inPlace, coverageAt } = index.scratch
  const asksWork = asksForWork(query)
  if (placed !== undefined) for (const i of placed) inPlace[i] = 1
  // Only the few kept are scored in full, from their own profiles.
  // The language the task is written in breaks a tie after coverage (`before`).
  const language = languageIn(index, task.text)
  const scoreAt = (i: number) => scoredWith(everyone[i]!, profileOf(everyone[i]!), query, keys, index.idf, language)
  const speaks = (i: number) => language !== undefined && profileOf(everyone[i]!).weights.has(language)
  const { serves, admits, refusedByBoundary } = admission(index, everyone, task, keys, options)
  const takesBut = (i: number) => (placed === undefined || inPlace[i] === 1) && admits(i)
  const takes = (i: number) => takesBut(i) && !refusedByBoundary(i)
  // A task naming a participant's whole discipline asks for their work (`namesTheDiscipline`).
  const plausible = (i: number) =>
    isPlausible(
      {
        evidence: evidence[i]!,
        doesWork: doesWork[i] === 1 || (asksWork && evidence[i]! >= plausibleEvidence && coverage(i) === 2)
      },
      asksWork
    )

  // 1 + the share of a participant's discipline the task names: worked out on a participant's
  // first tie, or when the task asks for work they are not shown to do; kept for the call.
  const coverage = (i: number) => {
    if (coverageAt[i] === 0) {
      const { covered, disciplineSize } = coverageOf(index.disciplineOf[i]!, keys)
      coverageAt[i] = 1 + covered / disciplineSize
    }
    return coverageAt[i]!
  }

  const scoredIds: Array<number> = []
  try {
    if (task.participantSlug !== undefined) {
      const at = index.bySlug.get(task.participantSlug)
      if (at === undefined || !takes(at)) return { eligible: 0, best: [] }
      return { eligible: 1, best: options.limit > 0 ? [ranked(scoreAt(at))] : [] }
    }

    // Points through the inverted index: a task's keys are distinct and a participant has one
    // weight per key, so each posting adds once. Who cannot serve the mode or is elsewhere is
    // skipped here (spelled out: through a closure this loop ran slower); exclusions and
    // boundaries, rarer, are left to the selection.
    for (let at = 0; at < query.length; at++) {
      const posting = index.postings.get(query[at]!.key)
      if (posting === undefined) continue
      const weight = index.idf(query[at]!.key) * emphasis(at)
      const counts = isEvidence(query[at]!.key)
      const work = isWorkKey(query[at]!.key)
      const { ids, weights } = posting
      for (let k = 0; k < ids.length; k++) {
        const i = ids[k]!
        if (serves[index.typeOf[i]!] === 0 || (placed !== undefined && inPlace[i] === 0)) continue
        if (points[i] === 0) scoredIds.push(i)
        points[i] = points[i]! + weight * weights[k]!
        if (counts) evidence[i] = evidence[i]! + weights[k]!
        if (work && weights[k]! >= doesTheWork) doesWork[i] = 1
      }
    }

    // The best, kept in `before`'s order as they are found: by points, then (only on a tie)
    // discipline coverage, the task's language, then slug order.
    // Small whole numbers: equal fractions divide to the same number, distinct ones far apart.
    const precedes = (a: number, b: number) => {
      if (points[a] !== points[b]) return points[a]! > points[b]!
      const ca = coverage(a)
      const cb = coverage(b)
      if (ca !== cb) return ca > cb
      const sa = speaks(a)
      return sa !== speaks(b) ? sa : index.rank[a]! < index.rank[b]!
    }
    let eligible = 0
    const top: Array<number> = []
    let refused = -1
    for (const i of scoredIds) {
      if (!plausible(i)) continue
      if (!takes(i)) {
        if (takesBut(i) && (refused < 0 || precedes(i, refused))) refused = i
        continue
      }
      eligible++
      if (top.length === options.limit && (options.limit === 0 || !precedes(i, top[top.length - 1]!))) continue
      let lo = 0
      let hi = top.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (precedes(top[mid]!, i)) lo = mid + 1
        else hi = mid
      }
      top.splice(lo, 0, i)
      if (top.length > options.limit) top.pop()
    }
    const outranks = refused >= 0 && (top.length === 0 || precedes(refused, top[0]!))
    return {
      eligible,
      best: top.map((i) => ranked(scoreAt(i))),
      ...(outranks ? { refused: ranked(scoreAt(refused)) } : {})
    }
  } finally {
    for (const i of scoredIds) {
      points[i] = 0
      evidence[i] = 0
      doesWork[i] = 0
      coverageAt[i] = 0
    }
    if (placed !== undefined) for (const i of placed) inPlace[i] = 0
  }
}

/**
 * The rules of who may take a task other than its place and its text, as `rankTop` and
 * `inPlaceWhateverTheWork` apply them: a task type that serves the mode (`serves`, by the index's
 * type code), not excluded nor unavailable (`admits`), and not refused by their boundary.
 */
const admission = (
  index: DirectoryIndex,
  everyone: ReadonlyArray<ParticipantRecord>,
  task: TaskProfile,
  keys: ReadonlySet<string>,
  options: RankOptions
) => {
  const excluded = new Set(options.excluding ?? [])
  const unavailable =
    options.unavailable !== undefined && options.unavailable.size > 0 ? options.unavailable : undefined
  const serving = task.executionMode === undefined ? undefined : servingTypes[task.executionMode]
  // Whether each task type (by its code in the index) can serve the task.
  const serves = index.types.map((type) => (serving === undefined || serving.includes(type) ? 1 : 0))
  // Whether each distinct boundary of the directory refuses the task: 0 not known yet, 1 yes, 2 no.
  const refusing = new Uint8Array(index.boundaries.length)
  return {
    serves,
    admits: (i: number) =>
      serves[index.typeOf[i]!] === 1 &&
      (excluded.size === 0 || !excluded.has(everyone[i]!.slug)) &&
      (unavailable === undefined || !unavailable.has(everyone[i]!.slug)),
    refusedByBoundary: (i: number) => {
      const b = index.boundaryOf[i]!
      if (b < 0) return false
      if (refusing[b] === 0) refusing[b] = refuses(index.boundaries[b]!, keys) ? 1 : 2
      return refusing[b] === 1
    }
  }
}

/**
 * Everyone in a task's place who may take it whatever its text says — by mode, exclusions,
 * availability and boundary, as `rankTop` — first `limit` of them: those whose record names the
 * language the task is written in (`requestLanguageOf`) first, then in slug order. Not a ranking
 * and not eligibility: nobody here is shown to do the work, so all are below the one threshold
 * (`plausibleEvidence`), and neither feasibility nor the dispatcher reads this. POST /search
 * lists them, flagged as weak, when a request's work could not be read at all
 * (work_reading.ts, directory_search.ts). Empty for a task bound to no place: then it would be
 * the whole directory. Costs the number of people in the place (`participantsIn`), never the
 * directory's size.
 */
export const inPlaceWhateverTheWork = (
  task: TaskProfile,
  everyone: ReadonlyArray<ParticipantRecord>,
  options: RankOptions
): ReadonlyArray<RankedParticipant> => {
  const location = placeFilterOf(task)
  if (location === undefined || options.limit <= 0) return []
  const index = directoryIndexOf(everyone)
  const keys = new Set(queryIn(index, task.text).map((t) => t.key))
  const { admits, refusedByBoundary } = admission(index, everyone, task, keys, options)
  const language = languageIn(index, task.text)
  const speakers = new Set(language === undefined ? [] : (index.postings.get(language)?.ids ?? []))
  const found = [...participantsIn(index, location)].filter((i) => admits(i) && !refusedByBoundary(i))
  found.sort((a, b) => Number(speakers.has(b)) - Number(speakers.has(a)) || index.rank[a]! - index.rank[b]!)
  return found.slice(0, options.limit).map((i) => ({ participant: everyone[i]!, score: 0, matched: [] }))
}

// Why nobody is eligible: counts by the rules `rankTop` applies, for preflight's explanations of
// doomed drafts (src/domain/feasibility.ts). Nothing here scores, and ranking never calls it.

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
  /**
   * Participants who serve the task's mode and are in its place (`participantSlug` is not
   * applied). Ranking also asks that their boundary not refuse the task and that their work match
   * its text: when this is above 0 and nobody is eligible, that is why.
   */
  readonly eligible: number
  /**
   * The words of the task's work none of which was read (work_reading.ts: `isUnread`), as written;
   * empty when some was, or when there are none.
   */
  readonly unreadWords: ReadonlyArray<string>
}

/**
 * The counts behind a task's eligibility by mode and place, without scoring anyone. Costs the
 * directory's number of task types plus the number of participants in the task's place.
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
  const reading = workReadingIn(index, task.text)
  const unreadWords = isUnread(reading) ? reading.unread : []
  if (location === undefined) return { directory, servingMode, inPlace: undefined, eligible: servingMode, unreadWords }
  const placed = participantsIn(index, location)
  const types = new Set<ExecutionMode>()
  let eligible = 0
  for (const i of placed) {
    const type = index.types[index.typeOf[i]!]!
    types.add(type)
    if (serving.includes(type)) eligible++
  }
  return { directory, servingMode, inPlace: { total: placed.size, types: [...types] }, eligible, unreadWords }
}

/**
 * Whether one participant meets each of a task's eligibility rules, as `rankTop` applies them
 * over `everyone`, whose cities decide whether a place the location names is a city. Without it,
 * the participant's own places and the world's decide: the same answer unless the location names
 * a place that is another participant's city and no city of the gazetteer.
 */
export const eligibilityOf = (
  task: TaskProfile,
  participant: ParticipantRecord,
  everyone: ReadonlyArray<ParticipantRecord> = [participant]
): { readonly servesMode: boolean; readonly inPlace: boolean; readonly refusedByBoundary: boolean } => {
  const index = directoryIndexOf(everyone)
  const location = placeFilterOf(task)
  const profile = profileOf(participant)
  const confined = location === undefined ? undefined : confiningPlaces(location, index.known, index.cities)
  return {
    servesMode: task.executionMode === undefined || servingTypes[task.executionMode].includes(participant.task_type),
    inPlace: confined === undefined || profile.places.some((place) => confined.has(place)),
    refusedByBoundary: refuses(profile.exclusions, new Set(queryIn(index, task.text).map((t) => t.key)))
  }
}
