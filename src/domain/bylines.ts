/**
 * Writing signed by someone else (issue 36): a request naming writing and, in any language, a
 * byline that is not the writer's asks for ghostwriting (src/domain/concepts/trades.ts), work
 * nobody in the catalogue does and some rule out. Read over a text's terms (`termsOfWords`,
 * words.ts) and its folded words.
 */
import type { Term } from "./words.ts"

/**
 * Writing that goes out under someone else's name is ghostwriting, however it is said ("an
 * article our founder will publish as his own", "einen Beitrag, der unter dem Namen unseres
 * Chefs erscheint"); a byline alone is no work ("register the car under her name").
 */
export const ghostwritten = (terms: Array<Term>, words: ReadonlyArray<string>): Array<Term> => {
  const byline = terms.findIndex((t) => t.key === bylineKey)
  if (byline < 0 && !underSomeonesName(words)) return terms
  const ghost = "~ghostwriting"
  const writing = terms.findIndex((t) => t.key === writingKey)
  if (writing < 0 || terms.some((t) => t.key === ghost)) return terms
  terms[writing] = { key: ghost, word: terms[writing]!.word }
  return byline < 0 ? terms : terms.filter((_, i) => i !== byline)
}
const bylineKey = "~byline"
const writingKey = "~writing"

/**
 * "Under" and, a few words on, someone's name, in the languages agents write in: "under our
 * CEO's name", "sous le nom de notre directrice", "pod nazwiskiem naszego prezesa" (folded
 * words): a possessive before the name, or one or "of" after it. "Registered under the name
 * Acme" names no one's.
 */
const underSomeonesName = (words: ReadonlyArray<string>): boolean => {
  for (let at = 0; at < words.length; at++) {
    if (!underWords.has(words[at]!)) continue
    for (let name = at + 1; name <= at + 4 && name < words.length; name++) {
      if (!nameWords.has(words[name]!)) continue
      const after = words[name + 1]
      if (words.slice(at + 1, name).some((w) => possessives.has(w))) return true
      if (after !== undefined && (possessives.has(after) || ofWords.has(after))) return true
    }
  }
  return false
}
const underWords: ReadonlySet<string> = new Set("under unter sous bajo sob sotto onder pod под".split(" "))
const nameWords: ReadonlySet<string> = new Set(
  "name byline namen nom nombre nome naam nazwiskiem nazwiskami imieniem именем имя именами".split(" ")
)
const possessives: ReadonlySet<string> = new Set(
  "our my his her their your own unser unseres unserer unsere meines meiner seines seiner ihres ihrer mein sein ihr notre nos mon ma son sa leur su sus mi nuestro nuestra seu sua nosso nossa meu minha suo nostro nostra mio mia zijn haar mijn onze hun moim swoim wlasnym naszego naszej jego jej ich моим своим его ее нашего нашей".split(
    " "
  )
)
const ofWords: ReadonlySet<string> = new Set("of de di van des del do da della von".split(" "))
