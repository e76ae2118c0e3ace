/**
 * The forms a short word of a few scripts may be listed in, read off an inflected one (issue 36):
 * the concept layer lists words of three letters or fewer once folded only whole (Tamil's கடை, a
 * shop, folds to two letters; Amharic's ሱቅ), so that they do not begin unrelated words; their
 * inflected forms ("கடையில்", in the shop; "በሱቅ", "ሱቆች") were then unread. Grammar as data, as
 * places' endings are (places.ts): each candidate is looked up whole, only when the word as
 * written names nothing (src/domain/words.ts).
 */

/**
 * Tamil's case endings and plural after a noun ending in a vowel sign, folded (vowel signs and
 * virama are marks): -யில் (in), -யை (object), -க்கு (to), -கள் (plural), -களில், -யின் (of),
 * -யிலிருந்து (from). Not -இல் alone: "கடல்", the sea, is no "கடை" in.
 */
const tamilEndings = ["யலரநத", "களல", "யல", "யன", "கக", "கள", "ய"]

/** Amharic's prepositions written onto a word: በ (in, at), ለ (for), ከ (from), የ (of), ወደ (to). */
const ethiopicPrefixes = ["ወደ", "በ", "ለ", "ከ", "የ"]
/** Amharic's endings: the object -ን, "and" -ና/-ም, the definite -ው/-ዋ, the plural -ዎች/-ች. */
const ethiopicEndings = ["ዎችን", "ዎች", "ችን", "ች", "ውን", "ው", "ዋ", "ን", "ና", "ም"]

const tamil = /^[\u0B80-\u0BFF]+$/u
const ethiopic = /^[\u1200-\u137F]+$/u

/**
 * An Ethiopic syllable in its sixth order (the consonant with no vowel: ቁ, ቆ → ቅ), as a noun's
 * last syllable is written before its plural and definite endings change it ("ሱቆች", "ሱቁ").
 */
const sixthOrder = (syllable: string) => {
  const code = syllable.codePointAt(0)!
  return String.fromCodePoint(code - (code % 8) + 5)
}

/**
 * The forms an inflected folded word may be listed in, longest first, or none: a Tamil or
 * Amharic word less an ending (and, in Amharic, a prefix), at least two letters left.
 */
export const uninflected = (word: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  if (tamil.test(word)) {
    for (const ending of tamilEndings)
      if (word.endsWith(ending) && word.length - ending.length >= 2) found.push(word.slice(0, -ending.length))
  } else if (ethiopic.test(word)) {
    const prefix = ethiopicPrefixes.find((p) => word.startsWith(p) && word.length - p.length >= 2)
    const bases = prefix === undefined ? [word] : [word, word.slice(prefix.length)]
    for (const base of bases) {
      if (base !== word) found.push(base)
      for (const ending of ethiopicEndings) {
        if (!base.endsWith(ending) || base.length - ending.length < 2) continue
        const stem = base.slice(0, -ending.length)
        found.push(stem, stem.slice(0, -1) + sixthOrder(stem.slice(-1)))
      }
      if (base.length >= 2) found.push(base.slice(0, -1) + sixthOrder(base.slice(-1)))
    }
  }
  return found.filter((form) => form !== word)
}
