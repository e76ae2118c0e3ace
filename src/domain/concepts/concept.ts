/**
 * What a concept of matching's concept layer is (its data: the modules beside this one, joined in
 * work.ts; and trades.ts): kinds of work, the things they are about, and what comes of them,
 * each one concept whatever the language it is named in. Every word of a
 * participant's profile and of a task that names a concept reads as that concept's key, so
 * "translation", "Übersetzung", "traduction", "перевод" and "翻訳" meet; a concept's `family`
 * groups related work (translation, interpretation and subtitling are language work; kept as
 * data, it does not score); its `mode` is where such work happens when the wording says no more.
 *
 * How each list is read (src/domain/words.ts):
 * - `en`: English words, each matched as written and by its Porter stem ("translated" meets
 *   "translation"); a word as written wins over a stem another concept lists ("documentation"
 *   is documentation, "documents" paperwork).
 * - `stems`: the concept's words in other languages and scripts, folded (accents and case gone),
 *   each matched as the beginning of a word ("tradu" is "traducción", "traduire", "tradução",
 *   "traduzione") or, in a long word, as a part of it (German and Dutch compounds: "Regalpreise",
 *   "zonnepanelen"). Entries in scripts written without spaces (Chinese, Japanese, Korean, Thai)
 *   are matched anywhere in a run of that script. An entry ending "$" is matched only whole.
 *
 * Written from the vocabulary of the work itself (what the work is called, in the languages
 * agents write in), never from a judged request: a word here must name the concept for anyone.
 */

export type Family =
  | "language"
  | "imaging"
  | "inspection"
  | "retail"
  | "errands"
  | "research"
  | "data"
  | "software"
  | "design"
  | "fieldwork"
  | "events"
  | "legal"
  | "finance"
  | "it"
  | "audio"
  | "sourcing"

export interface Concept {
  readonly concept: string
  readonly family?: Family
  /**
   * A kind of work (what is done: translation, inspection, repair), as against what work is
   * about or what comes of it (solar panels, a video, a document). A task that names a kind of
   * work asks for someone who does it (`doesTheWork`, src/domain/matching_rules.ts).
   * "shared": work done in several disciplines (research, surveys, interviews, audits,
   * inspections, testing, verification, picking up and carrying things): whoever does it does the work asked, but named alone it asks for no one
   * discipline's work ("Interview store managers", "Survey e-scooter parking": the store
   * auditor, the fleet auditor).
   */
  readonly work?: true | "shared"
  /**
   * Kinds of work this one takes in (by concept name): whoever's record names it does them too (a
   * handyman installs and mounts things; IT support sets devices up). Read into participants'
   * profiles, at the weight of the field that names this one; a task is read as written.
   */
  readonly includes?: ReadonlyArray<string>
  /**
   * Where such work happens, when the wording says no more: on site, or online. The mode of a
   * kind of work (`work`) or of a word saying where work happens (`saysWhere`) decides; the mode
   * of what work is about (solar panels, an app, a shelf) counts only when nothing else in the
   * text says where ("Size the market for electric scooters in Vietnam" is desk research).
   */
  readonly mode?: "physical" | "digital"
  /**
   * Work done in a language (translation, interpretation, transcription, subtitling, editing, a
   * voice-over, moderation): a task asking for it and naming languages other than English asks
   * for someone whose record has one of them (`languagesAsked`, src/domain/matching_rules.ts).
   */
  readonly inLanguages?: true
  /** The concept says where work happens (on site, online, a visit, a file sent back). */
  readonly saysWhere?: true
  readonly en: string
  readonly stems?: string
}
