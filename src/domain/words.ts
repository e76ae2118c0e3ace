/**
 * How matching reads a text: accents folded, lower-cased, split into words, stop words dropped,
 * each word reduced to a key — its Porter stem, then the field's synonym group — so that
 * "photographer", "photography" and "pictures" meet, as do "transcribed" and "transcription",
 * "Montréal" and "Montreal". Pure and English-only by design (docs/decisions/relevance.md).
 */
import { memoized } from "../read_cache.ts"

/** Lower-cased, accents and other combining marks removed (NFD), so "Montréal" reads "montreal". */
export const fold = (text: string): string =>
  // Most words are ASCII, where folding is lower-casing: NFD and the replacements below were most
  // of a preflight's ranking time when run on every text (measured).
  nonAscii.test(text)
    ? stripMarks(text)
        .toLowerCase()
        // Letters NFD does not decompose.
        .replace(/[øœæßłđı]/g, (c) => foldedLetters[c] ?? c)
    : text.toLowerCase()

/** Anything but printable ASCII and the usual blanks: such a text takes the Unicode path (always correct). */
const nonAscii = /[^ -~\t\n\r]/

/** Accents and other combining marks removed (NFD), case kept: "São" reads "Sao". */
export const stripMarks = (text: string): string =>
  nonAscii.test(text) ? text.normalize("NFD").replace(/\p{M}+/gu, "") : text

const foldedLetters: Record<string, string> = { ø: "o", œ: "oe", æ: "ae", ß: "ss", ł: "l", đ: "d", ı: "i" }

/**
 * A text's words as written: runs of letters, marks and digits. Marks stay inside their word
 * (folding strips them), so "Montre\u0301al" written decomposed is one word, as "Montréal" is.
 */
export const splitWords = (text: string): ReadonlyArray<string> =>
  text.split(nonAscii.test(text) ? /[^\p{L}\p{M}\p{N}]+/u : /[^A-Za-z0-9]+/).filter(Boolean)

/** A text's words as written (accents stripped, case kept) and folded, in step. */
export interface TextWords {
  readonly written: ReadonlyArray<string>
  readonly folded: ReadonlyArray<string>
}

/**
 * A text read once into words, for everything matching asks of it: its terms (`termsOfWords`)
 * and the places it names (places.ts) read the same words.
 */
export const readWords = (text: string): TextWords => {
  const written: Array<string> = []
  const folded: Array<string> = []
  for (const word of splitWords(text)) {
    const plain = stripMarks(word)
    // A word of marks alone is no word.
    if (plain === "") continue
    written.push(plain)
    folded.push(fold(plain))
  }
  return { written, folded }
}

/** The folded words of a text, in order, with repeats. */
export const wordsOf = (text: string): ReadonlyArray<string> => readWords(text).folded

/**
 * Words that say nothing about the work: grammar, and what every request says ("need someone to",
 * "looking for a person"). Dropped before stemming.
 */
export const stopWords: ReadonlySet<string> = new Set(
  (
    "a an and any are as at be by can for from get got has have i in into is it its me my need needed needs of on or " +
    "our please some someone somebody anyone anybody that the their them then there these this those to up us we who " +
    "will with would you your want wanted task tasks person people human humans hire find able should must one two " +
    "looking look help do does done make sure just also very via per each every all than more most about over " +
    "here what which when where while how why whether it's its let lets"
  ).split(" ")
)

/** A text's distinct keys, each with the first word that gave it (what `matched` reports). */
export interface Term {
  readonly key: string
  readonly word: string
}

/** Matching reads at most this many terms of a text: a query is a description, not a document. */
const maxTerms = 64

/** The distinct keys of a text, in order of first appearance, without stop words. */
export const termsOf = (text: string): ReadonlyArray<Term> => termsOfWords(wordsOf(text))

/** `termsOf` over a text's folded words, read already. */
export const termsOfWords = (words: ReadonlyArray<string>): ReadonlyArray<Term> => {
  const out: Array<Term> = []
  const seen = new Set<string>()
  for (const word of words) {
    if (word.length < 2 || stopWords.has(word)) continue
    const key = keyOf(word)
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ key, word })
    if (out.length >= maxTerms) break
  }
  return out
}

/** Just the keys of `termsOf`. */
export const keysOf = (text: string): ReadonlyArray<string> => termsOf(text).map((t) => t.key)

/** A folded word's key: its stem, or its synonym group's when it has one. */
export const keyOf = (word: string): string => {
  const stem = stemOf(word)
  return synonymOf.get(stem) ?? stem
}

/**
 * British spellings as American before stemming (notarise/notarize, digitise, localisation,
 * analyse), so both spellings share a stem.
 */
const americanOf = (word: string) =>
  word.length < 6 ? word : word.replace(/is(e|ed|es|ing|er|ers|ation|ations)$/, "iz$1").replace(/yse(s|d)?$/, "yze$1")

/**
 * Porter's stem of a folded word, remembered (vocabularies are small and repeat; at most 100,000
 * words are kept, src/read_cache.ts).
 */
export const stemOf = memoized(
  (word: string): string => (/^[a-z]+$/.test(word) ? porter(americanOf(word)) : word),
  100_000
)

/**
 * The field's synonyms: each group's words share the key of its first. Groups are of words
 * agents and participants use for the same work; related but distinct work (translation and
 * interpretation, transcription and captioning) stays apart.
 */
const synonymGroups: ReadonlyArray<ReadonlyArray<string>> = [
  [
    "photo",
    "photos",
    "photograph",
    "photographs",
    "photographer",
    "photographers",
    "photography",
    "photographing",
    "photographic",
    "picture",
    "pictures",
    "pic",
    "pics",
    "snapshot",
    "shoot",
    "shoots",
    "shot",
    "shots"
  ],
  ["transcription", "transcribe", "transcribed", "transcribing", "transcriber", "transcript", "transcripts"],
  ["translation", "translate", "translated", "translating", "translator", "translators"],
  ["interpretation", "interpret", "interpreter", "interpreters", "interpreting", "interpreted"],
  [
    "courier",
    "couriers",
    "couriered",
    "delivery",
    "deliveries",
    "deliver",
    "delivered",
    "delivering",
    "pickup",
    "pick",
    "messenger",
    "carriage",
    "carry",
    "dropoff"
  ],
  ["notary", "notarize", "notarized", "notarization", "notarial", "notarizing"],
  ["repair", "repairs", "fix", "fixes", "fixing", "mend"],
  ["assembly", "assemble", "assembled", "assembling"],
  ["inspection", "inspect", "inspector", "inspectors", "inspecting"],
  ["survey", "surveys", "surveyor", "surveying", "enumeration", "enumerator", "poll", "questionnaire"],
  ["caption", "captions", "captioning", "subtitle", "subtitles", "subtitling", "subtitled"],
  ["proofread", "proofreading", "proofreader", "copyedit", "copyediting", "copyeditor"],
  ["edit", "editing", "edited", "editor"],
  ["label", "labelling", "labeling", "annotation", "annotate", "annotating", "annotator", "tagging"],
  ["bookkeeping", "bookkeeper", "accounting", "accountant", "ledger"],
  ["illustration", "illustrate", "illustrator", "drawing"],
  ["icon", "icons", "iconography"],
  ["voice", "voiceover", "narration", "narrator", "narrate"],
  ["localization", "localize", "localized", "l10n"],
  ["moderation", "moderate", "moderator", "moderating"],
  ["accessibility", "accessible", "a11y"],
  ["verification", "verify", "verified", "verifying"],
  ["vehicle", "vehicles", "car", "cars", "automobile"],
  ["scooter", "scooters", "escooter", "bike", "bikes", "bicycle", "micromobility"],
  ["apartment", "flat", "house", "property", "properties", "rental", "rentals"],
  ["store", "stores", "shop", "shops", "supermarket", "supermarkets", "retail", "retailer"],
  ["sample", "samples", "sampling"],
  ["interview", "interviews", "interviewing", "interviewer"],
  ["research", "researcher", "researching"],
  ["fact", "facts", "factcheck", "factchecking"],
  ["testing", "test", "tests", "tester", "tested"],
  ["audit", "audits", "auditing", "auditor"],
  ["documentation", "docs"],
  ["spreadsheet", "spreadsheets", "excel", "sheets"],
  ["event", "events", "conference", "conferences", "trade", "expo"]
]

// Porter's algorithm (M.F. Porter, 1980), as published: five steps of suffix rules, each guarded
// by the measure of what remains. Written out here rather than taken from a package: it is short,
// has no moving parts, and the same code runs on both databases' behalf.

const isConsonant = (w: string, i: number): boolean => {
  const c = w[i]
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false
  if (c === "y") return i === 0 || !isConsonant(w, i - 1)
  return true
}

/** The number of vowel–consonant sequences in `w`: [C](VC)^m[V]. */
const measure = (w: string): number => {
  let m = 0
  let i = 0
  while (i < w.length && isConsonant(w, i)) i++
  while (i < w.length) {
    while (i < w.length && !isConsonant(w, i)) i++
    if (i >= w.length) break
    while (i < w.length && isConsonant(w, i)) i++
    m++
  }
  return m
}

const hasVowel = (w: string) => {
  for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true
  return false
}

const endsDoubleConsonant = (w: string) =>
  w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1)

/** consonant–vowel–consonant at the end, the last not w, x or y (hop, not hoop). */
const endsCvc = (w: string) =>
  w.length >= 3 &&
  isConsonant(w, w.length - 3) &&
  !isConsonant(w, w.length - 2) &&
  isConsonant(w, w.length - 1) &&
  !"wxy".includes(w[w.length - 1]!)

type Rule = readonly [suffix: string, replacement: string]

/** The longest matching suffix of `rules` replaced when what precedes it passes `when`. */
const applyRules = (w: string, rules: ReadonlyArray<Rule>, when: (stem: string) => boolean): string => {
  for (const [suffix, replacement] of rules) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, w.length - suffix.length)
      return when(stem) ? stem + replacement : w
    }
  }
  return w
}

const byLength = (rules: ReadonlyArray<Rule>) => [...rules].sort((a, b) => b[0].length - a[0].length)

const step2Rules = byLength([
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"]
])

const step3Rules = byLength([
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""]
])

const step4Suffixes = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize"
].sort((a, b) => b.length - a.length)

const porter = (word: string): string => {
  if (word.length <= 2) return word
  let w = word
  // Step 1a: plurals.
  if (w.endsWith("sses")) w = w.slice(0, -2)
  else if (w.endsWith("ies")) w = w.slice(0, -2)
  else if (!w.endsWith("ss") && w.endsWith("s")) w = w.slice(0, -1)
  // Step 1b: -eed, -ed, -ing.
  if (w.endsWith("eed")) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1)
  } else {
    const suffix = w.endsWith("ed") ? "ed" : w.endsWith("ing") ? "ing" : undefined
    if (suffix !== undefined && hasVowel(w.slice(0, -suffix.length))) {
      w = w.slice(0, -suffix.length)
      if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e"
      else if (endsDoubleConsonant(w) && !"lsz".includes(w[w.length - 1]!)) w = w.slice(0, -1)
      else if (measure(w) === 1 && endsCvc(w)) w += "e"
    }
  }
  // Step 1c: y → i after a vowel somewhere.
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`
  // Steps 2 and 3: double and single suffixes.
  w = applyRules(w, step2Rules, (stem) => measure(stem) > 0)
  w = applyRules(w, step3Rules, (stem) => measure(stem) > 0)
  // Step 4: suffixes dropped when enough remains (-ion only after s or t).
  for (const suffix of step4Suffixes) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, w.length - suffix.length)
      if (measure(stem) > 1 && (suffix !== "ion" || stem.endsWith("s") || stem.endsWith("t"))) w = stem
      break
    }
  }
  // Step 5: a final -e, and a double l.
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1)
    const m = measure(stem)
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem
  }
  if (measure(w) > 1 && w.endsWith("ll")) w = w.slice(0, -1)
  return w
}

// Built last: it stems its words, so Porter's tables above must exist first.
const synonymOf: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>()
  for (const group of synonymGroups) {
    const key = stemOf(group[0]!)
    for (const word of group) map.set(stemOf(americanOf(word)), key)
  }
  return map
})()

/**
 * Verbs that say what is done to something, not what skill it takes: "file my tax return", "write
 * a compiler backend", "fix a gas leak". A participant who shares only such a verb with a task
 * ("file" in a researcher's "file a records request") has not been shown to do that work. Kept
 * as keys (stems), so every form of the verb counts.
 */
export const skillLessVerbs: ReadonlySet<string> = new Set(
  [
    "do",
    "make",
    "get",
    "take",
    "give",
    "put",
    "set",
    "send",
    "bring",
    "check",
    "fix",
    "file",
    "write",
    "create",
    "prepare",
    "handle",
    "provide",
    "produce",
    "run",
    "help",
    "go",
    "come",
    "keep",
    "start",
    "finish"
  ].map((verb) => keyOf(verb))
)
