// The rules issue 36 added to the one ranking: a threshold between plausible and unrelated that
// search, preflight's feasibility and the dispatcher share; the execution mode read from wording
// and deliverables in any language; boundaries that rule a specialist out; requests in other
// languages and scripts finding the specialist; and "nobody" said with its reason.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { directoryIndexOf, languageIn, participantsIn } from "../../src/domain/directory_index.ts"
import { searchDirectory } from "../../src/domain/directory_search.ts"
import { dueMove } from "../../src/domain/dispatch.ts"
import { eligibilityOf, rankTop } from "../../src/domain/matching.ts"
import { isPlausible, plausibleEvidence, type TaskProfile } from "../../src/domain/matching_rules.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { requestLanguageOf } from "../../src/domain/request_language.ts"
import { inferExecutionMode, saysNamedPlace } from "../../src/domain/task_inference.ts"
import { isAskedWorkKey, isWorkKey, keyOf, termsOf } from "../../src/domain/words.ts"
import { storedTask } from "../support/tasks.ts"

const sample: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)

/** A water sampler, alone in their city, whose capabilities mention rivers and whose returns mention photos. */
const sampler: ParticipantRecord = {
  slug: "ola-nord",
  name: "Ola Nord",
  discipline: "Water sampling",
  location: "Bergen, Norway",
  task_type: "physical",
  tags: ["environment"],
  capabilities: ["River and lake sampling"],
  returns: "Photos of each sample point",
  boundary: null
}
const directory = [sampler, ...sample]

/** The three users of the ranking, each asked about the same task. */
const answers = (task: TaskProfile) => {
  const search = searchDirectory(task.text, directory, 10).matches.map((m) => m.participant.slug)
  // Preflight's feasibility is rankTop's count and sample (src/services/tasks.ts).
  const feasibility = rankTop(task, directory, { limit: 5 })
  const open = storedTask({
    executionMode: task.executionMode ?? "physical",
    brief: { ...storedTask().brief, action: task.text, expected_result: "", location: task.location ?? null }
  })
  const move = dueMove(open, "2026-11-21T10:00:00.000Z", directory)
  const offered =
    move?.followedBy?.to === "awaiting_participant"
      ? (move.followedBy.change?.(open) as { participantSlug?: string } | undefined)?.participantSlug
      : undefined
  return {
    search,
    eligible: feasibility.best.map((r) => r.participant.slug),
    offered,
    declined: move?.followedBy?.to === "declined"
  }
}

describe("one threshold between plausible and unrelated, shared by search, feasibility and the dispatcher", () => {
  it("is stated once: a discipline or tag key, or a capability and one more, or three words of returns", () => {
    expect(plausibleEvidence).toBe(3)
  })

  it("below it (a word of their returns, one word of their capabilities), nobody: no listing, no count, no offer", () => {
    for (const text of ["Take photos of the harbour in Bergen", "Book a river cruise in Bergen"]) {
      const task = { executionMode: "physical" as const, location: "Bergen, Norway", text }
      expect(answers(task), text).toEqual({ search: [], eligible: [], offered: undefined, declined: true })
    }
  })

  it("at it, the same participant for all three", () => {
    for (const text of ["Water samples from the harbour in Bergen", "River sampling for a lab in Bergen"]) {
      const task = { executionMode: "physical" as const, location: "Bergen, Norway", text }
      const found = answers(task)
      expect(found.search[0], text).toBe("ola-nord")
      expect(found.eligible[0], text).toBe("ola-nord")
      expect(found.offered, text).toBe("ola-nord")
    }
  })
})

describe("plausible means doing the work asked, not sharing what it is about", () => {
  it("a task naming a kind of work needs someone whose record has it, however much else they share", () => {
    expect(isPlausible({ evidence: 9, doesWork: false }, true)).toBe(false)
    expect(isPlausible({ evidence: plausibleEvidence, doesWork: true }, true)).toBe(true)
    expect(isPlausible({ evidence: plausibleEvidence, doesWork: false }, false)).toBe(true)
    expect(isPlausible({ evidence: plausibleEvidence - 1, doesWork: true }, true)).toBe(false)
  })

  it("an inspector of solar panels is not asked to install them; to inspect them, they are", () => {
    const install = {
      executionMode: "physical" as const,
      location: "Perth, Australia",
      text: "Install solar panels on a shed roof in Perth"
    }
    expect(answers(install)).toEqual({ search: [], eligible: [], offered: undefined, declined: true })
    const inspect = { ...install, text: "Inspect the solar panels on a shed roof in Perth" }
    expect(answers(inspect)).toMatchObject({
      search: ["liam-obrien"],
      eligible: ["liam-obrien"],
      offered: "liam-obrien"
    })
  })

  it("a word said of many kinds of work (test, verify, write, fix, deliver, research, survey…) asks for no one discipline's", () => {
    // Kinds of work are concepts that name one discipline's work; these are said of every
    // discipline's, so reading them as a kind of work turned the specialist away.
    for (const word of [
      "test",
      "verify",
      "confirm",
      "write",
      "rate",
      "fix",
      "deliver",
      "clean",
      "legal",
      "label",
      "water",
      "account",
      "type",
      "key",
      "guidelines",
      "private",
      "sobre",
      "research",
      "survey",
      "interview",
      "audit"
    ]) {
      expect(isAskedWorkKey(keyOf(word)), word).toBe(false)
    }
    // Work done in several disciplines counts as doing the work asked, but asks for none alone.
    for (const word of ["research", "survey", "interview", "audit", "inspect", "test", "verify", "courier", "parcel"]) {
      expect(isWorkKey(keyOf(word)), word).toBe(true)
    }
    for (const word of ["translate", "proofread", "retouch", "install", "notarise", "plumber"]) {
      expect(isAskedWorkKey(keyOf(word)), word).toBe(true)
    }
    expect(keyOf("deliver")).not.toBe(keyOf("courier"))
    expect(termsOf("Carry out checks at the store").some(({ key }) => isAskedWorkKey(key))).toBe(false)
    expect(keyOf("carry")).toBe(keyOf("courier"))
    // Nor is a kind of work read inside an English word from its second letter ("p|reparation").
    expect(keyOf("preparation")).not.toBe(keyOf("repair"))
    expect(keyOf("prepared")).not.toBe(keyOf("repair"))
    expect(keyOf("business")).not.toBe(keyOf("factory"))
    expect(keyOf("bilingual")).toBe(keyOf("language"))
    for (const [text, slug] of [
      ["Test the water of three rivers near Oslo", "erik-larsen"],
      ["Fix the wifi in our Kuala Lumpur office", "farah-aziz"],
      ["Vérifier l'accessibilité d'un hôtel à Montréal", "camille-tremblay"],
      ["Write down what is said in a Quechua recording", "diego-quispe"],
      ["Count shared bikes in Amsterdam and deliver a CSV by Friday", "sanne-de-vries"],
      ["Deliver a translated Japanese contract in Word by Monday", "akiko-tanaka"],
      ["Interview store managers in Bogotá about out-of-stocks", "carlos-mendoza"],
      ["Survey e-scooter parking in Amsterdam", "sanne-de-vries"],
      ["Inspect shelves for out-of-stock items in Bogotá stores", "carlos-mendoza"],
      ["Pick up samples from a factory in Hanoi and ship them to us", "nguyen-thi-lan"]
    ] as const) {
      expect(searchDirectory(text, sample, 10).matches[0]?.participant.slug, text).toBe(slug)
    }
  })

  it("a task naming someone's whole discipline asks for their work, whatever else it names on the way", () => {
    // Photographing is no work of the water sampler's record; "water sampling" is all of it.
    const text = "Photograph water sampling points on a river in Oslo"
    expect(isWorkKey(keyOf("photograph"))).toBe(true)
    expect(searchDirectory(text, sample, 10).matches.map((m) => m.participant.slug)).toEqual(["erik-larsen"])
    // Named in part, it does not: "solar panel" is two of the three keys of "Solar panel inspection".
    expect(searchDirectory("Install solar panels on a roof in Perth", sample, 10).matches).toEqual([])
  })

  it("a discipline takes in the kinds of work it includes: a handyman and IT support install things", () => {
    // Installing is a kind of work of its own (an inspector of panels does not install them),
    // done by the disciplines whose concept includes it (`Concept.includes`).
    expect(keyOf("install")).not.toBe(keyOf("handyman"))
    expect(
      searchDirectory("Install a new router in our Kuala Lumpur office", sample, 10).matches[0]?.participant.slug
    ).toBe("farah-aziz")
    expect(searchDirectory("Install a TV bracket in a Denver flat", sample, 10).matches[0]?.participant.slug).toBe(
      "jack-thompson"
    )
  })

  it('a word any discipline uses is read as itself: "new" is no news, "file" no court, "sign" no sign language', () => {
    expect(keyOf("new")).not.toBe(keyOf("news"))
    expect(keyOf("file")).not.toBe(keyOf("court"))
    expect(keyOf("signs")).not.toBe(keyOf("asl"))
    expect(searchDirectory("A court runner in Dublin", sample, 10).matches[0]?.participant.slug).toBe("niamh-byrne")
  })

  it("who checks a car's condition is not asked to service or repair it, nor an electrical inspector to rewire; to check, they are", () => {
    for (const text of [
      "Change the oil and replace the brake pads of a sedan in Monterrey",
      "Cambio de aceite para mi coche en Monterrey",
      "An electrician to rewire a flat in Berlin"
    ]) {
      expect(searchDirectory(text, sample, 10).matches, text).toEqual([])
    }
    for (const text of [
      "Check the tyres and brakes of a second-hand SUV in Monterrey before I buy it",
      "Plug a diagnostic scanner into a used minivan in Monterrey",
      // A used pickup is a vehicle; a pickup of a parcel is a courier's.
      "Look over a used pickup in Monterrey before we buy it"
    ]) {
      expect(searchDirectory(text, sample, 10).matches[0]?.participant.slug, text).toBe("alejandro-ruiz")
    }
    expect(searchDirectory("Pickup of a parcel in Lisbon", sample, 10).matches[0]?.participant.slug).toBe(
      "joao-pereira"
    )
  })

  it("a trade nobody in the catalogue practises finds nobody, in any language, where people are", () => {
    for (const text of ["Mow the lawn at our office in Lagos", "Klempner für ein Leck in Berlin"]) {
      expect(searchDirectory(text, sample, 10).matches, text).toEqual([])
    }
    // Named in words nobody's record has and no concept names, the work is unread
    // (work_reading.ts): search lists the people of the place as weak matches, with the hint, and
    // still nobody is eligible (docs/decisions/unread-work.md).
    const piano = "Cours de piano pour mon fils à Lyon"
    const found = searchDirectory(piano, sample, 10)
    expect(found.matches.map((m) => [m.participant.slug, m.score])).toEqual([["marie-dubois", 0]])
    expect(found.hint).toMatch(/^This request's work could not be read: none of its words \(cours, piano, mon, fils\)/)
    expect(
      rankTop({ executionMode: "physical", location: "Lyon, France", text: piano }, sample, { limit: 5 }).eligible
    ).toBe(0)
  })
})

describe("the execution mode, read from wording and deliverables in any language", () => {
  it.each([
    // Files and online work → digital.
    ["Send the cleaned list back as a CSV file", "digital"],
    ["Deliver the translated contract as a Word file", "digital"],
    ["Übersetzen Sie unsere Website ins Französische", "digital"],
    ["Relecture et correction d'un rapport annuel", "digital"],
    ["Sous-titrer une vidéo, fichier SRT", "digital"],
    ["图像标注：为数据集画边界框", "digital"],
    // Visits, inspections, errands, deliveries → physical.
    ["Inspect a rental flat before the tenants move in", "physical"],
    ["Vérifier sur place l'état d'un appartement", "physical"],
    ["Entregar un paquete hoy", "physical"],
    ["東京の工場を訪問してほしい", "physical"],
    ["Interview shoppers in their homes", "physical"],
    // GPS tags are no labelling, a car's fault codes no software.
    ["Photograph shop fronts with GPS tags", "physical"],
    ["Read the fault code of a used car", "physical"],
    ["A mechanic to look over a used van: tyres, brakes and error codes", "physical"],
    // The premises work is for is no place it is done in.
    ["Write fake reviews for our restaurant", "digital"],
    // A tax return is desk work, in any language.
    ["Prepare my income tax return for 2025", "digital"],
    ["Steuererklärung für 2025 machen", "digital"],
    // A premises' website or app is on the web.
    ["Audit a restaurant's website for contrast problems", "digital"],
    ["Key the dishes of these restaurant menus into a spreadsheet", "digital"],
    // Both → hybrid.
    ["Visit three shops and send the prices as a spreadsheet", "hybrid"],
    // What the work is about says where only when the work does not: desk research on scooters.
    ["Size the market for electric scooters in Vietnam", "digital"],
    ["Desk study of the coffee market in Brazil, sources cited", "digital"],
    ["Check the electrical panels of a Berlin office", "physical"],
    // News articles and users' comments are on the web unless the work goes somewhere.
    ["Cross-check the figures quoted in a news article", "digital"],
    ["Screen user comments against our posting rules", "digital"],
    ["Attend a press conference in Seoul", "physical"],
    // A shop on the web is no premises and no online work; a bank statement is no bank to go to.
    ["Foto di prodotti su sfondo bianco per un negozio online, ad Atene", null],
    ["Match bank statements to invoices in Xero", "digital"],
    // Where, said in Thai, Hebrew, Greek, Ukrainian, Romanian, Vietnamese and Swahili.
    ["ตรวจสอบในสถานที่", "physical"],
    ["ראיון מרחוק", "digital"],
    ["Συνέντευξη εξ αποστάσεως", "digital"],
    ["Перевірка на місці", "physical"],
    ["Interviu de la distanță", "digital"],
    ["Phỏng vấn trực tuyến", "digital"],
    ["Mahojiano kwa mbali", "digital"],
    ["Gửi tệp PDF", "digital"],
    // Where, said in Finnish, Swedish, Czech, Hungarian, Vietnamese, Persian, Chinese and Thai.
    ["Käy paikan päällä tarkistamassa myymälä", "physical"],
    ["Besök butiken på plats", "physical"],
    ["Navštívit obchod osobně", "physical"],
    ["Személyesen meglátogatni az üzletet", "physical"],
    ["Đến cửa hàng trực tiếp", "physical"],
    ["بازدید حضوری از فروشگاه", "physical"],
    ["到店里实地查看", "physical"],
    ["ไปที่ร้านด้วยตนเอง", "physical"],
    ["Etätyönä verkossa", "digital"],
    ["På distans via nätet", "digital"],
    ["به صورت آنلاین و از راه دور", "digital"],
    // Neither: unknown, so that no one is filtered out by a guess.
    ["Looking for a photographer", null]
  ])("%s → %s", (text, mode) => {
    expect(inferExecutionMode(text)).toBe(mode)
  })

  it("a request naming a place and no online cue is done there, and search reports mode and place", () => {
    expect(inferExecutionMode("Fotograf für eine Wohnung in Athen")).toBe(null)
    expect(inferExecutionMode("Fotograf für eine Wohnung in Athen", true)).toBe("physical")
    // Usability work is done where it is asked for: in a city, there; online when it says so.
    expect(inferExecutionMode("Usability interviews with twelve shoppers", true)).toBe("physical")
    expect(inferExecutionMode("Usability tests of our app")).toBe("digital")
    const found = searchDirectory("Fotograf für eine Wohnung in Athen", sample, 10)
    expect(found).toMatchObject({ executionMode: "physical", location: "Athens, Greece" })
  })

  it("a named place the gazetteer does not know still says the work is there; a language or a tool after 'in' does not", () => {
    for (const text of [
      "Fotografirati kuću u Podgorici",
      "Zdjęcia mieszkania w Elblągu",
      "Photos of a flat in Gyumri"
    ]) {
      expect(searchDirectory(text, sample, 10), text).toMatchObject({ executionMode: "physical", location: null })
      expect(saysNamedPlace(text), text).toBe(true)
    }
    // A word of someone's work (Lightroom is in a retoucher's record) or a language is no place.
    expect(searchDirectory("Colour-correct a batch of images in Lightroom", sample, 10).executionMode).toBe(null)
    expect(saysNamedPlace("Proofread the leaflet in English")).toBe(false)
    // Capitalised as a sentence begins, "In" puts nothing at a place.
    expect(saysNamedPlace("In summer we need photos")).toBe(false)
    // Read as written: French "à" is a preposition, "a" is an article.
    expect(saysNamedPlace("Photos d'un appartement à Saint-Étienne")).toBe(true)
    expect(saysNamedPlace("Photos for a Shopify store")).toBe(false)
    // A flat's photographer, whose tag is real estate, before the flat's inspector.
    expect(searchDirectory("Fotografirati kuću u Podgorici", sample, 10).matches[0]?.participant.slug).toBe(
      "valentina-morales"
    )
  })
})

describe("boundaries: a person whose boundary rules the work out is not a match", () => {
  it("in any language: a certified translation is refused by the translator who takes no certified ones", () => {
    const akiko = sample.find((p) => p.slug === "akiko-tanaka")!
    const refused = (text: string) => eligibilityOf({ executionMode: "digital", text }, akiko, sample).refusedByBoundary
    expect(refused("Certified translation of a Japanese birth certificate")).toBe(true)
    expect(refused("Beglaubigte Übersetzung einer japanischen Geburtsurkunde")).toBe(true)
    expect(refused("Übersetzung einer japanischen Bedienungsanleitung")).toBe(false)
  })

  it("a test drive on a public road, said in German, is refused by who takes none; checking the car is not", () => {
    const found = searchDirectory("Gebrauchtwagen in Monterrey prüfen, mit Probefahrt auf der Autobahn", sample, 10)
    expect(found.matches).toEqual([])
    expect(found.hint).toMatch(/^Alejandro Ruiz \(alejandro-ruiz\), whose work fits this task best, rules it out/)
    expect(searchDirectory("Gebrauchtwagen in Monterrey prüfen", sample, 10).matches[0]?.participant.slug).toBe(
      "alejandro-ruiz"
    )
  })

  it("a clock time a boundary rules out: a courier who delivers until 22:00 is not asked for 23:00", () => {
    for (const text of ["Deliver a parcel across Cairo at 11 pm", "Livrer un colis au Caire à 23h30"]) {
      const late = searchDirectory(text, sample, 10)
      expect(late.matches, text).toEqual([])
      expect(late.hint, text).toMatch(/^Ahmed Hassan \(ahmed-hassan\), whose work fits this task best, rules it out/)
    }
    for (const text of ["Deliver a parcel across Cairo at 9 pm", "Deliver a parcel across Cairo by 21:30"]) {
      expect(searchDirectory(text, sample, 10).matches[0]?.participant.slug, text).toBe("ahmed-hassan")
    }
    // A number of hours is no time of day.
    expect(searchDirectory("Deliver 24 parcels across Cairo within 24h", sample, 10).matches[0]?.participant.slug).toBe(
      "ahmed-hassan"
    )
  })

  it("search names the specialist who refuses, and the dispatcher offers to someone else or nobody", () => {
    const text = "Beglaubigte Übersetzung einer japanischen Geburtsurkunde"
    const found = searchDirectory(text, sample, 10)
    expect(found.matches.map((m) => m.participant.slug)).not.toContain("akiko-tanaka")
    expect(found.hint).toMatch(
      /^Akiko Tanaka \(akiko-tanaka\), whose work fits this task best, rules it out: "No certified or sworn translations\."/
    )
    const ranking = rankTop({ executionMode: "digital", text }, sample, { limit: 5 })
    expect(ranking.refused?.participant.slug).toBe("akiko-tanaka")
    expect(ranking.best.map((r) => r.participant.slug)).not.toContain("akiko-tanaka")
  })
})

describe("requests in other words, languages and scripts find the specialist", () => {
  it.each([
    ["Übersetzung eines technischen Handbuchs aus dem Japanischen", "akiko-tanaka", null],
    ["Traducir un contrato del árabe al francés", "fatima-zahra-bennani", null],
    ["東京での商談に通訳が必要です", "hiroshi-sato", "Tokyo, Japan"],
    ["Нужен курьер в Лиссабоне", "joao-pereira", "Lisbon, Portugal"],
    ["Inspektion von Solaranlagen mit einer Drohne in Perth", "liam-obrien", "Perth, Australia"],
    ["Regalpreise im Supermarkt in Bukarest erfassen", "ana-popescu", "Bucharest, Romania"],
    ["Someone to snap pictures of a flat for rent in Santiago", "valentina-morales", "Santiago, Chile"],
    // Hebrew's one-letter proclitics read off words of the work ("לצלם", to photograph) and places.
    ["מישהו לצלם דירה בסנטיאגו", "valentina-morales", "Santiago, Chile"],
    // Russian and Ukrainian verbal prefixes read off the same way ("сфотографировать").
    ["Сфотографировать дом в Сантьяго для продажи", "valentina-morales", "Santiago, Chile"],
    ["Сфотографувати квартиру в Сантьяго", "valentina-morales", "Santiago, Chile"],
    ["ตรวจสอบแผงโซลาร์เซลล์ในเพิร์ธ", "liam-obrien", "Perth, Australia"],
    ["Verificarea prețurilor la raft în supermarketurile din București", "ana-popescu", "Bucharest, Romania"],
    // A district of a catalogue city, and a city in its metropolitan area.
    ["Visit a warehouse in Ikeja and send geotagged pictures", "amara-okafor", "Lagos, Nigeria"],
    ["Need a motorbike rider to drop off documents in Giza", "ahmed-hassan", "Giza, Egypt"],
    // Roles and paraphrases of the work: a location manager scouts, talking to people interviews
    // them, a contract is a document, an electrical installation is what an inspector checks.
    ["A location manager in Ecuador", "gabriela-andrade", "Ecuador"],
    ["Talk to 10 small traders in Abuja about how they use mobile money", "aisha-bello", "Abuja, Nigeria"],
    ["Bring a contract to a lawyer's office in Lisbon", "joao-pereira", "Lisbon, Portugal"],
    ["Confirm the electrical installation in a Berlin office is safe", "lukas-schmidt", "Berlin, Germany"],
    ["Rate the service at a Lyon restaurant as a customer", "marie-dubois", "Lyon, France"],
    // Drawing is an illustrator's work; drawing boxes on images is labelling.
    ["Draw a map of our campus for the website", "hana-novakova", null],
    ["Draw boxes around cars in 2,000 street images", "chen-wei", null],
    // Hungarian.
    ["Napelemek ellenőrzése drónnal Perthben", "liam-obrien", "Perth, Australia"],
    // Instructions for installing are documentation, not installing; hanging pictures is.
    ["Write installation instructions for our router firmware in English", "ingrid-johansson", null],
    ["Hang three framed pictures and a mirror in a Denver flat", "jack-thompson", "Denver, United States"],
    // Bengali.
    ["ইংরেজিতে ডেটা এন্ট্রি এবং স্প্রেডশিট পরিষ্কার করা", "nusrat-jahan", null],
    // The person named by their role.
    ["A sub-editor for a long report", "emily-hart", null],
    ["An IT technician in Kuala Lumpur", "farah-aziz", "Kuala Lumpur, Malaysia"],
    ["An odd-job man in Denver", "jack-thompson", "Denver, United States"],
    ["A paralegal in Dublin to file papers at the High Court", "niamh-byrne", "Dublin, Ireland"],
    ["Get an affidavit sworn in Toronto", "ethan-clarke", "Toronto, Canada"],
    // "Polish" before an article is the verb (editing), not the language.
    ["Polish the wording of a grant proposal", "emily-hart", null],
    // The work in Vietnamese, Swahili, Ukrainian, Hebrew, Greek and Romanian.
    ["Dịch tài liệu từ tiếng Nhật sang tiếng Anh", "akiko-tanaka", null],
    ["Kutafsiri nyaraka kutoka Kijapani kwenda Kiingereza", "akiko-tanaka", null],
    ["Перевірка електропроводки в офісі в Берліні", "lukas-schmidt", "Berlin, Germany"],
    ["צילום מוצרים לחנות אונליין באתונה", "eleni-papadopoulou", "Athens, Greece"],
    ["Επιμέλεια κειμένου στα αγγλικά", "emily-hart", null],
    ["Sondaj în gospodării din Addis Abeba", "meron-tesfaye", "Addis Ababa, Ethiopia"],
    // Polish and Czech verbal prefixes read off as Russian ones are ("sfotografować", "zkontrolovat"),
    // and a Czech locative ("v Berlíně").
    ["Sfotografować dom w Santiago na sprzedaż", "valentina-morales", "Santiago, Chile"],
    ["Zkontrolovat elektroinstalaci v kanceláři v Berlíně", "lukas-schmidt", "Berlin, Germany"],
    ["Nakreslit ilustraci na obálku knihy", "hana-novakova", null],
    // Asking people (a number between) is a survey; going to look at something is a check on site.
    ["Ask 120 residents of Addis Ababa how they pay for water", "meron-tesfaye", "Addis Ababa, Ethiopia"],
    ["Someone in Lagos to go and see whether a shop is still there", "amara-okafor", "Lagos, Nigeria"],
    // Handing over documents is a courier's, not only an office's; rendering into a language is
    // translating.
    ["Entregar documentos firmados en Lisboa", "joao-pereira", "Lisbon, Portugal"],
    ["Render a Spanish press release in English", "lucia-garcia", null],
    ["Penerjemah bahasa Spanyol untuk situs web", "lucia-garcia", null],
    // Cutting out a background is the retoucher's own work, ahead of a photographer who retouches.
    ["Scontorno di 80 foto di prodotti", "sofia-rossi", null],
    // Doors and ramps measured for access, in French.
    ["Mesurer la largeur des portes d'un musée à Montréal", "camille-tremblay", "Montréal, Canada"],
    // Provenance of a picture is a fact-checker's; Vietnamese garment workshops and samples.
    ["Where was this photo first posted?", "tomasz-kowalski", null],
    ["Tìm xưởng may ở Hà Nội và gửi hàng mẫu", "nguyen-thi-lan", "Hanoi, Vietnam"],
    // Typing out what was said is transcribing; typing up forms is data entry. Labelling images,
    // a number between.
    ["Type out a recorded interview in Quechua", "diego-quispe", null],
    ["Type up handwritten forms into a spreadsheet", "nusrat-jahan", null],
    ["Label 2,000 images of road signs", "chen-wei", null],
    ["Label 500 frames of dashcam footage", "chen-wei", null],
    // More languages: Indonesian, Swedish, Czech, Finnish; Persian, whose letters fold to Arabic's.
    ["Juru bahasa Jepang untuk rapat di Tokyo", "hiroshi-sato", "Tokyo, Japan"],
    ["Bokföring för ett litet företag", "sipho-ndlovu", null],
    ["Tajný nákupčí v obchodě v Lyonu", "marie-dubois", "Lyon, France"],
    ["Namluvení reklamy ve španělštině", "mateo-fernandez", null],
    ["Kirjanpito pienelle yritykselle", "sipho-ndlovu", null],
    ["بازرسی برق دفتر در برلین", "lukas-schmidt", "Berlin, Germany"],
    ["ترجمه قرارداد از انگلیسی به ژاپنی", "akiko-tanaka", null]
  ])("%s → %s", (text, slug, location) => {
    const found = searchDirectory(text, sample, 10)
    expect(found.matches[0]?.participant.slug).toBe(slug)
    expect(found.location).toBe(location)
  })

  it("one concept whatever the language: the analyser folds accents, reads compounds and unspaced scripts", () => {
    expect(keyOf("ubersetzung")).toBe(keyOf("translation"))
    expect(keyOf("traduccion")).toBe(keyOf("translated"))
    expect(termsOf("Produktfotos").map((t) => t.key)).toEqual([keyOf("product"), keyOf("photos")])
    expect(termsOf("技術マニュアルを翻訳").map((t) => t.key)).toContain(keyOf("translation"))
    // A run of an unspaced script gives its keys in the order it names them (the first weighs most).
    expect(termsOf("แปลเอกสารภาษาญี่ปุ่น").map((t) => t.key)).toEqual([
      keyOf("translation"),
      keyOf("document"),
      keyOf("japanese")
    ])
    // Related but distinct work stays apart in every language.
    expect(keyOf("dolmetscher")).toBe(keyOf("interpreter"))
    expect(keyOf("dolmetscher")).not.toBe(keyOf("ubersetzer"))
    // Another language's listed beginning that covers more of a word than its English stem wins:
    // "parcelles" are plots of land, "parcels" go by courier.
    // A compound naming nothing whole is read by an English word it begins with ("mysterie", a
    // mystery, the Dutch "mysteriebezoeker", a mystery visitor), not by a short word or its last part alone.
    expect(termsOf("Mysteriebezoeker gezocht").map((t) => t.key)).toContain(keyOf("mystery"))
    expect(keyOf("screenshots").startsWith("~")).toBe(false)
    expect(keyOf("parcelles")).toBe(keyOf("crops"))
    expect(keyOf("parcels")).toBe(keyOf("courier"))
    // Latin-script Slavic prefixes are read off a word that names nothing as written, when what
    // is left begins another language's entry of five letters or more; English words keep theirs.
    expect(keyOf("sfotografowac")).toBe(keyOf("photograph"))
    expect(keyOf("zkontrolovat")).toBe(keyOf("inspection"))
    expect(keyOf("przetlumaczyc")).toBe(keyOf("translation"))
    expect(keyOf("opravit")).toBe(keyOf("repair"))
    for (const word of ["sprint", "position", "obtain", "support", "download", "overview", "update"]) {
      expect(keyOf(word).startsWith("~"), word).toBe(false)
    }
    // The work's words in more languages: Finnish, Swedish, Danish, Czech, Croatian, Serbian,
    // Hungarian, Tagalog, Italian, Persian, Urdu; a letter that may be an Arabic clitic may also
    // begin the word ("بازرسی", an inspection; "والترجمة", and the translation).
    for (const [word, like] of [
      ["kaannos", "translation"],
      ["oversattning", "translation"],
      ["oversaettelse", "translation"],
      ["preklad", "translation"],
      ["prijevod", "translation"],
      ["превод", "translation"],
      ["forditas", "translation"],
      ["pagsasalin", "translation"],
      ["trascrizione", "transcription"],
      ["litterointi", "transcription"],
      ["valokuvaus", "photograph"],
      ["tarkastus", "inspection"],
      ["بازرسی", "inspection"],
      ["فحوصات", "inspection"],
      ["والترجمة", "translation"],
      ["مصور", "photograph"],
      ["pruzkum", "survey"],
      ["kysely", "survey"],
      ["kuryr", "courier"],
      ["fattorino", "courier"],
      // The person named by their role, in more languages.
      ["cevirmen", "translation"],
      ["mtafsiri", "translation"],
      ["akuntan", "bookkeeping"],
      ["mekaniker", "vehicle"],
      ["montir", "vehicle"],
      ["تصویرگر", "illustration"],
      ["カメラマン", "photograph"],
      ["配達員", "courier"]
    ] as const) {
      expect(termsOf(word)[0]?.key, word).toBe(keyOf(like))
    }
    // "Render" is translating only when a language is named.
    expect(termsOf("Render the user guide in English").map((t) => t.key)).toContain(keyOf("translation"))
    expect(termsOf("Render a 3D model of the kitchen").map((t) => t.key)).not.toContain(keyOf("translation"))
    // A number inside a phrase is read past; a phrase with none is read as before.
    expect(termsOf("ask 300 households").map((t) => t.key)).toEqual([keyOf("survey")])
    expect(termsOf("ask households").map((t) => t.key)).toEqual([keyOf("survey")])
    expect(termsOf("ask 300").map((t) => t.key)).not.toContain(keyOf("survey"))
  })

  it.each([
    ["צריך שליח בתל אביב", "Tel Aviv, Israel"],
    ["توصيل مستندات بالقاهرة", "Cairo, Egypt"],
    ["Kurier w Warszawie", "Warsaw, Poland"],
    ["Φωτογράφος στη Θεσσαλονίκη", "Thessaloniki, Greece"],
    ["ช่างภาพในกรุงเทพ", "Bangkok, Thailand"],
    ["Kurye lazım Ankara'da", "Ankara, Türkiye"],
    // Names in the scripts of the languages agents write in, and inflected after "in".
    ["שליח בקהיר", "Cairo, Egypt"],
    ["ล่ามในโตเกียว", "Tokyo, Japan"],
    ["Φωτογράφος στη Λισαβόνα", "Lisbon, Portugal"],
    ["Kurier w Lizbonie", "Lisbon, Portugal"],
    ["Кур'єр у Берліні", "Berlin, Germany"],
    ["Курьер в Перте", "Perth, Australia"],
    ["Villanyszerelés ellenőrzése Berlinben", "Berlin, Germany"],
    ["Berlinde bir kurye", "Berlin, Germany"],
    ["Fotograf v Praze", "Prague, Czechia"],
    // Finnish locatives; Finnish, Czech and Persian names of the catalogue's cities.
    ["Tulkki liikeneuvotteluun Tokiossa", "Tokyo, Japan"],
    ["Sähkötarkastus toimistossa Berliinissä", "Berlin, Germany"],
    ["Kurýr v Londýně", "London, United Kingdom"],
    ["عکاس محصول در آتن", "Athens, Greece"],
    // Croatian, Serbian and Slovene locatives of names ending in a vowel; Hungarian's lower-case
    // adjective of a place; a Portuguese exonym.
    ["Fotografirati kuću u Torontu", "Toronto, Canada"],
    ["Notar v Ljubljani", "Ljubljana, Slovenia"],
    ["Kurir za dokumente u Varšavi", "Warsaw, Poland"],
    ["Árak gyűjtése lagosi boltokban", "Lagos, Nigeria"],
    ["Contar trotinetes estacionadas em Amesterdão", "Amsterdam, Netherlands"],
    // Slovene -ju, Lithuanian -e of a name in -o; Amharic's joined "in"; Nepali's and Tamil's
    // joined postpositions (read folded: their vowel signs are marks); exonyms.
    ["Kurir v Helsinkiju", "Helsinki, Finland"],
    ["Fotografas Toronte", "Toronto, Canada"],
    ["በአዲስ አበባ ፎቶ አንሺ", "Addis Ababa, Ethiopia"],
    ["काठमाडौंमा फोटोग्राफर", "Kathmandu, Nepal"],
    ["மும்பையில் புகைப்படக்காரர்", "Mumbai, India"],
    ["Kurir u Lisabonu", "Lisbon, Portugal"],
    ["Ya fọ́tò ní Èkó", "Lagos, Nigeria"]
  ])("places written locally: %s is in %s", (text, location) => {
    expect(searchDirectory(text, sample, 10).location).toBe(location)
  })

  it("an ending is read off a place's name only when what is left is a place and the word is none", () => {
    for (const text of [
      "Send the photos often",
      "Reuben needs a courier",
      "Proofread a Tokyoite's blog",
      // A capitalised "-i" is a language or a people, not Hungarian's adjective of a place.
      "A Nepali speaker to proofread our leaflet"
    ]) {
      expect(searchDirectory(text, sample, 10).location, text).toBe(null)
    }
  })
})

describe("words read as the work they name, not as what comes back or a unit it comes in", () => {
  const first = (text: string) => searchDirectory(text, sample, 10).matches[0]?.participant.slug

  it("a file, or its format, says the work is online, not who does it: the subtitler before a translator listing SRT", () => {
    expect(first("Untertitel für ein Video auf Englisch, als SRT-Datei")).toBe("aroha-parata")
    expect(inferExecutionMode("Untertitel für ein Video auf Englisch, als SRT-Datei")).toBe("digital")
  })

  it("a shop on the web is e-commerce, and a number counts things, not skills: the product photographer first", () => {
    // "12" once matched a store auditor's "Up to 12 stores per day", "online store" a store.
    expect(first("Photograph 12 rings on white for our online store")).toBe("eleni-papadopoulou")
    expect(termsOf("Label 200 images").map((t) => t.word)).not.toContain("200")
  })

  it("typing up what is named as dictated is transcribing it, not data entry", () => {
    expect(termsOf("Type up a dictated interview with a surgeon").map((t) => t.key)).toEqual([
      keyOf("transcription"),
      keyOf("interview"),
      keyOf("surgeon")
    ])
  })

  it("looking something up is desk work; a chatbot is software", () => {
    expect(inferExecutionMode("Look up court rulings on tenant deposits")).toBe("digital")
    expect(inferExecutionMode("Rate a chatbot's replies for tone")).toBe("digital")
    expect(inferExecutionMode("Go and look at a shop front in Lagos")).toBe("physical")
  })

  it("the language a task is written in breaks a tie between people whose work fits it equally, and only a tie", () => {
    expect(requestLanguageOf("Benutzerforschung für unsere neue App")).toBe(keyOf("german"))
    expect(requestLanguageOf("사진 편집해 주세요")).toBe(keyOf("korean"))
    expect(requestLanguageOf("Ina bukatar wanda zai dauki hotuna")).toBe(keyOf("hausa"))
    expect(requestLanguageOf("Proofread our annual report for the board")).toBeUndefined()
    // Ranking reads it remembered with the text's terms (`languageIn`): the same answer, first or again.
    const index = directoryIndexOf(sample)
    for (const text of ["Benutzerforschung für unsere neue App", "사진 편집해 주세요", "Proofread our report"]) {
      for (const _read of [1, 2]) expect(languageIn(index, text)).toBe(requestLanguageOf(text))
    }
    // So are a location's people (`participantsIn`): the same people, first or again.
    const inBerlin = [...participantsIn(index, "Berlin, Germany")].sort()
    expect(inBerlin.map((i) => sample[i]!.location).every((l) => l.includes("Berlin"))).toBe(true)
    expect(inBerlin.length).toBeGreaterThan(0)
    expect([...participantsIn(index, "Berlin, Germany")].sort()).toEqual(inBerlin)
    // Of two UX researchers, the one who speaks German (by slug, the other came first).
    expect(first("Benutzerforschung für unsere neue App")).toBe("jonas-weber")
    // Not evidence: the German speakers are no translators of Japanese.
    expect(first("Übersetzung eines Vertrags aus dem Japanischen ins Englische")).toBe("akiko-tanaka")
  })

  it("records are kept papers; a recording and to record are audio", () => {
    expect(keyOf("records")).toBe(keyOf("documents"))
    expect(keyOf("record")).toBe(keyOf("recording"))
  })

  it("an inspector verifies; making sure is verifying; someone who signs signs a language; to hand a thing is to carry it", () => {
    expect(first("Verify that a shop address in Nairobi exists")).toBe("grace-wanjiku")
    expect(first("Make sure the shop sign of a pharmacy in Lagos is still up")).toBe("amara-okafor")
    expect(first("A person who signs, for a parents' evening in Chicago")).toBe("danielle-brooks")
    expect(first("Hand a box of keys to our landlord in Cairo today")).toBe("ahmed-hassan")
    // By hand is no errand.
    expect(termsOf("Draw it by hand").map((t) => t.key)).not.toContain(keyOf("courier"))
  })

  it.each([
    ["vertaal", "translation"],
    ["provjeriti", "verification"],
    ["pregledati", "inspection"],
    ["stanovanja", "apartment"],
    ["binciken", "research"],
    ["vandenį", "water"],
    ["mėginių", "samples"],
    ["castellano", "spanish"],
    ["የዳሰሳ", "survey"],
    ["एन्ड्रोइड", "android"],
    ["ஆவணம்", "documents"],
    ["சமர்ப்பித்தல்", "submission"],
    ["prevajanje", "translation"],
    ["intervju", "interview"],
    ["trgovina", "shops"],
    ["jurubahasa", "interpreter"],
    ["pristatymas", "delivery"],
    ["cijene", "prices"],
    ["popravak", "repair"],
    ["ஆராய்ச்சி", "research"]
  ])(
    "a word of the work in Dutch, Croatian, Slovene, Hausa, Lithuanian, Catalan, Amharic, Nepali or Tamil: %s is %s",
    (word, english) => {
      expect(termsOf(word).map((t) => t.key)).toContain(keyOf(english))
    }
  )

  it("transcribing in Polish, IT support in Malay, Quechua in Polish", () => {
    expect(keyOf("przepisac")).toBe(keyOf("transcription"))
    expect(first("Przepisać rozmowy z nagrań")).toBe("olivia-nguyen")
    expect(first("Sokongan IT jarak jauh untuk syarikat kami")).toBe("farah-aziz")
    expect(keyOf("keczua")).toBe(keyOf("quechua"))
  })

  it("a boundary naming content in a unit of work (queues, tasks) rules out the content, however it comes", () => {
    const found = searchDirectory("Review Turkish posts that show extreme violence", sample, 10)
    expect(found.matches).toEqual([])
    expect(found.hint).toMatch(/^Aylin Demir \(aylin-demir\), whose work fits this task best, rules it out/)
    expect(first("Review Turkish posts against our community guidelines")).toBe("aylin-demir")
  })
})

describe("nobody, only when nobody plausibly can, with the reason", () => {
  it("a place nobody works in, written locally", () => {
    for (const [text, place] of [
      ["Доставка посилки у Києві", "Kyiv, Ukraine"],
      ["צלם חתונות בירושלים", "Jerusalem, Israel"],
      ["Φωτογράφος στη Ρώμη", "Rome, Italy"],
      ["ช่างภาพในเชียงใหม่", "Chiang Mai, Thailand"],
      ["مترجم فوري في الرياض", "Riyadh, Saudi Arabia"]
    ] as const) {
      const found = searchDirectory(text, sample, 10)
      expect(found.matches, text).toEqual([])
      expect(found.hint, text).toMatch(new RegExp(`^Nobody in the catalogue works in ${place}`))
    }
  })

  it("a place nobody works in", () => {
    const found = searchDirectory("Wohnung fotografieren in München", sample, 10)
    expect(found.matches).toEqual([])
    expect(found.hint).toMatch(/^Nobody in the catalogue works in Munich, Germany/)
  })

  it("work asked in a language nobody listed works in: listed, but said to be weak", () => {
    const korean = searchDirectory("Translate a Korean contract into English", sample, 10)
    expect(korean.matches.length).toBeGreaterThan(0)
    expect(korean.hint).toMatch(/asks for work in korean, and nobody listed works in it/)
    for (const text of [
      "Subtitle a film in Finnish",
      "Moderate Ukrainian comments",
      "Traduire un contrat du hongrois"
    ]) {
      expect(searchDirectory(text, sample, 10).hint, text).toMatch(/^Weak matches only: this task asks for work in /)
    }
    // A language someone listed works in, or none named but English: no such hint.
    expect(searchDirectory("Translate a Japanese contract into English", sample, 10).hint).toBeUndefined()
    expect(searchDirectory("Proofread our English annual report", sample, 10).hint).toBeUndefined()
  })

  it("work nobody does, where people are", () => {
    const found = searchDirectory("Repair a leaking roof in Berlin", sample, 10)
    expect(found.matches).toEqual([])
    expect(found.hint).toMatch(/^Nobody in the catalogue can take this task \(physical, in Berlin, Germany\)/)
    // In words the service cannot read, it may be that or unread work: said so, the people of the
    // place listed as weak matches, nobody eligible.
    const piano = searchDirectory("Klavier stimmen in Berlin", sample, 10)
    expect(piano.matches.map((m) => [m.participant.slug, m.score])).toEqual([["lukas-schmidt", 0]])
    expect(piano.hint).toMatch(/could not be read.*or name work nobody here does/s)
  })

  it("work nobody here does, and a boundary rules out: spraying crops, fake reviews, an appliance repair in Czech", () => {
    for (const text of [
      "Spray pesticide on a cotton field near Lilongwe",
      "Write fake reviews of our hotel",
      "Prepare my income tax return for 2025",
      "Opravit myčku v Praze"
    ]) {
      expect(searchDirectory(text, sample, 10).matches, text).toEqual([])
    }
    // Who surveys crop fields still does.
    expect(searchDirectory("Survey crop fields near Lilongwe", sample, 10).matches[0]?.participant.slug).toBe(
      "thandiwe-banda"
    )
  })

  it("the only one who does it refuses it by their boundary", () => {
    const found = searchDirectory("Valuation opinion on a house in Nairobi", sample, 10)
    expect(found.matches).toEqual([])
    expect(found.hint).toMatch(
      /^Grace Wanjiku \(grace-wanjiku\), whose work fits this task best, rules it out: "No valuation opinions/
    )
    expect(found.hint).toMatch(/Nobody else in the catalogue can take it/)
  })
})
