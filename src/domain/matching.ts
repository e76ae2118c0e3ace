/**
 * Matching tasks to participants over a whole directory: who can take a task and how relevant
 * each is, by the rules of `matching_rules.ts`, answered through an index of the directory
 * (`directoryIndexOf`) so that a task costs what its words and its place match, not the
 * directory's size. Also reads a free-text task's mode and place, and explains a task nobody can
 * take. Pure: no external model, no I/O, the same answer on either database. Used by preflight
 * feasibility, POST /search and the dispatcher's offers (docs/decisions/relevance.md).
 */
import { cachedPerObject, immutableKey, type VersionedCache, versionedCache } from "../read_cache.ts"
import {
  asksForWork,
  confiningPlaces,
  coverageOf,
  doesTheWork,
  emphasis,
  idfOf,
  isEvidence,
  isPlausible,
  placeFilterOf,
  plausibleEvidence,
  profileOf,
  profileWith,
  queryOf,
  type RankedParticipant,
  ranked,
  refuses,
  rememberingReader,
  scoredWith,
  servingTypes,
  type TaskProfile
} from "./matching_rules.ts"
import type { ParticipantRecord } from "./participant.ts"
import {
  isWorldCity,
  type KnownPlaces,
  knownPlaces,
  type Place,
  placesNamedIn,
  placesOfLocation,
  worldDisplay
} from "./places.ts"
import type { ExecutionMode } from "./task_draft/execution_mode.ts"
import { fold, isWorkKey, modeOfKey, skillLessVerbs, type Term, termsOf } from "./words.ts"

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
  const excluded = new Set(options.excluding ?? [])
  const unavailable =
    options.unavailable !== undefined && options.unavailable.size > 0 ? options.unavailable : undefined
  const serving = task.executionMode === undefined ? undefined : servingTypes[task.executionMode]
  // Whether each task type (by its code in the index) can serve the task.
  const serves = index.types.map((type) => (serving === undefined || serving.includes(type) ? 1 : 0))
  const location = placeFilterOf(task)
  const placed = location === undefined ? undefined : participantsIn(index, location)
  const { points, evidence, doesWork, inPlace, coverageAt } = index.scratch
  const asksWork = asksForWork(query)
  if (placed !== undefined) for (const i of placed) inPlace[i] = 1
  // Only the few kept are scored in full, from their own profiles.
  const scoreAt = (i: number) => scoredWith(everyone[i]!, profileOf(everyone[i]!), query, keys, index.idf)
  // Whether each distinct boundary of the directory refuses the task: 0 not known yet, 1 yes, 2 no.
  const refusing = new Uint8Array(index.boundaries.length)
  const refusedByBoundary = (i: number) => {
    const b = index.boundaryOf[i]!
    if (b < 0) return false
    if (refusing[b] === 0) refusing[b] = refuses(index.boundaries[b]!, keys) ? 1 : 2
    return refusing[b] === 1
  }
  const takesBut = (i: number) =>
    serves[index.typeOf[i]!] === 1 &&
    (placed === undefined || inPlace[i] === 1) &&
    (excluded.size === 0 || !excluded.has(everyone[i]!.slug)) &&
    (unavailable === undefined || !unavailable.has(everyone[i]!.slug))
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
    // discipline coverage, then slug order.
    // Small whole numbers: equal fractions divide to the same number, distinct ones far apart.
    const precedes = (a: number, b: number) => {
      if (points[a] !== points[b]) return points[a]! > points[b]!
      const ca = coverage(a)
      const cb = coverage(b)
      return ca !== cb ? ca > cb : index.rank[a]! < index.rank[b]!
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

// The directory's index ---------------------------------------------------------------------------

/** The participants a location confines a task to (see `confiningPlaces`). */
const participantsIn = (index: DirectoryIndex, location: string): ReadonlySet<number> => {
  const found = new Set<number>()
  for (const place of confiningPlaces(location, index.known, index.cities)) {
    for (const i of index.places.get(place) ?? []) found.add(i)
  }
  return found
}

/** How many task texts a directory's index remembers the terms of. */
const rememberedQueries = 1024

/**
 * `queryOf` over a directory's places, remembered by text: a task's text is read at preflight, at
 * submission and by the dispatcher's offer (and again at every re-match), each time the same
 * words against the same directory. Reading it was a third of a submission's ranking (measured
 * in a profile of POST /tasks). The memory is the index's, so it goes with the directory's
 * snapshot; the text is the whole key (`immutableKey`, src/read_cache.ts).
 */
const queryIn = (index: DirectoryIndex, text: string): ReadonlyArray<Term> => {
  let query = index.queries.get(text, immutableKey)
  if (query === undefined) {
    query = queryOf(text, index.known)
    index.queries.set(text, immutableKey, query)
  }
  return query
}

/** The participants who use one key, each with the weight of its field in their record. */
interface Posting {
  readonly ids: Int32Array
  readonly weights: Uint8Array
}

/**
 * A whole directory indexed for matching, worked out once per snapshot (its array of records is
 * immutable and reused until the directory changes). Positions are indexes into that array.
 */
interface DirectoryIndex {
  /** Each participant's discipline keys (shared by records with the same discipline). */
  readonly disciplineOf: ReadonlyArray<ReadonlyArray<string>>
  readonly postings: ReadonlyMap<string, Posting>
  /** A key's weight in this directory (`idfOf`). */
  readonly idf: (key: string) => number
  /** By place: who has it among their location's places. */
  readonly places: ReadonlyMap<Place, ReadonlyArray<number>>
  readonly known: KnownPlaces
  /** A task text's terms in this directory (`queryOf`), remembered: see `queryIn`. */
  readonly queries: VersionedCache<string, ReadonlyArray<Term>>
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
    queries: versionedCache({ budget: rememberedQueries }),
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

/**
 * Where a free-text task is, if it names a place: a participant's city first (as that
 * participant's location reads, "Berlin, Germany"), then a city of the world ("Madrid, Spain":
 * nobody may be there, and that is the answer), then a region or country, the catalogue's
 * spelling first. Null when it names none.
 */
export const inferLocationIn = (text: string, everyone: ReadonlyArray<ParticipantRecord>): string | null => {
  const index = directoryIndexOf(everyone)
  const named = placesNamedIn(text, index.known)
  for (const place of named) {
    const location = index.locationOfCity.get(place)
    if (location !== undefined) return location
  }
  for (const place of named) if (isWorldCity(place)) return worldDisplay(place)!
  for (const place of named) {
    const shown = index.regionAsWritten.get(place) ?? worldDisplay(place)
    if (shown !== undefined) return shown
  }
  return null
}

/*
 * Cues of where the work happens. Physical: going somewhere, handling things, being there in
 * person. Digital: working on files, software and the web, or saying "online"/"remote". Nouns of
 * deliverables (photos, a report, a PDF) are neither: every physical task sends something back.
 */
const physicalCues = new RegExp(
  [
    "in[ -]person",
    "on[ -]?site",
    "in[ -]home",
    "door[ -]to[ -]door",
    "face[ -]to[ -]face",
    "field ?work",
    "on the ground",
    "on the street",
    "visit(?:s|ing|ed)?",
    "go(?:ing)? to",
    "drive to",
    "drive[ -]tests?",
    "walk[ -]around",
    // Not "deliver" alone: every deliverable is delivered ("deliver a CSV by Friday").
    "hand[ -]deliver",
    "couriers?",
    "pick(?:ing)? up",
    "pickup",
    "drop(?:ping)? off",
    "photograph(?:ing)?",
    "take (?:\\w+ ){0,2}(?:photos|pictures|photographs)",
    "inspect(?:ion|ing)?",
    "attend(?:ing)?",
    "measure(?:ments?)?",
    "install(?:ation)?",
    "assembl(?:e|y|ing)",
    "mount(?:ing)?",
    "set up (?:the |a |our )?(?:wi-?fi|router|network|printer)",
    "queu(?:e|ing) (?:at|in|outside|for)",
    "queueing",
    "stand in line",
    "notar(?:y|i[sz]e|i[sz]ed|i[sz]ation)",
    "mystery shop(?:per|ping)?",
    "scout(?:ing)?",
    "unbox(?:ing)?",
    "collect (?:\\w+ ){0,2}samples?",
    "water samples?",
    "babysit(?:ting)?",
    "dog",
    "piano",
    "meter",
    "appliances?",
    "roof(?:top)?",
    "drone",
    "gps",
    "trade show",
    "booths?",
    "shelf",
    "shelves",
    "supermarkets?",
    "stores",
    "shops",
    "restaurants?",
    "venues?",
    "kitchen",
    "farm",
    "lake",
    "river",
    "bench[ -]test(?:ing)?",
    "wiring",
    "plumb(?:ing|er)",
    "electrician",
    "handyman",
    "(?:at|in|to) (?:the |a |an |our |their |my |his |her )?(?:[\\w']+ ){0,2}(?:office|court|house|home|hotel|appointment|clinic|hospital|embassy|consulate|warehouse|factory|address|site|station|airport|bank|shop|store|conference|meeting|fair|expo|event|festival|wedding)"
  ].join("|")
)
const digitalCues = new RegExp(
  [
    "online",
    // "a remote village" is far away, not online.
    "remote(?:ly)?(?! (?:villages?|areas?|regions?|towns?|locations?|islands?|parts?|communit(?:y|ies)|sites?|farms?))",
    "virtual(?:ly)?",
    "over (?:video|zoom|the phone)",
    "by (?:video|email|phone)",
    "video call",
    "zoom",
    "websites?",
    "phone interviews?",
    "video calls?",
    "web",
    "apps?",
    "android",
    "ios",
    "software",
    "code",
    "compiler",
    "api",
    "markdown",
    "spreadsheets?",
    "database",
    "translat(?:e|ion|ions|or|ing|ed)",
    "transcri(?:be|bed|bing|ption|pt)",
    "subtitl(?:e|es|ing)",
    "captions?",
    "proofread(?:ing)?",
    "copy[ -]?edit(?:ing)?",
    "retouch(?:ing)?",
    "digiti[sz]e",
    "data entry",
    "deduplicate",
    "label(?:l?ing)?",
    "annotat(?:e|ion)",
    "bounding box(?:es)?",
    "moderat(?:e|ion)",
    "search results",
    "fact[ -]check(?:ing)?",
    "bookkeeping",
    "reconcil(?:e|iation)",
    "xero",
    "vector",
    "icons?",
    "illustrat(?:e|ion)",
    "voice[ -]?over",
    "desk research",
    "research",
    "market sizing",
    "wcag",
    "screen reader",
    "usability",
    "documentation"
  ].join("|")
)
const bothCues =
  /\b(?:remote(?:ly)? or (?:on[ -]?site|in[ -]person)|(?:on[ -]?site|in[ -]person) or (?:remote(?:ly)?|online|over video|by video)|hybrid|partly (?:remote|online|on[ -]?site))\b/
const wordBounded = (cues: RegExp) => new RegExp(`\\b(?:${cues.source})\\b`)
const physical = wordBounded(physicalCues)
const digital = wordBounded(digitalCues)
/** "online shop", "web store": a place on the web, not a premises to visit. */
const onlinePremises = /\b(?:online|web|e-?commerce) (?:shops?|stores?|sellers?|marketplaces?)\b/g

/**
 * The execution mode a free-text task makes clear, or null: both kinds of cue (or an explicit
 * "remote or on site") → hybrid; only on-site cues → physical; only online cues → digital; none
 * → null, and then search filters by no mode at all (a wrong guess would hide the only fitting
 * person). Cues are English phrases (above) and, in any language, the concepts the text names
 * (src/domain/concepts/work.ts): work done on site (a visit, an inspection, an errand, a
 * delivery) or online (translation, data entry, a file sent back). A task with no cue either way
 * that names a place (`namesPlace`) is done there: physical.
 */
export const inferExecutionMode = (text: string, namesPlace = false): ExecutionMode | null => {
  const folded = fold(text)
  if (bothCues.test(folded)) return "hybrid"
  let onSite = physical.test(folded.replace(onlinePremises, " online "))
  let online = digital.test(folded)
  for (const { key } of termsOf(text)) {
    const mode = modeOfKey(key)
    if (mode === "physical") onSite = true
    else if (mode === "digital") online = true
  }
  if (onSite && online) return "hybrid"
  if (onSite) return "physical"
  if (online) return "digital"
  return namesPlace ? "physical" : null
}

// Search ------------------------------------------------------------------------------------------

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
  unavailable?: ReadonlySet<string>
): DirectorySearch => {
  const named = inferLocationIn(query, everyone)
  const executionMode = inferExecutionMode(query, named !== null)
  const location = executionMode === "digital" ? null : named
  const { best: matches, refused } = rankTop(
    { executionMode: executionMode ?? undefined, location: location ?? undefined, text: query },
    everyone,
    { limit, unavailable }
  )
  const best = matches[0]
  const terms = queryIn(directoryIndexOf(everyone), query)
  return {
    executionMode,
    location,
    matches,
    hint:
      refused !== undefined
        ? refusedHint(refused, best)
        : best === undefined
          ? unavailable !== undefined &&
            unavailable.size > 0 &&
            rankTop(
              { executionMode: executionMode ?? undefined, location: location ?? undefined, text: query },
              everyone,
              {
                limit: 0
              }
            ).eligible > 0
            ? "Nobody who could take this task is taking offers right now (participants can switch offers off for a while). Try again later, or describe the task so that others can take it."
            : noMatchHint(executionMode, location, everyone)
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
  return shared.every(({ weight }) => weight < 3) && 2 * shared.length < query.length
}

/** Whether the best match shares only skill-less verbs with the task ("file", "write", "fix"). */
const onlyByVerb = (match: RankedParticipant, query: ReadonlyArray<Term>) =>
  sharedWeights(match, query).every(({ key }) => skillLessVerbs.has(key))

/** Whether a participant matched only through what they deliver (`returns`), not their work. */
const onlyInReturns = (match: RankedParticipant, query: ReadonlyArray<Term>) =>
  sharedWeights(match, query).every(({ weight }) => weight <= 1)

/** Why a search found nobody: nobody works in the place it names, or nobody's work matches it. */
const noMatchHint = (
  mode: ExecutionMode | null,
  location: string | null,
  everyone: ReadonlyArray<ParticipantRecord>
): string =>
  location !== null && participantsIn(directoryIndexOf(everyone), location).size === 0
    ? `Nobody in the catalogue works in ${location}, so nobody can take this task there. If it can be done online, say so (e.g. "remotely"); the places participants work in are listed by GET /api/public/v1/participants.`
    : `Nobody in the catalogue can take this task${mode === null ? "" : ` (${mode}${location === null ? "" : `, in ${location}`})`}: no participant's discipline, tags, capabilities or returns match it, or their boundaries rule it out. Describe the skill it needs in other words, or browse GET /api/public/v1/participants?q=…`

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
