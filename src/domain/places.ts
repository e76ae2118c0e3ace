/**
 * Places: which places a text names, among the catalogue's own (the parts of participants'
 * "City, Region, Country" locations) and the world's (the gazetteer), read with accents folded
 * and other names resolved ("Montreal" is Montréal, "Bombay" is Mumbai, "USA" is United States).
 */

import { madeOnce } from "../read_cache.ts"
import { cities, countries, metropolitanAreas, namesInMoreScripts, otherNames } from "./gazetteer.ts"
import { fold, isContinuous, readWords, stripMarks, type TextWords } from "./words.ts"

/** A place as matching compares it: folded words joined by single spaces ("sao paulo"). */
export type Place = string

/** The place a name reads as, words folded: "São Paulo" → "sao paulo". */
export const placeOf = (name: string): Place => readWords(name).folded.join(" ")

interface GazetteerEntry {
  /** The place every name of the entry resolves to. */
  readonly place: Place
  /** As shown: "Madrid, Spain" for a city, "Spain" for a country. */
  readonly display: string
  readonly isCity: boolean
}

interface Gazetteer {
  /** By each folded name and other name. */
  readonly byName: ReadonlyMap<Place, GazetteerEntry>
  /** Names that count only written exactly so (words joined by a space): "Chad", "US". */
  readonly cased: ReadonlyMap<Place, string>
  /**
   * Names in scripts written without spaces, found inside a run of such a script ("東京の工場"),
   * longest first, each with the expression that finds it standing as a name (`standingName`).
   */
  readonly inside: ReadonlyArray<{ readonly name: Place; readonly standing: RegExp }>
  /** By city: the larger city whose metropolitan area it lies in (`metropolitanAreas`). */
  readonly metropolis: ReadonlyMap<Place, Place>
  /** Khmer, Burmese, Thai and Lao names as written, vowel signs and all, by folded name (`spelledOut`). */
  readonly spelled: ReadonlyMap<Place, ReadonlyArray<string>>
}

/**
 * Khmer, Burmese, Thai and Lao names are found inside a run only as written, vowel signs and all:
 * folded, they keep two to four consonants, and Burmese "ကိုင်ရမယ်" (must hold) holds Cairo's
 * "ကိုင်ရို", Thai "เด็กโต" (an older child) Quito's "กีโต".
 */
const spelledOut = /[\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Thai}\p{Script=Lao}]/u

// Made on first use (the first location read), not at start-up (docs/performance.md).
const gazetteer = madeOnce((): Gazetteer => {
  const byName = new Map<Place, GazetteerEntry>()
  const cased = new Map<Place, string>()
  const spelled = new Map<Place, Array<string>>()
  const spell = (name: string) => {
    if (!spelledOut.test(name)) return
    const place = placeOf(name)
    spelled.set(place, [...(spelled.get(place) ?? []), name.normalize("NFC")])
  }
  const add = (names: ReadonlyArray<string>, entry: GazetteerEntry) => {
    for (const raw of names) {
      const name = raw.startsWith("^") ? raw.slice(1) : raw
      spell(name)
      const place = placeOf(name)
      if (raw.startsWith("^")) cased.set(place, readWords(name).written.join(" "))
      // A country's name is also a city's (Singapore, Hong Kong): the city, listed later, wins.
      byName.set(place, entry)
    }
  }
  for (const line of countries) {
    const names = line.split("|")
    const display = names[0]!.replace(/^\^/, "")
    add(names, { place: placeOf(display), display, isCity: false })
  }
  for (const line of cities) {
    const [first, country, ...others] = line.split("|")
    const name = first!.replace(/^\^/, "")
    add([first!, ...others], { place: placeOf(name), display: `${name}, ${country}`, isCity: true })
  }
  for (const [name, others] of [...Object.entries(otherNames), ...Object.entries(namesInMoreScripts)]) {
    const entry = byName.get(placeOf(name))
    // Only names of the lists above: a name of its own would be no place at all.
    if (entry === undefined) throw new Error(`gazetteer: other names of an unlisted place, ${name}`)
    for (const other of others.split("|")) {
      spell(other)
      const place = placeOf(other)
      // A listed name keeps its own entry (a country's name that is also a city's).
      if (!byName.has(place)) byName.set(place, entry)
    }
  }
  // Folded, Lao's, Khmer's and Burmese's names lose their vowel signs: one of fewer than three
  // letters would be found inside too many words.
  const inside = [...byName.keys()]
    .filter(
      (name) =>
        isContinuous(name) &&
        (name.length >= 3 || /^[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(name))
    )
    .sort((a, b) => b.length - a.length)
    .map((name) => ({ name, standing: standingName(name) }))
  const metropolis = new Map<Place, Place>()
  for (const [city, centre] of Object.entries(metropolitanAreas)) {
    const [part, whole] = [byName.get(placeOf(city)), byName.get(placeOf(centre))]
    if (!part?.isCity || !whole?.isCity) throw new Error(`gazetteer: ${city} in ${centre}, not both listed cities`)
    metropolis.set(part.place, whole.place)
  }
  return { byName, cased, inside, metropolis, spelled }
})

/** The larger city whose metropolitan area a city lies in, if it does (Giza: Cairo). */
export const metropolisOf = (place: Place): Place | undefined => gazetteer().metropolis.get(place)

/** The place a name of the catalogue or of the world stands for: its gazetteer entry's, or itself. */
export const canonicalPlace = (place: Place): Place => gazetteer().byName.get(place)?.place ?? place

/** Whether the gazetteer knows a place as a city. */
export const isWorldCity = (place: Place): boolean => gazetteer().byName.get(place)?.isCity === true

/** How the gazetteer shows a place, if it knows it. */
export const worldDisplay = (place: Place): string | undefined => gazetteer().byName.get(place)?.display

/** A "City, Region, Country" location's places, city first, each canonical: "Montréal, Canada" → montreal, canada. */
export const placesOfLocation = (location: string): ReadonlyArray<Place> =>
  location
    .split(",")
    .map(placeOf)
    .filter((place) => place !== "")
    .map(canonicalPlace)

/** The places a matcher knows beyond the world's: the catalogue's, and the first words of each. */
export interface KnownPlaces {
  readonly places: ReadonlySet<Place>
  /** Every first run of words of a known name, the gazetteer's included: "new", "new york". */
  readonly starts: ReadonlySet<Place>
}

/** The first runs of words of every gazetteer name: the same for every catalogue. */
const worldStarts = madeOnce((): ReadonlySet<Place> => {
  const starts = new Set<Place>()
  for (const name of gazetteer().byName.keys()) addStarts(starts, name)
  return starts
})

function addStarts(starts: Set<Place>, place: Place) {
  const words = place.split(" ")
  for (let n = 1; n <= words.length; n++) starts.add(words.slice(0, n).join(" "))
}

export const knownPlaces = (places: Iterable<Place>): KnownPlaces => {
  const set = new Set(places)
  const starts = new Set(worldStarts())
  for (const place of set) addStarts(starts, place)
  return { places: set, starts }
}

/**
 * The places a text names, in order, each once, canonical. Read left to right, the longest name
 * at each point wins and its words are used up, so "New York" names New York, not also York. A
 * name the gazetteer marks as a common word counts only capitalised as listed ("Turkey", not a
 * turkey sandwich; "US", not "ship us samples"). A run grows only while some name starts with
 * it, so a text costs about its number of words.
 */
export const placesNamedIn = (text: string, known: KnownPlaces): ReadonlyArray<Place> => {
  const found: Array<Place> = []
  for (const { place } of namesIn(readWords(text), known, text)) if (!found.includes(place)) found.push(place)
  return found
}

/** The folded words of a text (read by `readWords`) that are part of the places it names (see `placesNamedIn`). */
export const placeWordsIn = (text: TextWords, known: KnownPlaces): ReadonlySet<string> => {
  const words = new Set<string>()
  for (const { from, end } of namesIn(text, known)) for (let i = from; i < end; i++) words.add(text.folded[i]!)
  return words
}

/** Characters that, after a place's name, make it a language, a people or a script (語, 人, 文…). */
const notPlaceAfter = "語语人文字"

/**
 * Thai and Lao write some vowels before their syllable's consonant (เ, แ, โ, ใ, ไ) and some after
 * it (า, ะ, ำ), as letters, not marks: a name found right after the one or before the other
 * begins or ends inside a syllable. Folded, Thai's "เลี้ยง" (a feast, to raise) holds the letters
 * of Lyon's "ลียง".
 */
const syllableBefore = "เแโใไເແໂໃໄ"
const syllableAfter = "าะำາະຳ"

/**
 * A name inside a run, standing as a name: "日本語" is Japanese, "中国人" Chinese people (a name
 * followed by such a character is no place), nor is one inside a Thai or Lao syllable.
 */
const standingName = (name: Place) =>
  new RegExp(`(?<![${syllableBefore}])${name}(?![${notPlaceAfter}${syllableAfter}])`, "u")

/** The places a text's words name, in order; `text` as written, when known, for `spelledOut`. */
const namesIn = ({ written, folded }: TextWords, known: KnownPlaces, text?: string) => {
  // The text composed as the names are (NFC), made only when a name needs it.
  let composed: string | undefined
  const runs: Array<{ place: Place; from: number; end: number }> = []
  let from = 0
  while (from < folded.length) {
    // A run of a script written without spaces: the names inside it, its words left to the task.
    if (isContinuous(folded[from]!)) {
      let rest = folded[from]!
      const { inside, byName, spelled } = gazetteer()
      for (const { name, standing } of inside) {
        if (!rest.includes(name) || !standing.test(rest)) continue
        const forms = spelled.get(name)
        if (text !== undefined && forms !== undefined) {
          composed ??= text.normalize("NFC")
          if (!forms.some((form) => composed!.includes(form))) continue
        }
        runs.push({ place: byName.get(name)!.place, from, end: from })
        rest = rest.replaceAll(name, " ")
      }
      from++
      continue
    }
    let longest: { place: Place; from: number; end: number } | undefined
    let run = ""
    for (let to = from; to < folded.length; to++) {
      const word = run === "" ? unattached(folded[to]!, written[to]!, written[from - 1], known) : folded[to]!
      const next = run === "" ? word : `${run} ${word}`
      if (!known.starts.has(next)) {
        // A name's last word inflected after a preposition ("в Берлине", "Perthben"): its
        // dictionary form ends the run.
        const asWritten = written[to]!
        const place = inflectedPlace(run, word, known, asWritten === asWritten.toLowerCase())
        if (place !== undefined) longest = { place, from, end: to + 1 }
        break
      }
      run = next
      const place = resolve(run, written.slice(from, to + 1).join(" "), known)
      if (place !== undefined) longest = { place, from, end: to + 1 }
    }
    if (longest === undefined) from++
    else {
      runs.push(longest)
      from = longest.end
    }
  }
  return runs
}

/**
 * Hebrew and Arabic write "in", "to", "from", "and", "the" as one letter joined to the next word
 * ("בתל אביב", in Tel Aviv; "بالقاهرة", in Cairo), Amharic "in", "from", "for" as one syllable
 * ("በአዲስ አበባ", in Addis Ababa): a word that starts no name as written is read without such a
 * letter when the rest starts one.
 */
const proclitic =
  /^(?:[\u05D1\u05D4\u05D5\u05DB\u05DC\u05DE\u05E9\u0628\u0648\u0644\u0641\u0643](?=[\u0590-\u05FF\u0600-\u06FF]{2})|[\u1260\u12A8\u1208](?=[\u1200-\u137F]{2}))/u

/**
 * A name's first word as languages write it with something joined before it: a lower-case
 * prefix before the capital (Zulu and Xhosa locatives "eMonterrey", "aseLilongwe", "kuLilongwe";
 * Irish eclipsis "i mBaile Átha Cliath"), a letter "h" after the capital (Irish lenition "ó
 * Bhaile Átha Cliath", Welsh "Chaerdydd"), or a Welsh nasal or soft mutation of its first
 * letters ("yn Nulyn", in Dublin; "i Lundain"): each with the first letters it stands for. All but
 * the first are read only after a preposition that makes them (`mutating`).
 */
const mutations: ReadonlyArray<readonly [RegExp, ReadonlyArray<string>]> = [
  [/^\p{Ll}{1,5}(?=\p{Lu})/u, [""]],
  [/^([BCDFGMPST])h(?=\p{Ll})/u, ["$1"]],
  [/^Ngh/u, ["C"]],
  [/^Mh/u, ["P"]],
  [/^Nh/u, ["T"]],
  [/^Ng(?!h)/u, ["G"]],
  [/^M(?!h)/u, ["B"]],
  [/^N(?![gh])/u, ["D"]],
  [/^G/u, ["C"]],
  [/^B/u, ["P"]],
  [/^Dd/u, ["D"]],
  [/^D(?!d)/u, ["T"]],
  [/^F/u, ["B", "M"]],
  [/^L(?!l)/u, ["Ll"]],
  [/^R(?!h)/u, ["Rh"]]
]

/**
 * Welsh and Irish prepositions (and "and", "with"), as written (lower case: English "I" is none),
 * after which a name's first letters change.
 */
const mutating = new Set([
  "yn",
  // Welsh "yn" as written before the nasal mutations it makes ("ym Mharis", "yng Nghairo").
  "ym",
  "yng",
  "i",
  "o",
  "a",
  "ac",
  "gyda",
  "tua",
  "go",
  "do",
  "sa",
  "san",
  "ag",
  "ar",
  "chuig",
  "den"
])

/**
 * A text's word as a name's first word is read: as written when some name starts with it, else
 * without a proclitic letter (`proclitic`) or with its first letters restored (`mutations`) when
 * some name starts with what is left. Grammar, not names: only a known place's name is read so.
 */
const unattached = (word: string, written: string, before: string | undefined, known: KnownPlaces): string => {
  if (known.starts.has(word)) return word
  if (proclitic.test(word) && known.starts.has(word.slice(1))) return word.slice(1)
  if (!/^\p{Ll}{0,5}\p{Lu}/u.test(written)) return word
  const after = before !== undefined && mutating.has(before)
  for (const [mutated, originals] of after ? mutations : mutations.slice(0, 1)) {
    if (!mutated.test(written)) continue
    for (const original of originals) {
      const restored = fold(stripMarks(written.replace(mutated, original)))
      if (restored.length >= 3 && known.starts.has(restored)) return restored
    }
  }
  return word
}

/**
 * Endings that languages agents write in put on a place's name after "in", "to" or "from", each
 * with what the name ends in without it: Russian and Ukrainian locatives ("Берлине", "Праге",
 * "Берліні"), Polish, Czech and Croatian ones ("Berlinie", "Warszawie", "Berlíně", "Zagrebu"), Hungarian
 * case endings ("Perthben", "Londonba", "Párizsból"), Turkish ones written without an apostrophe
 * ("Ankarada"), the Greek genitive ("Αθήνας"), Finnish locatives ("Tokiossa", "Berliinissä"). Grammar, not names: a word is read so only when
 * what is left is a known place's name and the word as written is none.
 */
const placeEndings: ReadonlyArray<readonly [ending: string, base: string]> = [
  ["е", ""],
  ["е", "а"],
  ["і", ""],
  ["і", "а"],
  ["ie", ""],
  ["ie", "a"],
  ["e", ""],
  ["e", "a"],
  ["u", ""],
  // Croatian, Serbian and Slovene locatives of names ending in a vowel ("u Santiagu", "u Oslu",
  // "u Varšavi", "v Ljubljani").
  ["u", "o"],
  ["i", "a"],
  ["ban", ""],
  ["ben", ""],
  ["ba", ""],
  ["be", ""],
  ["bol", ""],
  ["rol", ""],
  ["nal", ""],
  ["nel", ""],
  ["on", ""],
  ["en", ""],
  ["da", ""],
  ["de", ""],
  ["ta", ""],
  ["te", ""],
  ["dan", ""],
  ["den", ""],
  ["ς", ""],
  // Slovene and Croatian locatives of names ending in -i ("v Nairobiju"), Lithuanian ones of
  // names ending in -o ("Osle"), Nepali's "in" joined to the name ("काठमाडौंमा"), Tamil's
  // locative ("மும்பையில்").
  ["ju", ""],
  ["e", "o"],
  ["मा", ""],
  ["யில்", ""],
  // Finnish locatives (in, on, from): "Tokiossa", "Berliinissä", "Oslosta".
  ["ssa", ""],
  ["sta", ""],
  ["lla", ""],
  ["lta", ""],
  // Georgian ("ლისაბონში", in Lisbon; "ტოკიოდან", from Tokyo), Armenian ("Կահիրեում", in Cairo;
  // "Տոկիոյում"), Mongolian ("Берлинд", "Улаанбаатарт", "Берлинээс") and Kazakh ("Берлиндегі",
  // "Прагада") case endings.
  ["ში", "ი"],
  ["ში", ""],
  ["დან", ""],
  ["ის", "ი"],
  ["ს", ""],
  ["ում", ""],
  ["յում", ""],
  ["ից", ""],
  ["յից", ""],
  ["ի", ""],
  ["д", ""],
  ["т", ""],
  ["ээс", ""],
  ["аас", ""],
  ["оос", ""],
  ["өөс", ""],
  ["да", ""],
  ["де", ""],
  ["та", ""],
  ["те", ""],
  ["дағы", ""],
  ["дегі", ""],
  ["тағы", ""],
  ["тегі", ""],
  // Azerbaijani, Uzbek and Turkish "located in" ("Buxarestdəki", "Bogotadagi").
  ["deki", ""],
  ["dəki", ""],
  ["də", ""],
  ["dən", ""],
  ["təki", ""],
  ["daki", ""],
  ["dagi", ""],
  ["teki", ""],
  ["taki", ""],
  // Basque cases ("Lagoseko", of Lagos; "Berlingo"; "Lisboara", to Lisbon; "Tokiotik", from Tokyo).
  ["ko", ""],
  ["eko", ""],
  ["go", ""],
  ["ra", ""],
  ["era", ""],
  ["tik", ""],
  ["etik", ""],
  // Estonian inessive, illative and elative after the genitive's "-i" ("Lissabonis", in Lisbon;
  // "Berliinisse", to Berlin; "Amsterdamist", from Amsterdam).
  ["is", ""],
  ["isse", ""],
  ["ist", ""],
  // Lithuanian locatives ("Lisabonoje", "Tokijuje", "Berlyne").
  ["oje", "a"],
  ["uje", "as"],
  ["e", "as"],
  // Icelandic datives after "í" and "frá" ("í Aþenu", "í Stokkhólmi"), as Czech and Croatian
  // accusatives of a name in "-a" ("do Prahu" aside, "u Varšavu").
  ["u", "a"],
  ["i", "ur"],
  ["um", "ir"],
  // Sinhala locatives, ablative and dative ("කයිරෝවේ", in Cairo; "-යේ", "-හි", "-දී", "-න්", "-ට"):
  // their vowel signs fold away.
  ["වේ", ""],
  ["යේ", ""],
  ["හි", ""],
  ["දී", ""],
  ["වෙන්", ""],
  ["ට", ""],
  // Postpositions written joined to the name: Telugu ("ముంబైలో"), Kannada ("ಬೆಂಗಳೂರಿನಲ್ಲಿ"),
  // Malayalam ("മുംബൈയിൽ"), Tamil ("பெங்களூருவில்"), Gujarati ("મુંબઈમાં"), Marathi
  // ("बर्लिनमधील", "मुंबईत"), Bengali ("ঢাকায়", "লাগোসের"; its "-এ" is a vowel sign, folded away).
  ["లో", ""],
  ["లోని", ""],
  ["ನಲ್ಲಿ", ""],
  ["ದಲ್ಲಿ", ""],
  ["ಯಲ್ಲಿ", ""],
  ["ിൽ", ""],
  ["യിൽ", ""],
  ["ில்", ""],
  ["வில்", ""],
  ["માં", ""],
  ["માંથી", ""],
  ["થી", ""],
  ["मध्ये", ""],
  ["मधील", ""],
  ["तील", ""],
  ["त", ""],
  ["हून", ""],
  ["য়", ""],
  ["তে", ""],
  ["ের", ""]
]

/**
 * Hungarian makes an adjective of a place's name with "-i", written in lower case ("bukaresti
 * szupermarketekben", in Bucharest supermarkets; "lagosi", "párizsi"): read so only written in
 * lower case, since a capitalised "Nepali" or "Israeli" is a language or a people.
 */
const adjectiveEnding = "i"

/** `placeEndings` as words are compared, folded (Devanagari's and Tamil's vowel signs are marks). */
const foldedEndings = madeOnce(() => placeEndings.map(([ending, base]) => [placeOf(ending), placeOf(base)] as const))

/**
 * The fewest letters a name keeps once an ending is taken off: three, or two in a script whose
 * vowel signs folding strips (Telugu "ముంబై", Mumbai, folds to two letters).
 */
const leastStem = (word: string): number =>
  /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u.test(word) ? 3 : 2

/** The place a run of words ending in an inflected word names, if any (see `placeEndings`). */
const inflectedPlace = (run: Place, word: string, known: KnownPlaces, lowerCase: boolean): Place | undefined => {
  const endings = lowerCase ? [...foldedEndings(), [adjectiveEnding, ""] as const] : foldedEndings()
  for (const [ending, base] of endings) {
    if (!word.endsWith(ending) || word.length - ending.length < leastStem(word)) continue
    const name = `${run === "" ? "" : `${run} `}${word.slice(0, word.length - ending.length)}${base}`
    // A name that counts only capitalised as written ("Chad", "US") is never read inflected.
    if (!known.starts.has(name) || gazetteer().cased.has(name)) continue
    const place = resolve(name, name, known)
    if (place !== undefined) return place
  }
  return undefined
}

/** The place a run of words names, if any (see `placesNamedIn`). */
const resolve = (run: Place, written: string, known: KnownPlaces): Place | undefined => {
  const entry = gazetteer().byName.get(run)
  if (entry !== undefined) {
    const cased = gazetteer().cased.get(run)
    return cased === undefined || cased === written ? entry.place : undefined
  }
  return known.places.has(run) ? run : undefined
}
