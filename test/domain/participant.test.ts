// A participant's profile as they edit it (`ProfileEdit`): trimmed, its limits said once
// (`profileLimits`) and refused with a sentence naming the member, every member checked at once;
// and the slug a sign-up's name suggests.
import { describe, expect, it } from "@effect/vitest"
import {
  type ProfileEdit,
  profileLimits,
  readProfileEdit,
  recordOf,
  slugStemOf,
  slugWithSuffix
} from "../../src/domain/participant.ts"
import { participantSlugPattern } from "../../src/domain/task_draft/fields.ts"
import { sampleProfileEdit } from "../support/directory.ts"

const edit = (overrides: Record<string, unknown> = {}) => ({ ...sampleProfileEdit, ...overrides })

const valid = (input: unknown): ProfileEdit => {
  const read = readProfileEdit(input)
  if (read._tag === "Invalid") throw new Error(`expected a valid profile, got ${JSON.stringify(read.problems)}`)
  return read.edit
}

const problemsOf = (input: unknown) => {
  const read = readProfileEdit(input)
  if (read._tag === "Valid") throw new Error(`expected problems with ${JSON.stringify(input)}`)
  return read.problems
}

describe("ProfileEdit", () => {
  it("takes a profile as typed, trimmed; a blank boundary is none, an empty returns and empty lists are fine", () => {
    expect(
      valid(
        edit({
          name: "  Inès Moreau ",
          tags: [" inspection "],
          capabilities: [],
          returns: "",
          boundary: "  \n "
        })
      )
    ).toEqual({
      name: "Inès Moreau",
      discipline: "Field inspection",
      location: "Lyon, France",
      task_type: "physical",
      tags: ["inspection"],
      capabilities: [],
      returns: "",
      boundary: null
    })
    expect(valid(edit({ boundary: " No night work.\nLyon only. " })).boundary).toBe("No night work.\nLyon only.")
    expect(recordOf("ines-moreau", valid(edit()))).toEqual({ slug: "ines-moreau", ...valid(edit()) })
    // A value carrying more than a profile (a slug of its own) gives the record only its members.
    const carried = { ...valid(edit()), slug: "someone-else", extra: true } as ProfileEdit
    expect(recordOf("ines-moreau", carried)).toEqual({ slug: "ines-moreau", ...valid(edit()) })
  })

  it("names each member that must say something", () => {
    expect(problemsOf(edit({ name: "  ", discipline: "", location: "\t" }))).toEqual({
      name: "name must not be blank",
      discipline: "discipline must not be blank",
      location: "location must not be blank"
    })
    expect(problemsOf(edit({ tags: ["ok", " "] })).tags).toBe("each tag must not be blank")
    expect(problemsOf(edit({ capabilities: [""] })).capabilities).toBe("each capability must not be blank")
  })

  it("says every limit once, counted in characters as a person counts them", () => {
    const at = (n: number) => "é".repeat(n)
    expect(valid(edit({ name: at(profileLimits.name) })).name).toHaveLength(profileLimits.name)
    // Astral characters count once each, as a person counts them.
    expect(valid(edit({ name: "😀".repeat(profileLimits.name) })).name).toBe("😀".repeat(profileLimits.name))
    expect(
      problemsOf(
        edit({
          name: at(profileLimits.name + 1),
          discipline: at(profileLimits.discipline + 1),
          location: at(profileLimits.location + 1),
          returns: at(profileLimits.returns + 1),
          boundary: at(profileLimits.boundary + 1)
        })
      )
    ).toEqual({
      name: `name must be at most ${profileLimits.name} characters`,
      discipline: `discipline must be at most ${profileLimits.discipline} characters`,
      location: `location must be at most ${profileLimits.location} characters`,
      returns: `returns must be at most ${profileLimits.returns} characters`,
      boundary: `boundary must be at most ${profileLimits.boundary} characters`
    })
    expect(valid(edit({ tags: Array.from({ length: profileLimits.tags }, (_, i) => `t${i}`) })).tags).toHaveLength(
      profileLimits.tags
    )
    expect(
      problemsOf(
        edit({
          tags: Array.from({ length: profileLimits.tags + 1 }, (_, i) => `t${i}`),
          capabilities: [at(profileLimits.capability + 1)]
        })
      )
    ).toEqual({
      tags: `tags: at most ${profileLimits.tags}`,
      capabilities: `each capability must be at most ${profileLimits.capability} characters`
    })
    expect(problemsOf(edit({ tags: [at(profileLimits.tag + 1)] })).tags).toBe(
      `each tag must be at most ${profileLimits.tag} characters`
    )
  })

  it("refuses control characters: none on one line, only line breaks and tabs in returns and boundary", () => {
    expect(problemsOf(edit({ name: "Inès\u0000Moreau", tags: ["a\u001fb"], location: "Lyon\nFrance" }))).toEqual({
      name: "name must be one line, without control characters",
      location: "location must be one line, without control characters",
      tags: "each tag must be one line, without control characters"
    })
    expect(valid(edit({ returns: "Photos,\n\ta checklist" })).returns).toBe("Photos,\n\ta checklist")
    expect(problemsOf(edit({ returns: "bell\u0007" })).returns).toBe(
      "returns must not contain control characters other than line breaks and tabs"
    )
  })

  it("refuses a task type it does not know, a missing member and a wrong type, in words", () => {
    expect(problemsOf(edit({ task_type: "remote" })).task_type).toBe(
      "task type must be one of digital, physical, hybrid"
    )
    const { name: _, ...withoutName } = edit()
    expect(problemsOf(withoutName).name).toBe("name is required")
    expect(problemsOf(edit({ tags: "a, b" })).tags).toBe("tags must be a list of texts")
    expect(problemsOf(edit({ discipline: 42 })).discipline).toBe("discipline must be text")
    expect(problemsOf("not an object")).toHaveProperty("profile")
  })
})

describe("the slug a name suggests", () => {
  it("lower-case letters and digits of the name, accents dropped, joined by single hyphens", () => {
    expect(slugStemOf("Inès Moreau")).toBe("ines-moreau")
    expect(slugStemOf("  Jean-Luc  O'Brien ")).toBe("jean-luc-o-brien")
    expect(slugStemOf("Jörg Straße")).toBe("jorg-strasse")
    expect(slugStemOf("Ｒｅｎé 2")).toBe("rene-2")
    // Nothing of the Latin alphabet: a stem all the same.
    expect(slugStemOf("李小龍")).toBe("participant")
    expect(slugStemOf("---")).toBe("participant")
  })

  it("is always a slug, with room for a suffix", () => {
    for (const name of ["Inès Moreau", `${"Bartholomew ".repeat(10)}Smith`, "a".repeat(300), "😀 Zoë ", "李小龍"]) {
      const stem = slugStemOf(name)
      expect(stem, name).toMatch(participantSlugPattern)
      expect(slugWithSuffix(stem, 99_999).length, name).toBeLessThanOrEqual(64)
      expect(slugWithSuffix(stem, 99_999), name).toMatch(participantSlugPattern)
    }
    expect(slugWithSuffix("ines-moreau", 1)).toBe("ines-moreau")
    expect(slugWithSuffix("ines-moreau", 2)).toBe("ines-moreau-2")
  })
})
