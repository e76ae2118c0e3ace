/**
 * How matching reads a text, in any language: accents folded, lower-cased, split into words (runs
 * of a script written without spaces kept apart from the rest), stop words of the languages
 * agents write in dropped, each word — or phrase — read as the concept it names (the concept
 * layer, src/domain/concepts/work.ts and trades.ts: "Übersetzung", "traduction" and
 * "translation" are one key; compounds read part by part), and otherwise reduced to its Porter
 * stem, so that "transcribed" and "transcription" meet, as do "Montréal" and "Montreal". Pure
 * (docs/decisions/relevance.md).
 */
import { madeOnce, memoized } from "../read_cache.ts"
import { ghostwritten } from "./bylines.ts"
import type { Concept } from "./concepts/concept.ts"
import { trades } from "./concepts/trades.ts"
import { concepts } from "./concepts/work.ts"
import { americanOf, stemOf } from "./stemmer.ts"
import { stopWords } from "./stop_words.ts"
import { uninflected } from "./word_endings.ts"

/** Lower-cased, accents and other combining marks removed (NFD), so "Montréal" reads "montreal". */
export const fold = (text: string): string =>
  // Most words are ASCII, where folding is lower-casing: NFD and the replacements below were most
  // of a preflight's ranking time when run on every text (measured).
  nonAscii.test(text)
    ? stripMarks(text)
        .toLowerCase()
        // Letters NFD does not decompose; Persian's and Urdu's forms of Arabic letters as Arabic
        // writes them ("برلین" is "برلين", Berlin; "کاتب" "كاتب"); Malayalam's word-final
        // consonants as the same consonant before an ending ("ബെർലിൻ", Berlin; "ബെർലിനിൽ", in Berlin).
        .replace(/[øœæßłđıیکىےൺൻർൽൾ]/g, (c) => foldedLetters[c] ?? c)
    : text.toLowerCase()

/** Anything but printable ASCII and the usual blanks: such a text takes the Unicode path (always correct). */
const nonAscii = /[^ -~\t\n\r]/

/** Accents and other combining marks removed (NFD), case kept: "São" reads "Sao". */
export const stripMarks = (text: string): string =>
  nonAscii.test(text) ? text.normalize("NFD").replace(/\p{M}+/gu, "") : text

const foldedLetters: Record<string, string> = {
  ø: "o",
  œ: "oe",
  æ: "ae",
  ß: "ss",
  ł: "l",
  đ: "d",
  ı: "i",
  ی: "ي",
  ک: "ك",
  ى: "ي",
  ے: "ي",
  ൺ: "ണ",
  ൻ: "ന",
  ർ: "ര",
  ൽ: "ല",
  ൾ: "ള"
}

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
  for (const word of splitWords(text).flatMap(scriptRuns)) {
    const plain = stripMarks(word)
    // A word of marks alone is no word.
    if (plain === "") continue
    written.push(plain)
    folded.push(fold(plain))
  }
  return { written, folded }
}

/** Scripts written without spaces between words: Han, kana, Hangul, Thai, Lao, Khmer, Burmese. */
const unspaced =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}"
const continuous = new RegExp(`[${unspaced}]`, "u")
const unspacedRun = new RegExp(`[${unspaced}\\p{M}ー]+|[^${unspaced}ー]+`, "gu")

/** Whether a word is in a script written without spaces (it is then read by its parts). */
export const isContinuous = (word: string) => nonAscii.test(word) && continuous.test(word)

/** A word split where it passes between a script written without spaces and any other ("台北usb"). */
const scriptRuns = (word: string): ReadonlyArray<string> =>
  isContinuous(word) ? (word.match(unspacedRun) ?? [word]) : [word]

/** The folded words of a text, in order, with repeats. */
export const wordsOf = (text: string): ReadonlyArray<string> => readWords(text).folded

/** A text's distinct keys, each with the first word that gave it (what `matched` reports). */
export interface Term {
  readonly key: string
  readonly word: string
}

/** Matching reads at most this many terms of a text: a query is a description, not a document. */
const maxTerms = 64

/** The distinct keys of a text, in order of first appearance, without stop words. */
export const termsOf = (text: string): ReadonlyArray<Term> => termsOfWords(wordsOf(text))

/** `termsOf` over a text's folded words, read already: phrases first, then each word's keys. */
export const termsOfWords = (words: ReadonlyArray<string>): ReadonlyArray<Term> => {
  const out: Array<Term> = []
  const seen = new Set<string>()
  const add = (key: string, word: string) => {
    if (seen.has(key) || out.length >= maxTerms) return
    seen.add(key)
    out.push({ key, word })
  }
  for (let at = 0; at < words.length && out.length < maxTerms; at++) {
    const word = words[at]!
    // A phrase may begin with a word that alone is grammar ("sur place", "a distancia").
    const phrase = phraseAt(words, at)
    if (phrase !== undefined) {
      add(phrase[1], words.slice(at, at + phrase[0]).join(" "))
      at += phrase[0] - 1
      continue
    }
    // A number counts what the work is done on ("12 stores", "200 photos"), not the work.
    if ((word.length < 2 && !isContinuous(word)) || stopWords.has(word) || isNumber(word)) continue
    for (const key of keysOfWord(word)) add(key, word)
  }
  return ghostwritten(vetted(builtApp(typedFromSpeech(rendered(out))), words), words)
}

/**
 * Typing out what was said is transcribing it ("Type out an interview", "type up a recording");
 * typing up forms or a list is data entry.
 */
const typedFromSpeech = (terms: Array<Term>): Array<Term> => {
  const dataEntry = conceptKey("data-entry")
  const at = terms.findIndex((t) => t.key === dataEntry && /^(?:typ|key)/.test(t.word))
  const key = conceptKey("transcription")
  if (at < 0 || !terms.some((t) => spokenKeys.has(t.key) || t.key === key)) return terms
  // Named already ("type up dictated notes"), transcribing is what the typing is.
  if (terms.some((t) => t.key === key)) return terms.filter((_, i) => i !== at)
  terms[at] = { key, word: terms[at]!.word }
  return terms
}
const spokenKeys: ReadonlySet<string> = new Set(["~interview", "~audio"])

/**
 * "Render" a text in or into a language is translating it ("Render our user guide in English");
 * without a language named, rendering is something else (an image, a 3D model).
 */
const rendered = (terms: Array<Term>): Array<Term> => {
  const at = terms.findIndex((t) => t.key === "render")
  if (at < 0 || !terms.some((t) => isLanguageKey(t.key)) || terms.some((t) => isLanguageWorkKey(t.key))) return terms
  const key = conceptKey("translation")
  if (terms.some((t) => t.key === key)) return terms
  terms[at] = { key, word: terms[at]!.word }
  return terms
}

/**
 * Building or developing an app or a website, and no other work named, is software development
 * ("Build us an iPhone app", "Develop a website for our bakery"): testing or auditing one is work
 * of its own ("Test the app our developers built").
 */
const builtApp = (terms: Array<Term>): Array<Term> => {
  const at = terms.findIndex((t) => t.key === "build" || t.key === codeKey)
  if (at < 0 || !terms.some((t) => t.key === appKey) || terms.some((t) => isWorkKey(t.key))) return terms
  terms[at] = { key: conceptKey("web-development"), word: terms[at]!.word }
  return terms
}
const codeKey = "~code"
const appKey = "~app"

/**
 * "Vet" is sourcing's only where what is sourced is named ("Vet garment factories", "vet three
 * vendors"): Swedish and Norwegian "vet" is "knows", Vietnamese "vết" a mark.
 */
const vetted = (terms: Array<Term>, words: ReadonlyArray<string>): Array<Term> => {
  const at = terms.findIndex((t) => t.key === sourcingKey && t.word === "vet")
  if (at < 0) return terms
  const sourced = words.some((w) => w !== "vet" && keysOfWord(w).some((key) => sourcedKeys.has(key)))
  return sourced ? terms : terms.filter((_, i) => i !== at)
}
const sourcingKey = "~sourcing"
const sourcedKeys: ReadonlySet<string> = new Set([sourcingKey, "~factory", "~product"])

/** Just the keys of `termsOf`. */
export const keysOf = (text: string): ReadonlyArray<string> => termsOf(text).map((t) => t.key)

/** A folded word's key: the concept it names, or its stem (see `keysOfWord`). */
export const keyOf = (word: string): string => keysOfWord(word)[0] ?? word

// The concept layer, read into tables.

/** A concept's key: apart from every stem (stems have no "~"). */
export const conceptKey = (concept: string) => `~${concept}`
/** A concept family's key. */
export const familyKey = (family: string) => `~~${family}`

interface Lexicon {
  /** English words as listed, first ("documentation" is not "document", though Porter makes them one stem). */
  readonly englishWords: ReadonlyMap<string, string>
  /** English words by Porter stem. */
  readonly english: ReadonlyMap<string, string>
  /** Words of other languages, matched as a word's beginning (or part of a compound), folded. */
  readonly prefixes: ReadonlyMap<string, string>
  /** Words matched only whole ("$" in the data). */
  readonly whole: ReadonlyMap<string, string>
  /** Phrases ("data-entry", "client-myster"): words joined by "-", the last matched as a beginning. */
  readonly phrases: ReadonlyMap<string, string>
  /** Entries in scripts written without spaces, matched anywhere in such a run. */
  readonly inside: ReadonlyArray<readonly [string, string]>
  readonly longest: number
  /** By concept key: its family's key and its mode. */
  readonly family: ReadonlyMap<string, string>
  readonly mode: ReadonlyMap<string, Concept["mode"]>
  /** The keys whose mode is of what work is about, not of the work or where it is (`Concept.mode`). */
  readonly topics: ReadonlySet<string>
  /** The keys of concepts that are kinds of work (`Concept.work`), shared by several disciplines or not. */
  readonly work: ReadonlySet<string>
  /** The keys of kinds of work of one discipline (`Concept.work` true): a task naming one asks for it. */
  readonly asked: ReadonlySet<string>
  /** The keys of work done in a language (`Concept.inLanguages`). */
  readonly inLanguages: ReadonlySet<string>
  /** By concept key: the keys of the kinds of work it takes in (`Concept.includes`). */
  readonly includes: ReadonlyMap<string, ReadonlyArray<string>>
  /** The keys of concepts that say where work happens (`Concept.saysWhere`). */
  readonly where: ReadonlySet<string>
}

// Made on first use (the first task or profile read), not at start-up, which would pay for it
// before any request needs it (docs/performance.md).
const lexicon = madeOnce((): Lexicon => {
  const englishWords = new Map<string, string>()
  const english = new Map<string, string>()
  const prefixes = new Map<string, string>()
  const whole = new Map<string, string>()
  const phrases = new Map<string, string>()
  const inside: Array<readonly [string, string]> = []
  const family = new Map<string, string>()
  const mode = new Map<string, Concept["mode"]>()
  const topics = new Set<string>()
  const work = new Set<string>()
  const asked = new Set<string>()
  const includes = new Map<string, ReadonlyArray<string>>()
  const inLanguages = new Set<string>()
  const where = new Set<string>()
  let longest = 0
  for (const entry of [...concepts, ...trades]) {
    const key = conceptKey(entry.concept)
    if (entry.family !== undefined) family.set(key, familyKey(entry.family))
    if (entry.mode !== undefined) mode.set(key, entry.mode)
    if (entry.mode !== undefined && entry.work === undefined && entry.saysWhere === undefined) topics.add(key)
    if (entry.work !== undefined) work.add(key)
    if (entry.work === true) asked.add(key)
    if (entry.includes !== undefined) includes.set(key, entry.includes.map(conceptKey))
    if (entry.inLanguages === true) inLanguages.add(key)
    if (entry.saysWhere === true) where.add(key)
    // The first concept to list a word keeps it.
    const put = (map: Map<string, string>, word: string) => {
      if (!map.has(word)) map.set(word, key)
    }
    for (const word of entry.en.split(" ")) {
      if (word.includes("-")) put(phrases, fold(word))
      else {
        put(englishWords, fold(word))
        put(english, stemOf(americanOf(fold(word))))
      }
    }
    for (const raw of (entry.stems ?? "").split(" ").filter(Boolean)) {
      const stem = fold(raw.replace(/\$$/, ""))
      if (isContinuous(stem)) inside.push([stem, key])
      else if (stem.includes("-")) put(phrases, stem)
      else if (raw.endsWith("$")) put(whole, stem)
      else {
        put(prefixes, stem)
        longest = Math.max(longest, stem.length)
      }
    }
  }
  // Longest first, so that a run's longer name wins ("内容审核" before "审核").
  inside.sort((a, b) => b[0].length - a[0].length)
  const named = new Set([...concepts, ...trades].map((entry) => conceptKey(entry.concept)))
  for (const [key, taken] of includes) {
    for (const one of taken) if (!named.has(one)) throw new Error(`${key} includes ${one}, which is no concept`)
  }
  return {
    englishWords,
    english,
    prefixes,
    whole,
    phrases,
    inside,
    longest,
    family,
    mode,
    topics,
    work,
    asked,
    includes,
    inLanguages,
    where
  }
})

/** Whether a key says where work happens (on site, online, a file sent back), not what work it is. */
export const saysWhereKey = (key: string): boolean => lexicon().where.has(key)

/** A key and the keys of the kinds of work it takes in (`Concept.includes`): how a profile reads it. */
export const withIncluded = (key: string): ReadonlyArray<string> => {
  const taken = lexicon().includes.get(key)
  return taken === undefined ? [key] : [key, ...taken]
}

/** The family a concept key belongs to, if any. */
export const familyOfKey = (key: string): string | undefined => lexicon().family.get(key)

/** Where the work a concept key names happens, if the concept says. */
export const modeOfKey = (key: string): Concept["mode"] => lexicon().mode.get(key)

/**
 * Whether a key's mode is of what work is about (solar panels, an app), which says where work
 * happens only when nothing else in a text does (`Concept.mode`).
 */
export const isTopicMode = (key: string): boolean => lexicon().topics.has(key)

/** Whether a key names work done in a language (`Concept.inLanguages`). */
export const isLanguageWorkKey = (key: string): boolean => lexicon().inLanguages.has(key)

/** Whether a key names a language (the concepts "lang-…"): English's is `englishKey`. */
export const isLanguageKey = (key: string): boolean => key.startsWith(conceptKey("lang-"))
export const englishKey = conceptKey("lang-english")

/** Whether a key names a kind of work (`Concept.work`): what is done, not what it is about. */
export const isWorkKey = (key: string): boolean => lexicon().work.has(key)

/**
 * Whether a key names one discipline's kind of work (`Concept.work` true), so that a task naming
 * it asks for that work; a kind of work several disciplines do ("shared") asks for none alone.
 */
export const isAskedWorkKey = (key: string): boolean => lexicon().asked.has(key)

/** The shortest beginning of a word that may name a concept: shorter ones match too much. */
const shortest = (word: string) => (/^[a-z]/.test(word) ? 4 : 3)

/** The longest entry of `prefixes` that `word` begins with at `from`, as [length, key]. */
const prefixAt = (word: string, from: number): readonly [number, string] | undefined => {
  const { longest, prefixes } = lexicon()
  for (let length = Math.min(longest, word.length - from); length >= shortest(word); length--) {
    const key = prefixes.get(word.slice(from, from + length))
    if (key !== undefined) return [length, key]
  }
  return undefined
}

/** Arabic's article and one-letter clitics ("والترجمة" is "ترجمة"): read the word without them too. */
const arabicClitics = /^(?:[وفبكل]?ال|لل|[وفب])(?=[\u0600-\u06FF]{3})/

/**
 * Hebrew's one-letter proclitics (and, in, to, the, from, that, as: "לצלם" is "to photograph"):
 * a word that begins no entry as written is read without one.
 */
const hebrewProclitic = /^[ובלהמשכ](?=[\u0590-\u05FF]{3})/

/**
 * Russian and Ukrainian verbal prefixes (folded, so "й" reads "и"): "сфотографировать" is
 * "фотографировать" done once, "отремонтировать" "ремонтировать". A Cyrillic word that begins no
 * entry as written is read without one, when what remains (four letters or more) begins an entry.
 */
const slavicPrefixes = [
  "пере",
  "пред",
  "роз",
  "раз",
  "рас",
  "под",
  "пид",
  "вид",
  "при",
  "про",
  "вы",
  "ви",
  "за",
  "на",
  "по",
  "до",
  "от",
  "об",
  "со",
  "с",
  "з",
  "у",
  "о"
]
const cyrillicWord = /^[\u0400-\u04FF]{6,}$/

/**
 * The same prefixes of the Slavic languages written in Latin letters (Polish, Czech, Slovak,
 * Croatian, Slovene; folded, so "prze" is also Czech "pře" and "roz" "rozs"): "sfotografować",
 * "przetłumaczyć", "zkontrolovat", "wydrukować", "nakreslit". Read off only a word that begins no
 * entry as written and names no English word, and only when what remains begins an entry of
 * another language's (the lexicon's `prefixes`) of five letters or more: English words
 * ("sprint", "position", "obtain") begin with the same letters, and a longer entry is one a
 * stray prefix does not meet by chance.
 */
const latinSlavicPrefixes = [
  "prze",
  "przy",
  "pred",
  "pod",
  "nad",
  "roz",
  "pri",
  "pro",
  "wy",
  "vy",
  "za",
  "po",
  "na",
  "do",
  "od",
  "ob",
  "ze",
  "ve",
  "we",
  "s",
  "z",
  "u",
  "o",
  "v",
  "w"
]
const latinWord = /^[a-z]{6,}$/
const afterLatinPrefix = 5

/** The longest entry a word begins once its Slavic verbal prefix is read off, as [length, key]. */
const afterSlavicPrefix = (word: string): readonly [number, string] | undefined => {
  const cyrillic = cyrillicWord.test(word)
  if (!cyrillic && !latinWord.test(word)) return undefined
  for (const prefix of cyrillic ? slavicPrefixes : latinSlavicPrefixes) {
    if (!word.startsWith(prefix) || word.length - prefix.length < (cyrillic ? 4 : afterLatinPrefix)) continue
    const found = prefixAt(word, prefix.length)
    if (found !== undefined && (cyrillic || found[0] >= afterLatinPrefix)) return [prefix.length + found[0], found[1]]
  }
  return undefined
}

/** `afterSlavicPrefix` for a Cyrillic word only (a Latin one is read so only once it names nothing else). */
const afterCyrillicPrefix = (word: string) => (cyrillicWord.test(word) ? afterSlavicPrefix(word) : undefined)

/**
 * Words this long are read part by part when whole they name no concept (German and Dutch
 * compounds); past the longest a compound is written, a word is no compound, and reading it part
 * by part would cost its length times the lexicon's longest entry.
 */
const compoundLength = 8
/**
 * Compounds are read part by part in Latin and Cyrillic script only: a long Greek, Arabic or Hebrew
 * word is one word (Greek "ορθογραφία", spelling, holds no "ράφι", a shelf).
 */
const compoundScript = /^[\p{Script=Latin}\p{Script=Cyrillic}]+$/u
const longestCompound = 40

/**
 * A folded word's keys: the concepts it names — as an English word by its stem, as a whole word,
 * as a word's beginning, or part by part in a compound or in a run of a script written without
 * spaces — or else its stem alone.
 */
export const keysOfWord = memoized((word: string): ReadonlyArray<string> => {
  if (isContinuous(word)) {
    // Longest entries first; the keys in the order the run names them, as words are read (the
    // first weighs most: `emphasis`).
    const found: Array<{ key: string; at: number }> = []
    let rest = word
    for (const [entry, key] of lexicon().inside) {
      const at = rest.indexOf(entry)
      if (at < 0) continue
      const seen = found.find((f) => f.key === key)
      if (seen === undefined) found.push({ key, at })
      else seen.at = Math.min(seen.at, at)
      rest = rest.replaceAll(entry, " ".repeat(entry.length))
    }
    return found.length > 0 ? found.sort((a, b) => a.at - b.at).map((f) => f.key) : [word]
  }
  const stem = stemOf(word)
  const plain = arabicClitics.test(word) ? word.replace(arabicClitics, "") : word
  // A letter that may be a clitic may also begin the word ("بازرسی", an inspection): read as written too.
  const first =
    prefixAt(plain, 0) ??
    (plain !== word ? prefixAt(word, 0) : undefined) ??
    (hebrewProclitic.test(word) ? prefixAt(word.slice(1), 0) : afterCyrillicPrefix(word))
  // A word as listed, or by its English stem — unless another language's entry matches more of
  // it than the stem keeps ("parcelles", plots of land, is not "parcel" by Porter's stem).
  const named =
    lexicon().englishWords.get(word) ??
    (first !== undefined && first[0] > stem.length ? undefined : lexicon().english.get(stem)) ??
    lexicon().whole.get(word) ??
    // A short word listed whole, inflected (Tamil's "கடையில்", Amharic's "በሱቅ").
    (first === undefined
      ? uninflected(word)
          .map((form) => lexicon().whole.get(form))
          .find(Boolean)
      : undefined)
  if (named !== undefined) return [named]
  // A Latin-script Slavic prefix, read off a word that names nothing as written.
  const prefixed = first ?? afterSlavicPrefix(word)
  if (prefixed !== first && prefixed !== undefined) return [prefixed[1]]
  const found: Array<string> = []
  if (first !== undefined) found.push(first[1])
  if (plain.length >= compoundLength && plain.length <= longestCompound && compoundScript.test(plain)) {
    // A compound's first part (or a prefix: "bi-lingual", "un-verifiable") has two letters or
    // more: "preparation" is no "p" and "reparation" (repair), "business" no "b" and "usines".
    // One naming nothing in another language may be an English word (`englishLead`).
    const lead = first === undefined ? englishLead(plain) : undefined
    if (lead !== undefined) found.push(lead[1])
    let from = first === undefined ? (lead?.[0] ?? 2) : first[0]
    while (from <= plain.length - 4) {
      const part = prefixAt(plain, from)
      if (part === undefined) from++
      else {
        if (!found.includes(part[1])) found.push(part[1])
        from += part[0]
      }
    }
  }
  return found.length > 0 ? found : [stem]
}, 100_000)

/** The shortest part of a compound read as an English word (`englishLead`). */
const shortestPart = 5

/**
 * A compound's first part, when it is an English word the lexicon lists (as written or by its
 * stem), as [length, key]: Dutch, German and Scandinavian compounds borrow English words
 * ("mysterieklant", a mystery customer; "Usabilitytest"). The longest such part wins; it and
 * what follows have five letters or more, so that a short word inside a long one ("over",
 * "test") is no compound; a last part alone is not read so ("screenshots" is no "shots").
 */
const englishLead = (word: string): readonly [number, string] | undefined => {
  const { englishWords, english } = lexicon()
  for (let split = word.length - shortestPart; split >= shortestPart; split--) {
    const part = word.slice(0, split)
    const key = englishWords.get(part) ?? english.get(stemOf(part))
    if (key !== undefined) return [split, key]
  }
  return undefined
}

/**
 * The concept a phrase starting at `words[at]` names, and how many words it takes (2 or more). A
 * number inside a phrase is read past when the phrase as written names nothing: "ask 300
 * households" is "ask households", "interview 20 farmers" "interview farmers".
 */
const phraseAt = (words: ReadonlyArray<string>, at: number): readonly [number, string] | undefined => {
  const found = phraseOf(words.slice(at, at + 3))
  if (found !== undefined || !words.slice(at + 1, at + 3).some(isNumber)) return found
  const taken: Array<string> = [words[at]!]
  let end = at + 1
  for (; end < words.length && taken.length < 3 && end - at < 6; end++)
    if (!isNumber(words[end]!)) taken.push(words[end]!)
  const past = phraseOf(taken)
  if (past === undefined) return undefined
  // How many words as written the phrase took: its words and the numbers among them.
  let count = 0
  let kept = 0
  while (kept < past[0]) if (!isNumber(words[at + count++]!) || count === 1) kept++
  return [count, past[1]]
}

const isNumber = (word: string) => /^[0-9]+$/.test(word)

/** The concept the first two or three of `words` name as a phrase, and how many it takes. */
const phraseOf = (words: ReadonlyArray<string>): readonly [number, string] | undefined => {
  const { phrases } = lexicon()
  for (let count = words.length; count >= 2; count--) {
    const joined = words.slice(0, count).join("-")
    const before = words.slice(0, count - 1).join("-").length + 1
    // Whole, a phrase may end in a one-letter word ("hand a"); cut short, its last word keeps two letters.
    const whole = phrases.get(joined)
    if (whole !== undefined) return [count, whole]
    for (let length = joined.length; length > before + 1; length--) {
      const key = phrases.get(joined.slice(0, length))
      if (key !== undefined) return [count, key]
    }
  }
  return undefined
}

/**
 * Verbs that say what is done to something, not what skill it takes: "file my tax return", "write
 * a compiler backend", "fix a gas leak". A participant who shares only such a verb with a task
 * ("file" in a researcher's "file a records request") has not been shown to do that work. Kept
 * as keys (stems), so every form of the verb counts.
 */
const skillLessKeys = madeOnce(
  (): ReadonlySet<string> =>
    new Set(
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
)

/** Whether a key is one of the verbs said of any work (`skillLessKeys`). */
export const isSkillLessVerb = (key: string): boolean => skillLessKeys().has(key)
