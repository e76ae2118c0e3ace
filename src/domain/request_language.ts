/**
 * The language a task is written in, when its script or its small words say so plainly
 * ("Nutzerforschung für unsere App" is German, "사진 편집" Korean). Ranking reads it only to break
 * a tie (`before`, src/domain/matching_rules.ts): of two people whose work fits a task equally,
 * the one whose record names the language it is written in comes first. Never evidence, never a
 * filter: a German request for UX research is still anyone's who does UX research, and a
 * language the task asks its work in is `languagesAsked`'s, not this.
 */
import { conceptKey, fold, splitWords } from "./words.ts"

/** Scripts that name one language of the catalogue's, tried in order (kana before Han). */
const scripts: ReadonlyArray<readonly [RegExp, string]> = [
  [/\p{Script=Hangul}/u, "korean"],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, "japanese"],
  [/\p{Script=Han}/u, "mandarin"],
  [/\p{Script=Greek}/u, "greek"],
  [/\p{Script=Thai}/u, "thai"],
  [/\p{Script=Bengali}/u, "bengali"],
  [/\p{Script=Ethiopic}/u, "amharic"],
  [/\p{Script=Hebrew}/u, "hebrew"],
  [/\p{Script=Tamil}/u, "tamil"],
  [/\p{Script=Telugu}/u, "telugu"],
  [/\p{Script=Gurmukhi}/u, "punjabi"],
  // Ukrainian's own letters before Cyrillic read as Russian.
  [/[іїєґІЇЄҐ]/u, "ukrainian"],
  [/\p{Script=Cyrillic}/u, "russian"],
  // Persian's and Urdu's own letters before the Arabic script read as Arabic.
  [/[پچژگکیے]/u, "persian-or-urdu"],
  [/\p{Script=Arabic}/u, "arabic"]
]

/**
 * Small words (folded) that, two or more of them, say a text in a Latin-script language is in
 * it: articles, prepositions, pronouns, "please", "need". Words two languages share ("de", "en",
 * "la", "para") are listed for neither.
 */
const smallWords: Readonly<Record<string, string>> = {
  german:
    "und fur fuer der die das mit von eine einen einem einer unsere unser unseren ich wir bitte nach auf ist im zum zur brauchen",
  french: "le les des pour une du avec sur dans nous notre nos votre est au aux cherche besoin",
  spanish: "el los las del por y nuestro nuestra nuestros necesito necesitamos busco alguien",
  portuguese: "uma um nosso nossa nossos preciso precisamos alguem pelo pela ao",
  italian: "il gli della delle dei nostro nostra nostri cerco serve qualcuno sul nel",
  dutch: "het een van voor onze ons naar bij wij zoeken gezocht iemand graag",
  polish: "dla sie oraz nasz nasza nasze naszych potrzebuje szukam ktos prosze",
  turkish: "bir icin ile bizim lutfen gerekiyor ariyoruz",
  indonesian: "dan untuk dengan kami yang dari perlu butuh tolong seseorang",
  vietnamese: "va cho cua chung toi mot nguoi",
  swedish: "och att soker behover nagon",
  norwegian: "og trenger noen",
  romanian: "pentru cu nostru noastra caut cineva",
  czech: "nase potrebujeme hledame nekoho prosim",
  hungarian: "egy az hogy kell keresunk valaki kerem",
  finnish: "kanssa meidan tarvitsemme etsimme joku",
  swahili: "kwa wa tunahitaji mtu kwenye",
  tagalog: "ang mga ng kailangan namin",
  hausa: "ina bukatar wanda zai muna"
}

const byWord = (() => {
  const map = new Map<string, Array<string>>()
  for (const [language, words] of Object.entries(smallWords)) {
    for (const word of words.split(" ")) map.set(word, [...(map.get(word) ?? []), language])
  }
  return map
})()

/**
 * The key of the language a task is written in (`conceptKey("lang-…")`), if its script names one
 * or two or more of its small words are one language's more than any other's; undefined for
 * English (nearly every record names it) and when unsure.
 */
export const requestLanguageOf = (text: string): string | undefined => {
  for (const [script, language] of scripts) {
    if (!script.test(text)) continue
    return language === "persian-or-urdu" ? undefined : conceptKey(`lang-${language}`)
  }
  const hits = new Map<string, number>()
  for (const word of splitWords(fold(text))) {
    for (const language of byWord.get(word) ?? []) hits.set(language, (hits.get(language) ?? 0) + 1)
  }
  let best: string | undefined
  let most = 1
  let tied = false
  for (const [language, count] of hits) {
    if (count > most) {
      best = language
      most = count
      tied = false
    } else if (count === most && best !== undefined) tied = true
  }
  return best === undefined || tied ? undefined : conceptKey(`lang-${best}`)
}
