/**
 * What a free-text task makes clear of itself: the place it names (`inferLocationIn`) and the
 * execution mode its wording says (`inferExecutionMode`). Used by POST /search
 * (directory_search.ts).
 */
import { directoryIndexOf } from "./directory_index.ts"
import type { ParticipantRecord } from "./participant.ts"
import { isWorldCity, placesNamedIn, worldDisplay } from "./places.ts"
import type { ExecutionMode } from "./task_draft/execution_mode.ts"
import { fold, isTopicMode, keysOfWord, modeOfKey, splitWords, stripMarks, termsOf } from "./words.ts"

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
    // Across a town is over its streets ("Deliver a cake across town"), not across a document.
    "(?:across|around|all over) (?:the )?(?:town|city|neighbou?rhood|village)",
    "cross-?town",
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
    // Not instructions for installing (documentation): "installation guide".
    "install(?:ation)?(?! (?:instructions|guides?|manuals?))",
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
    // Markets, malls and stalls are somewhere to be only when one is at or outside them: "in the
    // market" is also an economy's.
    "(?:at|outside) (?:the |a |an |our |their |local )?(?:[\\w']+ ){0,2}(?:markets?|malls?|bazaars?|stalls?|kiosks?|pharmac(?:y|ies))",
    "(?:at|in|to|outside) (?:the |a |an |our |their |my |his |her )?(?:[\\w']+ ){0,2}(?:office|court|house|home|hotel|appointment|clinic|hospital|embassy|consulate|warehouse|factory|address|site|station|airport|bank(?! statements?| accounts?| details| transfers?| feeds?| records?)|shop|store|conference|meeting|fair|expo|event|festival|wedding)"
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
    "android",
    "ios",
    "software",
    "chatbots?",
    // Looking a thing up is a search at a desk; going to look at it is not.
    "look(?:ing|s)? up",
    "lookups?",
    // Not a car's fault codes, a postcode, a dress code or the QR code or bar code at a till.
    "(?<!(?:error|fault|zip|postal|area|dress|qr|bar) )code",
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
    "documentation"
  ].join("|")
)
const bothCues =
  /\b(?:remote(?:ly)? or (?:on[ -]?site|in[ -]person)|(?:on[ -]?site|in[ -]person) or (?:remote(?:ly)?|online|over video|by video)|hybrid|partly (?:remote|online|on[ -]?site))\b/
const wordBounded = (cues: RegExp) => new RegExp(`\\b(?:${cues.source})\\b`)
/**
 * An app named: work online, unless nothing else says where and it is asked about at a shop or a
 * street in a place named ("Ask shopkeepers in Mumbai which payment apps they take").
 */
const appCue = /\bapps?\b/
const physical = wordBounded(physicalCues)
const digital = wordBounded(digitalCues)
/**
 * "online shop", "web store", "negozio online", "a restaurant's website": a place on the web, not a
 * premises to visit.
 */
const onlinePremises =
  /\b(?:(?:online|web|e-?commerce) (?:shops?|stores?|sellers?|marketplaces?)|(?:negozio|tienda|loja|boutique|winkel|sklep|magaza|toko|kedai|magazin|penjual) (?:online|en ligne|internetowy)|(?:restaurant|hotel|shop|store|venue|cafe|bar|museum|supermarket)(?:'?s)?(?= (?:website|web ?site|web ?page|app|menus?|reviews?|listings?|ratings?)\b))\b/g

/**
 * "for our restaurant", "for a hotel": the premises the work is for, not a place it is done in
 * ("Write reviews for our restaurant"); where the work goes, the work's own words say ("visit",
 * "photograph", "at the hotel").
 */
const premisesServed =
  /\b(?:for (?:our|my|your|their|his|her|a|an|the) (?:restaurants?|hotels?|cafes?|bars?|shops?|stores?|supermarkets?|venues?|kitchens?|farms?|boutiques?)|(?:para|pour|per|voor|fur|dla) (?:(?:o|a|os|as|el|la|los|las|le|les|il|lo|de|het|den|die|das) )?(?:nuestr[oa]s?|mis?|sus?|nosso|nossa|meu|minha|notre|nos|mon|ma|mes|leur|nostr[oaie]|mio|mia|onze|ons|mijn|unser(?:e|en|em)?|mein(?:e|en|em)?|naszego|naszej|mojego|mojej) (?:restaurante?s?|ristorante|restaurant|hotel(?:es|s)?|albergo|cafe|bar|tienda|loja|negozio|boutique|magasin|winkel|geschaft|laden|sklepu|restauracji|supermercado|supermarche|supermarkt)s?)\b/g

/**
 * Words that put what follows at a place, in the languages agents write in, as written (lower
 * case: a capitalised "I" or "A" begins a sentence or a title): "in", "at", "near", Croatian and
 * Czech "u"/"v"/"ve", Polish "w"/"we", French "à"/"dans", Spanish and Portuguese "en"/"em"/"no"/"na",
 * Indonesian "di", Scandinavian "i", Dutch "bij"/"op", Romanian "în"/"din", Vietnamese "ở"/"tại"…
 */
const placePrepositions: ReadonlySet<string> = new Set(
  "in at near around outside u v ve vo w we à dans en em no na nos nas di dekat ở tại i im bei nahe te op bij în din la pe kod pri ved nær nel nella presso sa ní".split(
    " "
  )
)
const capitalised = /^\p{Lu}\p{Ll}/u

/**
 * Whether a task says its work happens at a named place, known to the gazetteer or not ("in
 * Tirana", "u Santiagu", "w Gdańsku"): such a preposition before a capitalised word that names no
 * concept (not "in English") and no word of anyone's work (`isWordOfWork`: the directory's own
 * words, "in Lightroom", "in Xero"). Evidence of physical work when nothing else says
 * where, as a place read does (`inferExecutionMode`'s `namesPlace`): the mode must not wait for
 * the gazetteer to know every place in every form.
 */
export const saysNamedPlace = (text: string, isWordOfWork: (key: string) => boolean = () => false): boolean => {
  // As written, accents and all: "à" and "ní" are prepositions, "a" and "ni" are not.
  const written = splitWords(text.normalize("NFC"))
  for (let at = 1; at < written.length; at++) {
    if (!placePrepositions.has(written[at - 1]!) || !capitalised.test(written[at]!)) continue
    const keys = keysOfWord(fold(stripMarks(written[at]!)))
    if (keys.every((key) => !key.startsWith("~") && !isWordOfWork(key))) return true
  }
  return false
}

const photographyKey = "~photography"
/**
 * A file or its format (a CSV, JPEGs, a PDF) is what comes back: work done at a desk when nothing
 * else says where ("Send the list back as a CSV"), but not when the request says where it is, or
 * names work done on site ("Photos of every shop front on a street in Nairobi, as JPEGs").
 */
const fileKey = "~file"
/**
 * The verb "to photograph", folded, in the languages agents write in ("fotografiar la fachada",
 * "sfotografować", "сфотографировать", "撮影する", "拍摄"), as against the noun (photos, a
 * photographer): English's is among the cues above.
 */
const photographing =
  /^(?:fotografiar|fotografar|photographi|fotografier|fotografare|fotografate|fotografeer|fotografer|s?fotografow|s?fotografuj|fotografla|fotograf-cek|fotografini|фотографир|сфотографир|сфоткат|memotret|chup-anh)|撮影|拍摄|拍照|촬영|写真を撮/

/**
 * The execution mode a free-text task makes clear, or null: both kinds of cue (or an explicit
 * "remote or on site") → hybrid; only on-site cues → physical; only online cues → digital; none
 * → null, and then search filters by no mode at all (a wrong guess would hide the only fitting
 * person). Cues are English phrases (above) and, in any language, the concepts the text names
 * (src/domain/concepts/work.ts): work done on site (a visit, an inspection, an errand, a
 * delivery) or online (translation, data entry, a file sent back). A task with no cue either way
 * that names a place, or says it is at a named place (`saysNamedPlace`), is done there
 * (`namesPlace`): physical.
 */
export const inferExecutionMode = (text: string, namesPlace = false): ExecutionMode | null => {
  const folded = fold(text)
  if (bothCues.test(folded)) return "hybrid"
  // A shop on the web is neither a premises to visit nor online work ("photos for our web shop").
  const premisesOff = folded.replace(onlinePremises, " ").replace(premisesServed, " ")
  let onSite = physical.test(premisesOff)
  let online = digital.test(premisesOff)
  // What the work is about says where only when nothing else does (`Concept.mode`).
  let aboutSite = false
  let aboutOnline = false
  let sentAsFile = false
  // The premises work is for is no place to go, in the concepts' reading too ("for our store").
  for (const { key, word } of termsOf(folded.replace(premisesServed, " "))) {
    // To photograph is to be where the subject is; photos, the noun, are what comes back.
    if (key === photographyKey && photographing.test(word)) onSite = true
    if (key === fileKey) {
      sentAsFile = true
      continue
    }
    const mode = modeOfKey(key)
    const topic = isTopicMode(key)
    if (mode === "physical" && topic) aboutSite = true
    else if (mode === "physical") onSite = true
    else if (mode === "digital" && topic) aboutOnline = true
    else if (mode === "digital") online = true
  }
  // An app asked about at a shop in a place named is asked about there (`appCue`).
  const appThere = !onSite && aboutSite && namesPlace
  if (appCue.test(premisesOff) && !appThere) online = true
  if (!onSite && !online) {
    onSite = aboutSite
    online = aboutOnline && !appThere
  }
  if (onSite && online) return "hybrid"
  if (onSite) return "physical"
  if (online) return "digital"
  if (namesPlace) return "physical"
  return sentAsFile ? "digital" : null
}

// Search ------------------------------------------------------------------------------------------
