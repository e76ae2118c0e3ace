/**
 * Whether a request's work was read at all (issue 36): the words of a request in a language the
 * concept layer has no vocabulary for ("ლისაბონში ამანათის მიტანა") give keys nobody's record has
 * and no concept names, so the ranking finds nobody — not because nobody does the work, but
 * because none of its words was understood. More vocabulary will never cover every language; this
 * measure says when it did not, so that search can say so (directory_search.ts). Pure
 * (docs/decisions/unread-work.md).
 */
import { type DirectoryIndex, queryIn } from "./directory_index.ts"
import { isClockKey } from "./matching_rules.ts"
import type { Term } from "./words.ts"

/** What was read of a request's work. */
export interface WorkReading {
  /**
   * The request's content words: its terms (`queryOf`: stop words, numbers, the places it names
   * and the words that only say where work happens are left out already) less its clock times.
   */
  readonly content: number
  /** Of those, the words that gave a key the reader knows: a concept's, or one the directory's records use. */
  readonly read: number
  /** The words that gave neither, as the request wrote them (folded). */
  readonly unread: ReadonlyArray<string>
}

/**
 * Content words a request must have, none of them read, for its work to count as unread: one.
 * A request with no content word at all ("in Lisbon, please") names no work to read, and says
 * nothing a hint about reading could fix beyond what the no-match hint says already.
 */
export const fewestUnreadWords = 1

/**
 * What was read of a request's terms, `knows` telling whether a key is known: a concept's key
 * (every language's words for one concept share it), or a key the directory's postings have.
 */
export const workReadingOf = (query: ReadonlyArray<Term>, knows: (key: string) => boolean): WorkReading => {
  let content = 0
  let read = 0
  const unread: Array<string> = []
  for (const { key, word } of query) {
    if (isClockKey(key)) continue
    content++
    if (knows(key)) read++
    else if (!unread.includes(word)) unread.push(word)
  }
  return { content, read, unread }
}

/**
 * The one rule: a request's work is unread when it has content words (`fewestUnreadWords`) and
 * not one of them gave a known key. One known key is enough to call it read, however many words
 * are not: then the ranking had something to go on, and a request naming known work nobody does
 * ("install solar panels") is read — and answered with nobody.
 */
export const isUnread = (reading: WorkReading): boolean => reading.content >= fewestUnreadWords && reading.read === 0

/** Whether a key is a concept's (`conceptKey`, `familyKey`): known to the reader in every language. */
export const isConceptKey = (key: string): boolean => key.startsWith("~")

/**
 * What was read of a text's work against a directory: its terms (`queryIn`) judged by what the
 * reader knows there, a concept's key or a key the directory's records use (its postings). The
 * one reading search, feasibility and their tests share.
 */
export const workReadingIn = (index: DirectoryIndex, text: string): WorkReading =>
  workReadingOf(queryIn(index, text), (key) => isConceptKey(key) || index.postings.has(key))
