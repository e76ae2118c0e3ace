// Preflight over HTTP (published contract: preflight result, rules 2 and 3; DECISIONS §3).

import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { PreflightResult, SearchResult } from "../../src/api/resources.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asJsonObject, asPayload, exchange } from "../support/api_client.ts"
import { expectEnvelope, json, notExactly, startServer, type TestServer, validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

interface Issue {
  readonly field: string
  readonly code: string
  readonly message: string
}

const sample: ReadonlyArray<{ slug: string; task_type: string; location: string }> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)
const sampleSlugs = new Set(sample.map((p) => p.slug))

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

/** POST /preflight through the typed client: its body is any JSON object, sent as written. */
const preflight = async (draft: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const response = await exchange(server, (c) => c.preflight({ payload: asJsonObject(draft) }), { headers })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${text}`)
  expect(response.headers.get("content-type")).toContain("application/json")
  const body = JSON.parse(text) as Json
  // The handler makes the JSON itself: it must still be exactly the declared schema.
  expect(notExactly(PreflightResult, body)).toBeUndefined()
  return body
}

const codes = (list: ReadonlyArray<Issue>) => list.map((i) => `${i.field}:${i.code}`).sort()
const on = (list: ReadonlyArray<Issue>, field: string) => list.filter((i) => i.field === field)

/** The minimal complete digital draft: no location needed, no warnings but the ones a test wants. */
const digitalDraft = (overrides: Record<string, unknown> = {}) =>
  validDraft({ execution_mode: "digital", location: undefined, ...overrides })

describe("POST /preflight: the result", () => {
  it("a complete draft is valid, state draft, with no issues or warnings", async () => {
    const result = await preflight(validDraft())
    expect(result.object).toBe("preflight")
    expect(result.valid).toBe(true)
    expect(result.state).toBe("draft")
    expect(result.issues).toEqual([])
    expect(result.warnings).toEqual([])
    expect(typeof result.task).toBe("object")
    expect(typeof result.feasibility).toBe("object")
  })

  it("an invalid draft reports valid=false and state preflight_failed", async () => {
    const result = await preflight({})
    expect(result.object).toBe("preflight")
    expect(result.valid).toBe(false)
    expect(result.state).toBe("preflight_failed")
  })

  it("warnings alone leave the draft valid", async () => {
    const result = await preflight(validDraft({ timing: undefined, principal: undefined, agent: undefined }))
    expect(result.valid).toBe(true)
    expect(result.state).toBe("draft")
    expect(result.issues).toEqual([])
    expect(result.warnings.length).toBe(3)
  })

  it("every issue and warning has field, code and a message", async () => {
    const result = await preflight({ execution_mode: "sideways", contact_email: "nope", budget: "a lot", x: 1 })
    for (const i of [...result.issues, ...result.warnings]) {
      expect(Object.keys(i).sort()).toEqual(["code", "field", "message"])
      expect(i.message.trim()).not.toBe("")
    }
  })
})

describe("POST /preflight: required members", () => {
  it("names each of action, execution_mode, expected_result, acceptance_test with code required", async () => {
    const result = await preflight({})
    expect(codes(result.issues)).toEqual(
      ["action:required", "execution_mode:required", "expected_result:required", "acceptance_test:required"].sort()
    )
  })

  for (const field of ["action", "execution_mode", "expected_result", "acceptance_test"]) {
    it(`reports ${field} required when absent, null, empty or blank`, async () => {
      for (const value of [undefined, null, "", "   \t\n"]) {
        const result = await preflight(digitalDraft({ [field]: value }))
        expect(result.valid, String(value)).toBe(false)
        expect(codes(result.issues), String(value)).toEqual([`${field}:required`])
        expect(result.task).not.toHaveProperty(field)
      }
    })
  }

  it("requires location for physical and hybrid drafts only", async () => {
    for (const mode of ["physical", "hybrid"]) {
      const result = await preflight(validDraft({ execution_mode: mode, location: undefined }))
      expect(codes(result.issues), mode).toEqual(["location:required"])
      expect(on(result.issues, "location")[0]!.message).toContain(mode)
      const blank = await preflight(validDraft({ execution_mode: mode, location: "  " }))
      expect(codes(blank.issues), mode).toEqual(["location:required"])
    }
    const digital = await preflight(digitalDraft())
    expect(digital.valid).toBe(true)
    expect(digital.issues).toEqual([])
    // A location on a digital draft is kept, not an error.
    const digitalWithPlace = await preflight(digitalDraft({ location: "Berlin" }))
    expect(digitalWithPlace.valid).toBe(true)
    expect(digitalWithPlace.task.location).toBe("Berlin")
  })
})

describe("POST /preflight: warnings", () => {
  for (const field of ["timing", "principal", "agent"]) {
    it(`warns recommended when ${field} is missing`, async () => {
      const result = await preflight(validDraft({ [field]: undefined }))
      expect(result.valid).toBe(true)
      expect(codes(result.warnings)).toEqual([`${field}:recommended`])
      const blank = await preflight(validDraft({ [field]: "  " }))
      expect(codes(blank.warnings)).toEqual([`${field}:recommended`])
    })
  }

  it("warns recommended for timing, principal and agent together", async () => {
    const result = await preflight({})
    expect(codes(result.warnings)).toEqual(["agent:recommended", "principal:recommended", "timing:recommended"])
  })

  it("warns unrecognized for each unknown member, naming it, and drops it from task", async () => {
    const result = await preflight(validDraft({ colour: "blue", priority: 3, nested: { a: 1 } }))
    expect(result.valid).toBe(true)
    expect(codes(result.warnings)).toEqual(["colour:unrecognized", "nested:unrecognized", "priority:unrecognized"])
    for (const w of result.warnings) expect(w.message).toContain(w.field)
    expect(result.task).not.toHaveProperty("colour")
    expect(result.task).not.toHaveProperty("priority")
    expect(result.task).not.toHaveProperty("nested")
  })

  it("warns ambiguous for a budget without an amount or currency", async () => {
    for (const budget of ["a lot", "250", "cheap please"]) {
      const result = await preflight(validDraft({ budget }))
      expect(result.valid, budget).toBe(true)
      expect(codes(result.warnings), budget).toEqual(["budget:ambiguous"])
      expect(result.task.budget).toBe(budget)
    }
    for (const budget of ["USD 250", "€40", "40 euros", "eur 40"]) {
      const result = await preflight(validDraft({ budget }))
      expect(result.warnings, budget).toEqual([])
    }
  })

  it("warns ambiguous for a timing that looks like a date but does not parse", async () => {
    const result = await preflight(validDraft({ timing: "2026-13-45" }))
    expect(result.valid).toBe(true)
    expect(codes(result.warnings)).toEqual(["timing:ambiguous"])
    expect(result.task.timing).toBe("2026-13-45")
    expect(result.task).not.toHaveProperty("deadline")
    const feb = await preflight(validDraft({ timing: "by 2026-02-30T10:00:00Z" }))
    expect(codes(feb.warnings)).toEqual(["timing:ambiguous"])
    expect(feb.task).not.toHaveProperty("deadline")
  })

  it("does not warn about a free-text timing without a date", async () => {
    const result = await preflight(validDraft({ timing: "within two weeks" }))
    expect(result.warnings).toEqual([])
    expect(result.task.timing).toBe("within two weeks")
    expect(result.task).not.toHaveProperty("deadline")
  })
})

describe("POST /preflight: invalid members", () => {
  it("rejects an execution_mode outside digital, physical, hybrid, listing the three", async () => {
    const result = await preflight(validDraft({ execution_mode: "remote" }))
    expect(result.valid).toBe(false)
    expect(result.state).toBe("preflight_failed")
    expect(codes(result.issues)).toEqual(["execution_mode:invalid"])
    const message = on(result.issues, "execution_mode")[0]!.message
    for (const mode of ["digital", "physical", "hybrid"]) expect(message).toContain(mode)
    expect(result.task).not.toHaveProperty("execution_mode")
  })

  it("rejects a contact_email that is not an email", async () => {
    for (const contact_email of ["not-an-email", "a@b", "Jane <jane@example.com>", "two@@example.com"]) {
      const result = await preflight(validDraft({ contact_email }))
      expect(codes(result.issues), contact_email).toEqual(["contact_email:invalid"])
      expect(result.task).not.toHaveProperty("contact_email")
    }
    const ok = await preflight(validDraft({ contact_email: " ops@example.com " }))
    expect(ok.issues).toEqual([])
    expect(ok.task.contact_email).toBe("ops@example.com")
  })

  it("rejects members of the wrong JSON type with one invalid issue each", async () => {
    const result = await preflight(
      validDraft({ action: 42, execution_mode: true, location: ["Berlin"], timing: { at: "noon" }, budget: 250 })
    )
    expect(result.valid).toBe(false)
    expect(codes(result.issues)).toEqual(
      ["action:invalid", "execution_mode:invalid", "location:invalid", "timing:invalid", "budget:invalid"].sort()
    )
    for (const field of ["action", "execution_mode", "location", "timing", "budget"]) {
      expect(result.task).not.toHaveProperty(field)
    }
  })

  it("rejects strings over their length limits with too_long", async () => {
    const result = await preflight(
      validDraft({
        action: "a".repeat(4001),
        location: "b".repeat(501),
        principal: "c".repeat(501),
        idempotency_key: "k".repeat(256)
      })
    )
    expect(codes(result.issues)).toEqual(
      ["action:too_long", "location:too_long", "principal:too_long", "idempotency_key:too_long"].sort()
    )
    expect(result.task).not.toHaveProperty("action")
    const atLimit = await preflight(
      validDraft({
        action: "a".repeat(4000),
        location: "b".repeat(500),
        principal: "c".repeat(500),
        idempotency_key: "k".repeat(255)
      })
    )
    expect(atLimit.issues).toEqual([])
    // Surrounding whitespace does not count.
    const padded = await preflight(validDraft({ action: `  ${"a".repeat(4000)}  ` }))
    expect(padded.issues).toEqual([])
  })

  it("reports not_found for a participant_slug naming no participant", async () => {
    const result = await preflight(validDraft({ participant_slug: "nobody-by-this-name" }))
    expect(result.valid).toBe(false)
    expect(codes(result.issues)).toEqual(["participant_slug:not_found"])
    expect(on(result.issues, "participant_slug")[0]!.message).toContain("nobody-by-this-name")
  })

  it("reports every problem of a draft at once", async () => {
    const result = await preflight({
      execution_mode: "hybrid",
      contact_email: "nope",
      participant_slug: "nobody-by-this-name",
      budget: "a lot",
      whatever: 1
    })
    expect(codes(result.issues)).toEqual(
      [
        "action:required",
        "location:required",
        "expected_result:required",
        "acceptance_test:required",
        "participant_slug:not_found",
        "contact_email:invalid"
      ].sort()
    )
    expect(codes(result.warnings)).toEqual(
      [
        "timing:recommended",
        "principal:recommended",
        "agent:recommended",
        "budget:ambiguous",
        "whatever:unrecognized"
      ].sort()
    )
  })
})

describe("POST /preflight: the normalised task", () => {
  it("trims strings, lower-cases execution_mode, parses the deadline, drops unknown members and idempotency_key", async () => {
    const result = await preflight({
      action: "  Photograph the storefront  ",
      execution_mode: " PHYSICAL ",
      location: "\tBerlin, Germany\n",
      timing: " by 2030-12-01T17:00:00Z ",
      expected_result: " Five photos ",
      acceptance_test: " The sign is legible ",
      constraints: " Daylight only ",
      participant_slug: " lukas-schmidt ",
      principal: " ACME GmbH ",
      agent: " acme-bot/1 ",
      contact_email: " ops@example.com ",
      budget: " EUR 40 ",
      idempotency_key: "some-key-0123456789",
      colour: "blue"
    })
    expect(result.valid).toBe(true)
    expect(result.task).toEqual({
      action: "Photograph the storefront",
      execution_mode: "physical",
      location: "Berlin, Germany",
      timing: "by 2030-12-01T17:00:00Z",
      deadline: "2030-12-01T17:00:00.000Z",
      expected_result: "Five photos",
      acceptance_test: "The sign is legible",
      constraints: "Daylight only",
      participant_slug: "lukas-schmidt",
      principal: "ACME GmbH",
      agent: "acme-bot/1",
      contact_email: "ops@example.com",
      budget: "EUR 40"
    })
    expect(result.task).not.toHaveProperty("idempotency_key")
  })

  it("converts a timing with an offset to a UTC deadline", async () => {
    const result = await preflight(validDraft({ timing: "2030-12-01T18:30:00+01:00" }))
    expect(result.task.deadline).toBe("2030-12-01T17:30:00.000Z")
  })

  it("omits what the draft leaves out", async () => {
    const result = await preflight({ action: "Check a website" })
    expect(result.task).toEqual({ action: "Check a website" })
  })

  it("can be sent back as a submission and yields the same brief", async () => {
    const draft = validDraft({ timing: "by 2030-12-01T17:00:00Z", budget: "EUR 40" })
    const { task } = await preflight(draft)
    const again = await preflight(task)
    expect(again.warnings).toEqual([])
    expect(again.task).toEqual(task)
    // Raw: preflight's task is sent back as it came, deadline and all, members TaskDraft does not name.
    const response = await fetch(server.api("/tasks"), json(task))
    expect(response.status).toBe(201)
    const created = await response.json()
    expect(created.brief.deadline).toBe(task.deadline)
    expect(created.brief.action).toBe(task.action)
  })
})

describe("POST /preflight: feasibility", () => {
  it("reports an integer count and a sample of at most five existing slugs", async () => {
    for (const draft of [
      validDraft(),
      digitalDraft({ action: "Translate a contract into Japanese" }),
      {},
      validDraft({ execution_mode: "hybrid", location: "Lagos" })
    ]) {
      const { feasibility } = await preflight(draft)
      expect(Object.keys(feasibility).sort()).toEqual(["eligible_participants", "sample"])
      expect(Number.isInteger(feasibility.eligible_participants)).toBe(true)
      expect(feasibility.eligible_participants).toBeGreaterThanOrEqual(0)
      expect(feasibility.sample.length).toBeLessThanOrEqual(5)
      expect(feasibility.sample.length).toBeLessThanOrEqual(feasibility.eligible_participants)
      expect(new Set(feasibility.sample).size).toBe(feasibility.sample.length)
      for (const slug of feasibility.sample) expect(sampleSlugs.has(slug)).toBe(true)
    }
  })

  it("counts only participants who can serve the mode and place, and whose work matches", async () => {
    // Physical in Berlin: of the two Berlin participants only lukas-schmidt works on site.
    const physical = await preflight(validDraft())
    expect(physical.feasibility).toEqual({ eligible_participants: 1, sample: ["lukas-schmidt"] })
    // Digital: only digital or hybrid participants, anywhere, and only those whose work matches.
    const digital = await preflight(
      digitalDraft({
        action: "Translate a contract into Japanese",
        expected_result: "The Japanese translation as a DOCX file"
      })
    )
    const digitalOrHybrid = sample.filter((p) => p.task_type !== "physical").length
    expect(digital.feasibility.eligible_participants).toBeGreaterThanOrEqual(digital.feasibility.sample.length)
    expect(digital.feasibility.eligible_participants).toBeLessThan(digitalOrHybrid)
    const byType = new Map(sample.map((p) => [p.slug, p.task_type]))
    for (const slug of digital.feasibility.sample) expect(byType.get(slug)).not.toBe("physical")
    // The most relevant come first.
    expect(digital.feasibility.sample[0]).toBe("akiko-tanaka")
    // Work nobody in the catalogue does has nobody, not whoever comes first.
    const nobody = await preflight(digitalDraft({ action: "Tune a grand piano", expected_result: "A tuned piano" }))
    expect(nobody.feasibility).toEqual({ eligible_participants: 0, sample: [] })
  })

  it("a city nobody in the catalogue is in has nobody, not people elsewhere in its country", async () => {
    const madrid = await preflight(
      validDraft({ action: "Pick up a parcel and deliver it", expected_result: "A delivery photo", location: "Madrid" })
    )
    expect(madrid.feasibility).toEqual({ eligible_participants: 0, sample: [] })
    const lisbon = await preflight(
      validDraft({ action: "Pick up a parcel and deliver it", expected_result: "A delivery photo", location: "Lisboa" })
    )
    expect(lisbon.feasibility.sample).toEqual(["joao-pereira"])
  })

  it("a draft naming a compatible participant samples exactly that participant", async () => {
    const result = await preflight(validDraft({ participant_slug: "lukas-schmidt" }))
    expect(result.valid).toBe(true)
    expect(result.feasibility).toEqual({ eligible_participants: 1, sample: ["lukas-schmidt"] })
    const digital = await preflight(digitalDraft({ participant_slug: "akiko-tanaka" }))
    expect(digital.feasibility).toEqual({ eligible_participants: 1, sample: ["akiko-tanaka"] })
  })

  it("a draft naming an incompatible participant has no eligible participant", async () => {
    // jonas-weber works digitally only; the draft is physical.
    const result = await preflight(validDraft({ participant_slug: "jonas-weber" }))
    expect(result.feasibility).toEqual({ eligible_participants: 0, sample: [] })
  })

  it("a place nobody is in has no eligible participant for a physical task", async () => {
    const result = await preflight(validDraft({ location: "Reykjavik, Iceland" }))
    expect(result.feasibility).toEqual({ eligible_participants: 0, sample: [] })
  })
})

describe("POST /preflight: doomed drafts (issue 25)", () => {
  const only = (list: ReadonlyArray<Issue>, code: string) => {
    const found = list.filter((i) => i.code === code)
    expect(found.length, JSON.stringify(list)).toBe(1)
    return found[0]!
  }

  it("a deadline already passed is a deadline_passed issue on timing: valid false, state preflight_failed", async () => {
    const result = await preflight(validDraft({ timing: "by 2020-01-01T09:00:00Z" }))
    expect(result.valid).toBe(false)
    expect(result.state).toBe("preflight_failed")
    expect(codes(result.issues)).toEqual(["timing:deadline_passed"])
    const { message } = on(result.issues, "timing")[0]!
    expect(message).toContain("2020-01-01T09:00:00.000Z")
    expect(message).toContain("deadline_passed")
    expect(message).toMatch(/later date/)
    // A deadline still ahead is fine (the suite's drafts use one).
    expect((await preflight(validDraft({ timing: `by ${new Date(Date.now() + 60_000).toISOString()}` }))).valid).toBe(
      true
    )
  })

  it("a physical task in a place nobody is in: warning no_eligible_participant on location, naming the place and the fix", async () => {
    const result = await preflight(validDraft({ location: "Reykjavik, Iceland" }))
    expect(result.valid).toBe(true)
    expect(result.feasibility.eligible_participants).toBe(0)
    const warning = only(result.warnings, "no_eligible_participant")
    expect(warning.field).toBe("location")
    expect(warning.message).toContain('no participant is in "Reykjavik, Iceland"')
    expect(warning.message).toContain("no_match")
    expect(warning.message).toContain("change location")
    expect(warning.message).toContain("set execution_mode to digital")
  })

  it("a place whose participants do not work in the mode: warning on execution_mode, saying what they take", async () => {
    // Osaka: akiko-tanaka alone, digital.
    const result = await preflight(validDraft({ location: "Osaka" }))
    expect(result.feasibility.eligible_participants).toBe(0)
    const warning = only(result.warnings, "no_eligible_participant")
    expect(warning.field).toBe("execution_mode")
    expect(warning.message).toContain('the only participant in "Osaka" does not take physical tasks')
    expect(warning.message).toContain("set execution_mode to digital")
    // Hybrid is no better there; digital is.
    expect(
      only(
        (await preflight(validDraft({ location: "Osaka", execution_mode: "hybrid" }))).warnings,
        "no_eligible_participant"
      ).field
    ).toBe("execution_mode")
    const digital = await preflight(digitalDraft({ location: "Osaka" }))
    expect(digital.warnings).toEqual([])
  })

  it("a named participant who does not take the mode: warning participant_ineligible naming them, the cause and the fix", async () => {
    // jonas-weber works digitally only; the draft is physical in Berlin, where lukas-schmidt takes it.
    const result = await preflight(validDraft({ participant_slug: "jonas-weber" }))
    expect(result.valid).toBe(true)
    expect(result.feasibility).toEqual({ eligible_participants: 0, sample: [] })
    const warning = only(result.warnings, "participant_ineligible")
    expect(warning.field).toBe("participant_slug")
    expect(warning.message).toContain("jonas-weber does not take physical tasks (they take digital tasks)")
    expect(warning.message).toContain("set execution_mode to digital")
    expect(warning.message).toContain("omit participant_slug")
    expect(result.warnings.filter((w: Issue) => w.code === "no_eligible_participant")).toEqual([])
  })

  it("a named participant whose boundary refuses the task: warning participant_ineligible; a plain task is theirs", async () => {
    // akiko-tanaka: "No certified or sworn translations."
    const translation = (action: string) =>
      digitalDraft({
        action,
        participant_slug: "akiko-tanaka",
        expected_result: "The translated document as a PDF",
        acceptance_test: "Every page of the source is translated"
      })
    const sworn = await preflight(translation("Sworn translation of a Japanese birth certificate for a court"))
    expect(sworn.valid).toBe(true)
    expect(sworn.feasibility).toEqual({ eligible_participants: 0, sample: [] })
    const warning = only(sworn.warnings, "participant_ineligible")
    expect(warning.field).toBe("participant_slug")
    expect(warning.message).toContain("No certified or sworn translations.")
    const plain = await preflight(translation("Translate my blog post from Japanese into English"))
    expect(plain.warnings).toEqual([])
    expect(plain.feasibility).toEqual({ eligible_participants: 1, sample: ["akiko-tanaka"] })
  })

  it("a named participant who is not in the task's place: warning participant_ineligible naming where they are", async () => {
    const result = await preflight(validDraft({ participant_slug: "lukas-schmidt", location: "Reykjavik, Iceland" }))
    const warning = only(result.warnings, "participant_ineligible")
    expect(warning.message).toContain(
      'lukas-schmidt is in Berlin, Germany, which location "Reykjavik, Iceland" does not name'
    )
    expect(warning.message).toContain("change location to Berlin, Germany")
  })

  it("a named participant who does not exist stays a not_found issue, without a feasibility warning on top", async () => {
    const result = await preflight(validDraft({ participant_slug: "nobody-by-this-name" }))
    expect(codes(result.issues)).toEqual(["participant_slug:not_found"])
    expect(result.warnings).toEqual([])
  })

  it("doomed-draft warnings come in field order, before unknown members, and beside other problems", async () => {
    const result = await preflight(
      validDraft({ location: "Reykjavik, Iceland", budget: "a lot", colour: "blue", action: "" })
    )
    expect(result.warnings.map((w: Issue) => `${w.field}:${w.code}`)).toEqual([
      "location:no_eligible_participant",
      "budget:ambiguous",
      "colour:unrecognized"
    ])
    expect(codes(result.issues)).toEqual(["action:required"])
  })

  it("a feasible draft gets none of these", async () => {
    for (const draft of [validDraft(), validDraft({ participant_slug: "lukas-schmidt" }), digitalDraft()]) {
      const result = await preflight(draft)
      expect(result.feasibility.eligible_participants).toBeGreaterThan(0)
      expect(result.warnings).toEqual([])
    }
  })
})

describe("POST /preflight: bodies and side effects", () => {
  it("answers 400 invalid_json for a body that is not JSON", async () => {
    // Raw here and below: bodies that are not a JSON object, which no client derived from the document sends.
    await expectEnvelope(await fetch(server.api("/preflight"), json("{not json")), 400, "invalid_json")
  })

  it("answers 400 invalid_request for a JSON value that is not an object", async () => {
    for (const body of ["[]", "42", '"draft"', "null"]) {
      await expectEnvelope(await fetch(server.api("/preflight"), json(body)), 400, "invalid_request")
    }
  })

  it("names an idempotency_key too short to be a secret, as the document's pattern does (submission refuses it)", async () => {
    // 14 characters once trimmed: the blanks around it do not count.
    const body = await preflight(validDraft({ idempotency_key: " 15-characters! " }))
    expect(body.valid).toBe(false)
    expect(body.issues).toEqual([
      {
        field: "idempotency_key",
        code: "invalid",
        message: "idempotency_key must be at least 16 characters; a UUID is recommended; got 14 characters."
      }
    ])
    // Raw: the blanks around the key are the subject, and the typed client would trim them.
    const refused = await fetch(server.api("/tasks"), json(validDraft({ idempotency_key: " 15-characters! " })))
    await expectEnvelope(refused, 400, "invalid_request")
  })

  it("stores nothing: a key used in preflight is still free for submission", async () => {
    const key = `preflight-${randomUUID()}`
    await preflight(validDraft({ idempotency_key: key }), { "idempotency-key": key })
    await preflight(validDraft({ idempotency_key: key }))
    const response = await exchange(server, (c) =>
      c.createTask({ payload: asPayload(TaskDraft, validDraft()), headers: { "idempotency-key": key } })
    )
    expect(response.status).toBe(201)
    expect(response.headers.get("idempotent-replayed")).toBeNull()
  })

  it("is deterministic: the same draft gives the same result", async () => {
    const draft = validDraft({ budget: "a lot", extra: true })
    expect(await preflight(draft)).toEqual(await preflight(draft))
  })
})

describe("POST /search: who can take it", () => {
  const search = async (query: string) => {
    const response = await exchange(server, (c) => c.search({ payload: { query } }))
    expect(response.status).toBe(200)
    const body = (await response.json()) as Json
    expect(notExactly(SearchResult, body)).toBeUndefined()
    return body
  }

  it("finds people by word forms, accents and synonyms", async () => {
    const photographer = await search("Looking for a photographer")
    expect(photographer.data.slice(0, 2).map((m: Json) => m.participant.slug)).toEqual([
      "valentina-morales",
      "eleni-papadopoulou"
    ])
    expect(photographer.hint).toBeUndefined()
    const montreal = await search("Measure the ramps and door widths at a hotel in Montreal")
    expect(montreal.assessment).toMatchObject({ execution_mode: "physical", location: "Montréal, Canada" })
    expect(montreal.data.map((m: Json) => m.participant.slug)).toEqual(["camille-tremblay"])
    const transcribed = await search("Get this English interview transcribed")
    expect(transcribed.data[0].participant.slug).toBe("olivia-nguyen")
    expect(transcribed.data[0].matched).toContain("transcribed")
  })

  it("answers a place nobody serves with nobody and a hint, and feasibility counts nobody", async () => {
    const madrid = await search("Pick up a parcel in Madrid and drop it at the post office")
    expect(madrid.assessment).toMatchObject({ execution_mode: "physical", location: "Madrid, Spain" })
    expect(madrid.data).toEqual([])
    expect(madrid.hint).toMatch(/Nobody in the catalogue works in Madrid, Spain/)
    expect(madrid.assessment.preflight.feasibility).toEqual({ eligible_participants: 0, sample: [] })
  })

  it("finds the specialist for a request in another language and script, and reports mode and place", async () => {
    const german = await search("Übersetzung einer Bedienungsanleitung aus dem Japanischen ins Englische")
    expect(german.assessment).toMatchObject({ execution_mode: "digital", location: null })
    expect(german.data[0].participant.slug).toBe("akiko-tanaka")
    const japanese = await search("東京での商談に通訳が必要です")
    expect(japanese.assessment).toMatchObject({ execution_mode: "physical", location: "Tokyo, Japan" })
    expect(japanese.data[0].participant.slug).toBe("hiroshi-sato")
  })

  it("search and feasibility share one threshold: below it nobody is listed nor counted", async () => {
    // Only a skill-less verb ("write") is shared with anyone's work: unrelated, not plausible.
    const cobol = await search("Write a COBOL batch job")
    expect(cobol.data).toEqual([])
    expect(cobol.hint).toMatch(/^Nobody in the catalogue can take this task/)
    expect(cobol.assessment.preflight.feasibility).toEqual({ eligible_participants: 0, sample: [] })
    const api = await search("Write API documentation for our REST endpoints")
    expect(api.data[0].participant.slug).toBe("ingrid-johansson")
    expect(api.assessment.preflight.feasibility.sample[0]).toBe("ingrid-johansson")
  })

  it("lists the people of the place, as weak matches, when the request's work could not be read", async () => {
    // Georgian, of which the service reads no word; the place is read.
    const unread = await search("ჩვენი ოფისის კედლების შეღებვა Berlin")
    expect(unread.assessment).toMatchObject({ execution_mode: "physical", location: "Berlin, Germany" })
    expect(unread.data.map((m: Json) => [m.participant.slug, m.score, m.matched])).toEqual([["lukas-schmidt", 0, []]])
    expect(unread.hint).toMatch(/^This request's work could not be read: none of its words \(ჩვენი, /)
    expect(unread.hint).toContain("the participants who work in Berlin, Germany and take physical tasks")
    // Below the one threshold: preflight counts nobody, as the dispatcher would offer to nobody.
    expect(unread.assessment.preflight.feasibility).toEqual({ eligible_participants: 0, sample: [] })
  })

  it("names the specialist whose boundary rules the task out", async () => {
    const valuation = await search("Valuation opinion on a house in Nairobi")
    expect(valuation.data).toEqual([])
    expect(valuation.hint).toMatch(/^Grace Wanjiku \(grace-wanjiku\), whose work fits this task best, rules it out/)
  })

  it("leaves out a participant whose boundary refuses the task", async () => {
    const gas = await search("Read the gas meter at a house in Denver")
    expect(gas.data).toEqual([])
    expect(gas.hint).toMatch(/Nobody in the catalogue can take this task/)
    const shelves = await search("Assemble a wardrobe and mount shelves on the wall in Denver")
    expect(shelves.data.map((m: Json) => m.participant.slug)).toEqual(["jack-thompson"])
  })
})
