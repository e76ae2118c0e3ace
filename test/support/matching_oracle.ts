/**
 * The plain definition of matching that the fast ranking (`rankTop` in src/domain/matching.ts,
 * through its index of the directory) is held to: written with the same rules
 * (src/domain/matching_rules.ts), over every participant, with nothing indexed or remembered.
 */
import {
  asksForWork,
  before,
  confiningPlaces,
  idfOf,
  isPlausible,
  placeFilterOf,
  profileOf,
  queryOf,
  type RankedParticipant,
  ranked,
  refuses,
  scoredWith,
  servingTypes,
  type TaskProfile
} from "../../src/domain/matching_rules.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { knownPlaces } from "../../src/domain/places.ts"
import { requestLanguageOf } from "../../src/domain/request_language.ts"

/**
 * The participants who can take a task, best first: the definition, written the plain way over a
 * whole directory (term weights are the directory's). Eligible: not in `excluding`; of a task
 * type that serves the mode; in the task's place (unless digital); not ruled out by their
 * boundary; and plausible (`isPlausible`: `plausibleEvidence`, and the kind of work the task names) — unless the task names them, when the agent has
 * chosen and relevance is not asked. `rankTop` gives the same answer without scoring everyone.
 */
export const rankEligible = (
  task: TaskProfile,
  everyone: ReadonlyArray<ParticipantRecord>,
  excluding: ReadonlyArray<string> = []
): ReadonlyArray<RankedParticipant> => {
  const known = knownPlaces(everyone.flatMap((p) => profileOf(p).places))
  const query = queryOf(task.text, known)
  const keys = new Set(query.map((t) => t.key))
  const asksWork = asksForWork(query)
  // Each key's weight counted once per task (the definition; remembered only to keep the test fast).
  const idfs = new Map<string, number>()
  const idf = (key: string) => {
    let weight = idfs.get(key)
    if (weight === undefined) {
      weight = idfOf(everyone.length, everyone.filter((p) => profileOf(p).weights.has(key)).length)
      idfs.set(key, weight)
    }
    return weight
  }
  const serving = task.executionMode === undefined ? undefined : servingTypes[task.executionMode]
  const location = placeFilterOf(task)
  const confined =
    location === undefined
      ? undefined
      : confiningPlaces(location, known, new Set(everyone.map((p) => profileOf(p).places[0] ?? "")))
  return everyone
    .filter((p) => {
      const profile = profileOf(p)
      return (
        !excluding.includes(p.slug) &&
        (task.participantSlug === undefined || p.slug === task.participantSlug) &&
        (serving === undefined || serving.includes(p.task_type)) &&
        (confined === undefined || profile.places.some((place) => confined.has(place))) &&
        !refuses(profile.exclusions, keys)
      )
    })
    .map((p) => scoredWith(p, profileOf(p), query, keys, idf, requestLanguageOf(task.text)))
    .filter((s) => task.participantSlug !== undefined || isPlausible(s, asksWork))
    .sort(before)
    .map(ranked)
}
