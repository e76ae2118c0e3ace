/**
 * Porter's stemmer (M.F. Porter, 1980), as published: five steps of suffix rules, each guarded by
 * the measure of what remains, after British spellings are read as American. How matching reduces
 * an English word it has no concept for (src/domain/words.ts). Written out here rather than taken
 * from a package: it is short, has no moving parts, and the same code runs on both databases'
 * behalf. Pure.
 */
import { memoized } from "../read_cache.ts"

/**
 * British spellings as American before stemming (notarise/notarize, digitise, localisation,
 * analyse), so both spellings share a stem.
 */
export const americanOf = (word: string) =>
  word.length < 6 ? word : word.replace(/is(e|ed|es|ing|er|ers|ation|ations)$/, "iz$1").replace(/yse(s|d)?$/, "yze$1")

/**
 * Porter's stem of a folded word, remembered (vocabularies are small and repeat; at most 100,000
 * words are kept, src/read_cache.ts).
 */
export const stemOf = memoized(
  (word: string): string => (/^[a-z]+$/.test(word) ? porter(americanOf(word)) : word),
  100_000
)

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
