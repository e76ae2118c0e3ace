/**
 * A free-text task against a directory, as POST /search answers it (`searchDirectory`): its mode
 * and place inferred (task_inference.ts), the best who can take it (`rankTop`), and, when nobody
 * can or only weakly, why.
 */
import { directoryIndexOf, languageIn, participantsIn, queryIn } from "./directory_index.ts"
import { inPlaceWhateverTheWork, rankTop } from "./matching.ts"
import { isClockKey, languagesAsked, profileOf, type RankedParticipant } from "./matching_rules.ts"
import type { ParticipantRecord } from "./participant.ts"
import type { ExecutionMode } from "./task_draft/execution_mode.ts"
import { inferExecutionMode, inferLocationIn, saysNamedPlace } from "./task_inference.ts"
import { isSkillLessVerb, type Term } from "./words.ts"
import { isUnread, type WorkReading, workReadingIn } from "./work_reading.ts"

export interface DirectorySearch {
  readonly executionMode: ExecutionMode | null
  readonly location: string | null
  readonly matches: ReadonlyArray<RankedParticipant>
  /** When nobody matches, or only weakly: why, and what to try. */
  readonly hint: string | undefined
}

/**
 * A free-text task against a directory, as POST /search answers it: its mode and place inferred
 * (no place for digital work), then the best `limit` who can take it — not those `unavailable`,
 * who would get no offer. Nobody is a real answer, given with a hint rather than filled with
 * whoever comes first.
 */
export const searchDirectory = (
  query: string,
  everyone: ReadonlyArray<ParticipantRecord>,
  limit: number,
  unavailable?: ReadonlySet<string>,
  /** Whether a request whose work could not be read lists the people in its place (`unreadInPlace`); off only to measure without it. */
  listUnreadInPlace = true
): DirectorySearch => {
  const named = inferLocationIn(query, everyone)
  const { postings } = directoryIndexOf(everyone)
  const executionMode = inferExecutionMode(query, named !== null || saysNamedPlace(query, (key) => postings.has(key)))
  const location = executionMode === "digital" ? null : named
  const task = { executionMode: executionMode ?? undefined, location: location ?? undefined, text: query }
  const { best: matches, refused } = rankTop(task, everyone, { limit, unavailable })
  const best = matches[0]
  const terms = queryIn(directoryIndexOf(everyone), query)
  const unspokenLanguages = unspoken(matches, terms)
  // Nobody found and not one word of the work read: the people of its place, flagged as weak.
  const reading = workReadingIn(directoryIndexOf(everyone), query)
  const unread = best === undefined && refused === undefined && isUnread(reading)
  const inPlace = unread && listUnreadInPlace ? inPlaceWhateverTheWork(task, everyone, { limit, unavailable }) : []
  if (inPlace.length > 0) {
    return {
      executionMode,
      location,
      matches: inPlace,
      hint: unreadInPlaceHint(
        reading,
        executionMode,
        location!,
        languageIn(directoryIndexOf(everyone), query) !== undefined
      )
    }
  }
  return {
    executionMode,
    location,
    matches,
    hint:
      refused !== undefined
        ? refusedHint(refused, best)
        : best === undefined
          ? unavailable !== undefined && unavailable.size > 0 && rankTop(task, everyone, { limit: 0 }).eligible > 0
            ? "Nobody who could take this task is taking offers right now (participants can switch offers off for a while). Try again later, or describe the task so that others can take it."
            : noMatchHint(executionMode, location, everyone, unread && listUnreadInPlace ? reading : undefined)
          : unspokenLanguages.length > 0
            ? `Weak matches only: this task asks for work in ${unspokenLanguages.join(", ")}, and nobody listed works in it; likely nobody here does. Check them before offering the task.`
            : onlyInReturns(best, terms)
              ? "Weak matches only: no participant's discipline, tags or capabilities match this task; those listed only mention its words in what they deliver. Check them before offering the task, or describe the skill it needs in other words."
              : onlyByVerb(best, terms)
                ? `Weak matches only: those listed share nothing with this task but the verb (${best.matched.join(", ")}), which says what is done, not the skill it takes; nobody's work was shown to match the rest. Check them before offering the task, or describe the skill it needs in other words.`
                : offDiscipline(best, terms)
                  ? `Weak matches only: the best share a word or two of this task (${best.matched.join(", ")}) but not their discipline, and nobody's discipline matches most of it; likely nobody here does this work. Check them before offering the task, or describe the skill it needs in other words.`
                  : undefined
  }
}

/** Why the one whose work fits best is not listed: their own boundary rules the task out. */
const refusedHint = (refused: RankedParticipant, best: RankedParticipant | undefined) =>
  `${refused.participant.name} (${refused.participant.slug}), whose work fits this task best, rules it out: "${refused.participant.boundary}". ` +
  (best === undefined
    ? "Nobody else in the catalogue can take it. Change what the task asks if their boundary allows another form of it."
    : "Those listed match it less well: check them before offering the task.")

/** The weights, in a participant's profile, of the task's keys their work has. */
const sharedWeights = (match: RankedParticipant, query: ReadonlyArray<Term>) => {
  const { weights } = profileOf(match.participant)
  return query.flatMap(({ key }) => {
    const weight = weights.get(key)
    return weight === undefined ? [] : [{ key, weight }]
  })
}

/**
 * Whether the best match is off its discipline: none of the task's keys is in their discipline
 * or tags, and they share under half of its keys (the task is mostly work they do not do).
 */
const offDiscipline = (match: RankedParticipant, query: ReadonlyArray<Term>) => {
  const shared = sharedWeights(match, query)
  const asked = query.filter(({ key }) => !isClockKey(key)).length
  return shared.every(({ weight }) => weight < 3) && 2 * shared.length < asked
}

/**
 * The languages a task asks its work in (`languagesAsked`) as the task writes them, when none of
 * those listed has any of them in their record: a Korean contract for translators of Japanese and
 * Spanish.
 */
const unspoken = (matches: ReadonlyArray<RankedParticipant>, query: ReadonlyArray<Term>): ReadonlyArray<string> => {
  const languages = languagesAsked(query)
  if (languages.some((key) => matches.some((m) => profileOf(m.participant).weights.has(key)))) return []
  return query.filter(({ key }) => languages.includes(key)).map(({ word }) => word)
}

/** Whether the best match shares only skill-less verbs with the task ("file", "write", "fix"). */
const onlyByVerb = (match: RankedParticipant, query: ReadonlyArray<Term>) =>
  sharedWeights(match, query).every(({ key }) => isSkillLessVerb(key))

/** Whether a participant matched only through what they deliver (`returns`), not their work. */
const onlyInReturns = (match: RankedParticipant, query: ReadonlyArray<Term>) =>
  sharedWeights(match, query).every(({ weight }) => weight <= 1)

/**
 * Why a search found nobody: nobody works in the place it names, or its work could not be read
 * (`unread`, when given), or nobody's work matches it.
 */
const noMatchHint = (
  mode: ExecutionMode | null,
  location: string | null,
  everyone: ReadonlyArray<ParticipantRecord>,
  unread?: WorkReading
): string =>
  location !== null && participantsIn(directoryIndexOf(everyone), location).size === 0
    ? `Nobody in the catalogue works in ${location}, so nobody can take this task there. If it can be done online, say so (e.g. "remotely"); the places participants work in are listed by GET /api/public/v1/participants.`
    : unread !== undefined
      ? `${notRead(unread)} Nobody is listed: ${location === null ? "for work bound to no place, anyone listed would be a guess" : `nobody in ${location} can take it${mode === null ? "" : ` as a ${mode} task`} (by their task type, their boundaries or their availability)`}. ${rewrite}`
      : `Nobody in the catalogue can take this task${mode === null ? "" : ` (${mode}${location === null ? "" : `, in ${location}`})`}: no participant's discipline, tags, capabilities or returns match it, or their boundaries rule it out. Describe the skill it needs in other words, or browse GET /api/public/v1/participants?q=…`

/** What a hint says of a request whose work could not be read (`isUnread`). */
const notRead = (reading: WorkReading) =>
  `This request's work could not be read: none of its words (${reading.unread.slice(0, 5).join(", ")}) is one the service's vocabulary or any participant's record has. It may be written in a language the service does not read, or name work nobody here does.`

const rewrite =
  'Describe the work in other words, naming the skill it takes (in English if you can: "deliver a parcel", "inspect an apartment", "translate a website").'

/**
 * The hint of a search that lists the people of a place because its work could not be read: who
 * they are, that they are not matched to the work, and that the service would not offer them
 * the task as written (they are below the one threshold).
 */
const unreadInPlaceHint = (reading: WorkReading, mode: ExecutionMode | null, location: string, byLanguage: boolean) =>
  `${notRead(reading)} Listed instead, as weak matches: the participants who work in ${location}${mode === null ? "" : ` and take ${mode} tasks`}, not ranked by their work${byLanguage ? " (those whose record names the request's language first)" : ""}. None is shown to do this work, so a task submitted as written would be offered to nobody and declined with no_match. Check them, or ${rewrite.charAt(0).toLowerCase()}${rewrite.slice(1)}`
