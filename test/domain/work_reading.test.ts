// Requests whose work cannot be read (issue 36): a stated measure of what was read of a request's
// work (src/domain/work_reading.ts), and what POST /search answers when none of it was — the
// people of the request's place, flagged as weak and below the one threshold, so that neither
// preflight's feasibility nor the dispatcher counts or offers to them
// (docs/decisions/unread-work.md).
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { directoryIndexOf } from "../../src/domain/directory_index.ts"
import { searchDirectory } from "../../src/domain/directory_search.ts"
import { dueMove } from "../../src/domain/dispatch.ts"
import { inPlaceWhateverTheWork, rankTop } from "../../src/domain/matching.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { fewestUnreadWords, isUnread, workReadingIn } from "../../src/domain/work_reading.ts"
import { storedTask } from "../support/tasks.ts"

const sample: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)

/** Two couriers in Bergen, one whose record names Greek; and an illustrator there, who works online. */
const bergen = (slug: string, overrides: Partial<ParticipantRecord> = {}): ParticipantRecord => ({
  slug,
  name: slug,
  discipline: "Courier",
  location: "Bergen, Norway",
  task_type: "physical",
  tags: ["parcels"],
  capabilities: ["Same-day delivery"],
  returns: "Photo of the handover",
  boundary: null,
  ...overrides
})
const directory = [
  bergen("a-courier"),
  bergen("b-courier", { tags: ["parcels", "Greek"] }),
  bergen("c-illustrator", { discipline: "Illustration", task_type: "digital", tags: ["drawing"] }),
  ...sample
]

const readingOf = (text: string, everyone: ReadonlyArray<ParticipantRecord> = directory) =>
  workReadingIn(directoryIndexOf(everyone), text)
const slugs = (text: string, switchedOn = true, everyone: ReadonlyArray<ParticipantRecord> = directory) =>
  searchDirectory(text, everyone, 10, undefined, switchedOn).matches.map((m) => m.participant.slug)

describe("what was read of a request's work", () => {
  it("counts content words, and those that gave a concept's key or one the directory's records use", () => {
    // Georgian, which the concept layer has no word of: nothing read.
    const georgian = readingOf("ამანათის მიტანა ოფისიდან კლიენტამდე")
    expect(georgian).toMatchObject({ content: 4, read: 0 })
    expect(isUnread(georgian)).toBe(true)
    // English words nobody's record has and no concept names are unread too.
    const nonsense = readingOf("Blorf the zibbles quickly")
    expect(nonsense.read).toBe(0)
    expect(nonsense.unread).toEqual(["blorf", "zibbles", "quickly"])
    expect(isUnread(nonsense)).toBe(true)
  })

  it("leaves out places, numbers and clock times; a request with no content word is not unread", () => {
    expect(readingOf("Zorbla 12 vintriks in Bergen at 23:00")).toMatchObject({ content: 2, read: 0 })
    expect(fewestUnreadWords).toBe(1)
    const nothing = readingOf("in Bergen, 23:00")
    expect(nothing.content).toBe(0)
    expect(isUnread(nothing)).toBe(false)
  })

  it("calls a request naming known work nobody here does read, however many other words are not", () => {
    const solar = readingOf("Install solar panels on the roof of our zorbla in Perth")
    expect(solar.read).toBeGreaterThan(0)
    expect(isUnread(solar)).toBe(false)
    // One word the catalogue uses is enough ("parcels", in the couriers' tags).
    expect(isUnread(readingOf("Zorbla vintrik parcels"))).toBe(false)
  })
})

describe("POST /search on a request whose work could not be read", () => {
  it("lists the people of its place who take its mode, as weak matches (score 0, nothing matched), with a hint", () => {
    const found = searchDirectory("Zorbla the vintrik in Bergen", directory, 10)
    expect(found).toMatchObject({ executionMode: "physical", location: "Bergen, Norway" })
    // The illustrator works online: the mode still filters.
    expect(found.matches.map((m) => m.participant.slug)).toEqual(["a-courier", "b-courier"])
    expect(found.matches.every((m) => m.score === 0 && m.matched.length === 0)).toBe(true)
    expect(found.hint).toMatch(/^This request's work could not be read: none of its words \(zorbla, vintrik\)/)
    expect(found.hint).toContain("the participants who work in Bergen, Norway and take physical tasks")
    expect(found.hint).toContain("declined with no_match")
  })

  it("without the fallback (switched off to measure), answers nobody as before", () => {
    expect(slugs("Zorbla the vintrik in Bergen", false)).toEqual([])
  })

  it("lists first those whose record names the request's language, then in slug order", () => {
    expect(slugs("Ζορμπλα βιντρικ Bergen")).toEqual(["b-courier", "a-courier"])
    expect(slugs("Zorbla the vintrik in Bergen", true, directory.slice().reverse())).toEqual(["a-courier", "b-courier"])
  })

  it("keeps every other rule: limit, availability and boundaries (a Cairo courier refuses 23:00)", () => {
    expect(searchDirectory("Zorbla the vintrik in Bergen", directory, 1).matches).toHaveLength(1)
    const off = searchDirectory("Zorbla the vintrik in Bergen", directory, 10, new Set(["a-courier"]))
    expect(off.matches.map((m) => m.participant.slug)).toEqual(["b-courier"])
    expect(slugs("Zorbla the vintrik in Cairo")).toEqual(["ahmed-hassan"])
    const late = searchDirectory("Zorbla the vintrik in Cairo at 23:00", directory, 10)
    expect(late.matches).toEqual([])
    expect(late.hint).toMatch(/could not be read.*Nobody is listed: nobody in Cairo, Egypt can take it/s)
  })

  it("lists nobody for work bound to no place, and says the work could not be read", () => {
    const online = searchDirectory("Zorbla the vintrik online", directory, 10)
    expect(online.executionMode).toBe("digital")
    expect(online.matches).toEqual([])
    expect(online.hint).toMatch(/^This request's work could not be read.*for work bound to no place/s)
    expect(
      inPlaceWhateverTheWork({ executionMode: "digital", location: "Bergen", text: "zorbla" }, directory, {
        limit: 10
      })
    ).toEqual([])
  })

  it("still answers a place nobody works in with that reason", () => {
    const madrid = searchDirectory("Zorbla the vintrik in Madrid", directory, 10)
    expect(madrid.matches).toEqual([])
    expect(madrid.hint).toMatch(/^Nobody in the catalogue works in Madrid/)
  })

  it("leaves read work nobody does with nobody: installing solar panels in Perth", () => {
    const solar = searchDirectory("Install solar panels on a house in Perth", directory, 10)
    expect(solar.matches).toEqual([])
    expect(solar.hint).not.toMatch(/could not be read/)
  })

  it("is below the one threshold: feasibility counts nobody and the dispatcher offers to nobody", () => {
    const task = { executionMode: "physical" as const, location: "Bergen, Norway", text: "Zorbla the vintrik" }
    expect(rankTop(task, directory, { limit: 5 })).toMatchObject({ eligible: 0, best: [] })
    const open = storedTask({
      executionMode: "physical",
      brief: { ...storedTask().brief, action: task.text, expected_result: "", location: task.location }
    })
    const move = dueMove(open, "2026-11-21T10:00:00.000Z", directory)
    expect(move?.followedBy).toMatchObject({ to: "declined", reason: "no_match" })
  })
})
