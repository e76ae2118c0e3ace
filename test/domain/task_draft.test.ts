// Unit and property tests for the shared task draft rule set (DECISIONS §3).
import { assert, describe, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Arbitrary, Schema } from "effect"
import { ExecutionMode, executionModes } from "../../src/domain/task_draft/execution_mode.ts"
import { draftFields, draftMembers, draftRules, participantSlugPattern } from "../../src/domain/task_draft/fields.ts"
import { IssueCode, issueSeverity, TaskIssue } from "../../src/domain/task_draft/issues.ts"
import { NormalizedDraft, TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { deadlinePassed } from "../../src/domain/task_draft/timing.ts"
import { type DraftValidation, validateDraft, withUnknownParticipant } from "../../src/domain/task_draft/validate.ts"

const base = {
  action: "Photograph the storefront at 12 Main St",
  execution_mode: "digital",
  expected_result: "Three JPEG photos, 12 MP or more",
  acceptance_test: "All three photos show the full storefront in daylight"
} as const

const complete = {
  ...base,
  timing: "by 2030-12-01T17:00:00Z",
  principal: "Acme Corp",
  agent: "acme-bot/1.2"
} as const

const codes = (v: DraftValidation, list: "issues" | "warnings" = "issues") => v[list].map((i) => `${i.field}:${i.code}`)

const issueOn = (v: DraftValidation, field: string) => v.issues.filter((i) => i.field === field)

describe("data exports", () => {
  it("execution modes", () => {
    assert.deepStrictEqual([...executionModes], ["digital", "physical", "hybrid"])
    assert.isTrue(Schema.is(ExecutionMode)("hybrid"))
    assert.isFalse(Schema.is(ExecutionMode)("remote"))
  })

  it("draftRules is derived from draftFields", () => {
    assert.deepStrictEqual(draftRules.required, ["action", "execution_mode", "expected_result", "acceptance_test"])
    assert.deepStrictEqual(draftRules.conditionally_required, [
      { field: "location", when: { execution_mode: ["physical", "hybrid"] } }
    ])
    assert.deepStrictEqual(draftRules.recommended, ["timing", "principal", "agent"])
    assert.deepStrictEqual(draftRules.optional, [
      "result_schema",
      "constraints",
      "participant_slug",
      "contact_email",
      "budget",
      "webhook_url",
      "idempotency_key"
    ])
    assert.deepStrictEqual(draftRules.limits, {
      action: 4000,
      execution_mode: 500,
      location: 500,
      timing: 500,
      expected_result: 4000,
      acceptance_test: 4000,
      result_schema: 16384,
      constraints: 4000,
      participant_slug: 500,
      principal: 500,
      agent: 500,
      contact_email: 500,
      budget: 500,
      webhook_url: 2048,
      idempotency_key: 255
    })
    assert.deepStrictEqual(
      draftFields.map((f) => f.name),
      [...draftMembers]
    )
    for (const f of draftFields) assert.isAbove(f.description.length, 0)
  })

  it("IssueCode lists every code with a meaning", () => {
    assert.deepStrictEqual(Object.keys(IssueCode), [
      "required",
      "invalid",
      "not_found",
      "too_long",
      "deadline_passed",
      "recommended",
      "unrecognized",
      "ambiguous",
      "no_eligible_participant",
      "participant_ineligible",
      "participant_unavailable"
    ])
    for (const [code, meaning] of Object.entries(IssueCode)) {
      assert.match(meaning, new RegExp(`^${issueSeverity[code as keyof typeof IssueCode]}: .+`))
    }
  })

  it("schemas describe the wire shapes", () => {
    assert.deepStrictEqual(Object.keys(TaskDraft.fields), [...draftMembers])
    assert.isFalse(Object.hasOwn(NormalizedDraft.fields, "idempotency_key"))
    assert.isTrue(Object.hasOwn(NormalizedDraft.fields, "deadline"))
    const issue = { field: "action", code: "required", message: "x" }
    assert.deepStrictEqual(Schema.decodeUnknownSync(TaskIssue)(issue), issue)
    const doc = Schema.toJsonSchemaDocument(TaskDraft)
    assert.isDefined(doc.definitions.TaskDraft)
    assert.isDefined(Schema.toJsonSchemaDocument(TaskIssue).definitions.TaskIssue)
  })
})

describe("required members", () => {
  it("a complete draft is valid with no warnings", () => {
    const v = validateDraft(complete)
    assert.isTrue(v.valid)
    assert.deepStrictEqual(v.issues, [])
    assert.deepStrictEqual(v.warnings, [])
  })

  it("an empty body names each required member once, in field order", () => {
    const v = validateDraft({})
    assert.isFalse(v.valid)
    assert.deepStrictEqual(codes(v), [
      "action:required",
      "execution_mode:required",
      "expected_result:required",
      "acceptance_test:required"
    ])
    assert.strictEqual(v.issues[0]!.message, "action is required: the single bounded action the person performs.")
    assert.deepStrictEqual(v.task, {})
  })

  for (const name of draftRules.required) {
    it(`${name}: absent, empty, whitespace-only and null are 'required'`, () => {
      for (const value of [undefined, "", "   \n\t ", null]) {
        const body: Record<string, unknown> = { ...complete }
        if (value === undefined) delete body[name]
        else body[name] = value
        const v = validateDraft(body)
        assert.isFalse(v.valid)
        assert.deepStrictEqual(codes(v), [`${name}:required`])
        assert.isFalse(Object.hasOwn(v.task, name))
      }
    })

    it(`${name}: a wrong JSON type is 'invalid' (not also 'required')`, () => {
      for (const [value, kind] of [
        [42, "a number"],
        [true, "a boolean"],
        [{ a: 1 }, "an object"],
        [["x"], "an array"]
      ] as const) {
        const v = validateDraft({ ...complete, [name]: value })
        assert.deepStrictEqual(codes(v), [`${name}:invalid`])
        assert.include(v.issues[0]!.message, kind)
        assert.isFalse(Object.hasOwn(v.task, name))
      }
    })
  }

  it("location is required for physical and hybrid, not for digital", () => {
    for (const mode of ["physical", "hybrid"]) {
      const v = validateDraft({ ...complete, execution_mode: mode })
      assert.deepStrictEqual(codes(v), ["location:required"])
      assert.include(v.issues[0]!.message, mode)
      assert.isTrue(validateDraft({ ...complete, execution_mode: mode, location: "Berlin" }).valid)
      assert.deepStrictEqual(codes(validateDraft({ ...complete, execution_mode: mode, location: "  " })), [
        "location:required"
      ])
    }
    assert.isTrue(validateDraft({ ...complete, execution_mode: "digital" }).valid)
    assert.strictEqual(validateDraft({ ...complete, location: "Berlin" }).task.location, "Berlin")
  })

  it("location is not required when execution_mode is missing or invalid", () => {
    const { execution_mode: _, ...noMode } = complete
    assert.deepStrictEqual(codes(validateDraft(noMode)), ["execution_mode:required"])
    assert.deepStrictEqual(codes(validateDraft({ ...complete, execution_mode: "onsite" })), ["execution_mode:invalid"])
  })

  it("null for an optional member is simply absent", () => {
    const v = validateDraft({
      ...complete,
      constraints: null,
      budget: null,
      contact_email: null,
      idempotency_key: null
    })
    assert.isTrue(v.valid)
    assert.deepStrictEqual(v.warnings, [])
    assert.strictEqual(v.idempotencyKey, undefined)
  })

  it("a wrong type on an optional member is 'invalid'", () => {
    const v = validateDraft({ ...complete, budget: 250, principal: false })
    assert.deepStrictEqual(codes(v), ["principal:invalid", "budget:invalid"])
  })
})

describe("execution_mode", () => {
  it("is trimmed and lower-cased", () => {
    assert.strictEqual(validateDraft({ ...complete, execution_mode: "  DiGiTaL " }).task.execution_mode, "digital")
  })

  it("anything else is 'invalid' and lists the three modes", () => {
    const v = validateDraft({ ...complete, execution_mode: "remote" })
    assert.deepStrictEqual(codes(v), ["execution_mode:invalid"])
    assert.include(v.issues[0]!.message, "digital, physical, hybrid")
    assert.include(v.issues[0]!.message, '"remote"')
    assert.isFalse(Object.hasOwn(v.task, "execution_mode"))
  })
})

describe("warnings", () => {
  it("timing, principal and agent are recommended", () => {
    const v = validateDraft(base)
    assert.isTrue(v.valid)
    assert.deepStrictEqual(codes(v, "warnings"), ["timing:recommended", "principal:recommended", "agent:recommended"])
    assert.include(v.warnings[0]!.message, "deadline or window")
    assert.include(v.warnings[1]!.message, "every task names the responsible principal")
    assert.include(v.warnings[2]!.message, "User-Agent")
  })

  it("agentFallback: false drops the User-Agent sentence but keeps the warning", () => {
    const v = validateDraft(base, { agentFallback: false })
    assert.deepStrictEqual(codes(v, "warnings"), ["timing:recommended", "principal:recommended", "agent:recommended"])
    assert.notInclude(v.warnings[2]!.message, "User-Agent")
  })
})

describe("too_long", () => {
  for (const f of draftFields.filter((field) => field.kind === undefined)) {
    it(`${f.name}: ${f.maxLength} is accepted, ${f.maxLength + 1} is too_long`, () => {
      // Only the length is under test: pick a filler that is otherwise valid for the member.
      const filler = f.name === "participant_slug" || f.name === "execution_mode" ? "x" : "a"
      const atLimit = validateDraft({ ...complete, [f.name]: filler.repeat(f.maxLength) })
      assert.deepStrictEqual(
        atLimit.issues.filter((i) => i.code === "too_long"),
        []
      )
      const over = validateDraft({ ...complete, [f.name]: filler.repeat(f.maxLength + 1) })
      assert.deepStrictEqual(issueOn(over, f.name), [
        {
          field: f.name,
          code: "too_long",
          message: `${f.name} is too long: at most ${f.maxLength} characters (Unicode code points) after trimming; got ${f.maxLength + 1}.`
        }
      ])
      assert.isFalse(Object.hasOwn(over.task, f.name))
      assert.isFalse(over.valid)
    })
  }

  it("counts code points, not UTF-16 units", () => {
    const emoji = "😀"
    assert.strictEqual(emoji.length, 2)
    const ok = validateDraft({ ...complete, action: emoji.repeat(4000) })
    assert.isTrue(ok.valid)
    assert.strictEqual(ok.task.action, emoji.repeat(4000))
    assert.deepStrictEqual(codes(validateDraft({ ...complete, action: emoji.repeat(4001) })), ["action:too_long"])
    assert.strictEqual(
      validateDraft({ ...complete, idempotency_key: emoji.repeat(255) }).idempotencyKey,
      emoji.repeat(255)
    )
  })

  it("measures the trimmed value", () => {
    const v = validateDraft({ ...complete, action: `  ${"a".repeat(4000)}\n\n` })
    assert.isTrue(v.valid)
    assert.strictEqual(v.task.action?.length, 4000)
  })

  it("replaces every other issue of that member", () => {
    const mode = validateDraft({ ...complete, execution_mode: "x".repeat(501) })
    assert.deepStrictEqual(codes(mode), ["execution_mode:too_long"])
    const email = validateDraft({ ...complete, contact_email: "not an email ".repeat(50) })
    assert.deepStrictEqual(codes(email), ["contact_email:too_long"])
    const slug = validateDraft({ ...complete, participant_slug: "A B ".repeat(200) })
    assert.deepStrictEqual(codes(slug), ["participant_slug:too_long"])
  })

  it("a 5 MiB string is rejected quickly", () => {
    const huge = "x".repeat(5 * 1024 * 1024)
    const started = performance.now()
    const v = validateDraft({ ...complete, action: huge, budget: huge, timing: huge, [huge]: huge })
    assert.isBelow(performance.now() - started, 1000)
    assert.deepStrictEqual(codes(v), ["action:too_long", "timing:too_long", "budget:too_long"])
    assert.strictEqual(v.warnings.length, 1)
    assert.strictEqual(v.warnings[0]!.code, "unrecognized")
    assert.isBelow(v.warnings[0]!.message.length, 200)
  })
})

describe("invalid values", () => {
  it("the NUL character is invalid (PostgreSQL cannot store it)", () => {
    assert.deepStrictEqual(codes(validateDraft({ ...complete, action: "a\u0000b" })), ["action:invalid"])
  })

  it("contact_email", () => {
    for (const good of ["ops@example.com", "a.b+tag@sub.example.co.uk", "  x@y.io  "]) {
      const v = validateDraft({ ...complete, contact_email: good })
      assert.isTrue(v.valid, good)
      assert.strictEqual(v.task.contact_email, good.trim())
    }
    for (const bad of [
      "a@b",
      "@example.com",
      "ops@",
      "ops",
      "a@@example.com",
      "a@b@example.com",
      "a b@example.com",
      "Jane <jane@example.com>",
      "a@example.",
      "a@.com",
      "a@example..com",
      "a@example.c"
    ]) {
      const v = validateDraft({ ...complete, contact_email: bad })
      assert.deepStrictEqual(codes(v), ["contact_email:invalid"], bad)
      assert.isFalse(Object.hasOwn(v.task, "contact_email"))
    }
  })

  it("participant_slug", () => {
    assert.isTrue(participantSlugPattern.test("jane-doe"))
    for (const good of ["jane-doe", "a", "x1-2-3", "a".repeat(64)]) {
      const v = validateDraft({ ...complete, participant_slug: good })
      assert.isTrue(v.valid, good)
      assert.strictEqual(v.task.participant_slug, good)
    }
    for (const bad of ["Jane Doe", "jane--doe", "-jane", "jane-", "jane_doe", "ján", "a".repeat(65)]) {
      const v = validateDraft({ ...complete, participant_slug: bad })
      assert.deepStrictEqual(codes(v), ["participant_slug:invalid"], bad)
      assert.isFalse(Object.hasOwn(v.task, "participant_slug"))
    }
    assert.include(validateDraft({ ...complete, participant_slug: "Jane Doe" }).issues[0]!.message, '"jane-doe"')
  })
})

describe("budget", () => {
  for (const ok of [
    "USD 250",
    "€40",
    "250 euros",
    "usd 250",
    "250 CHF",
    "¥5000",
    "£12.50 per hour",
    "$100",
    "INR 5,000"
  ]) {
    it(`${JSON.stringify(ok)} is clear`, () => {
      const v = validateDraft({ ...complete, budget: ok })
      assert.deepStrictEqual(v.warnings, [])
      assert.strictEqual(v.task.budget, ok)
    })
  }
  for (const [text, missing] of [
    ["250", "currency"],
    ["250 for all", "currency"],
    ["a lot", "amount or currency"],
    ["USD", "amount"],
    ["some euros", "amount"]
  ] as const) {
    it(`${JSON.stringify(text)} is ambiguous (${missing})`, () => {
      const v = validateDraft({ ...complete, budget: text })
      assert.isTrue(v.valid)
      assert.deepStrictEqual(codes(v, "warnings"), ["budget:ambiguous"])
      assert.include(v.warnings[0]!.message, `no recognisable ${missing};`)
      assert.strictEqual(v.task.budget, text)
    })
  }
})

describe("timing and deadline", () => {
  const cases: ReadonlyArray<readonly [string, string | undefined, number]> = [
    ["2030-12-01T17:00:00Z", "2030-12-01T17:00:00.000Z", 0],
    ["by 2030-12-01T17:00:00Z, in the morning", "2030-12-01T17:00:00.000Z", 0],
    ["before 2030-12-01T17:00:00+02:00", "2030-12-01T15:00:00.000Z", 0],
    ["2030-12-01T17:00:00-0530", "2030-12-01T22:30:00.000Z", 0],
    ["2030-12-01t08:15z", "2030-12-01T08:15:00.000Z", 0],
    ["2030-12-01 17:30:15.5Z", "2030-12-01T17:30:15.500Z", 0],
    ["2030-12-01T17:30:15.123456Z", "2030-12-01T17:30:15.123Z", 0],
    ["2030-12-01 17:00 UTC", "2030-12-01T17:00:00.000Z", 0],
    ["2030-12-01T17:00:00GMT", "2030-12-01T17:00:00.000Z", 0],
    ["2030-12-01 17:00 UTC+2", "2030-12-01T17:00:00.000Z", 1],
    ["2030-12-01", "2030-12-01T23:59:59.999Z", 0],
    ["2026-1-5", "2026-01-05T23:59:59.999Z", 0],
    ["on 2028-02-29", "2028-02-29T23:59:59.999Z", 0],
    ["between 2030-12-01T09:00Z and 2030-12-02T17:00Z", "2030-12-02T17:00:00.000Z", 0],
    ["next Tuesday afternoon", undefined, 0],
    ["within 3 days", undefined, 0]
  ]
  for (const [timing, deadline, warnings] of cases) {
    it(`${JSON.stringify(timing)} → ${deadline}`, () => {
      const v = validateDraft({ ...complete, timing })
      assert.strictEqual(v.task.deadline, deadline)
      assert.strictEqual(v.task.timing, timing)
      assert.strictEqual(v.warnings.length, warnings)
    })
  }

  it("a date-time without zone is read as UTC, with an ambiguous warning", () => {
    const v = validateDraft({ ...complete, timing: "by 2030-12-01T17:00" })
    assert.strictEqual(v.task.deadline, "2030-12-01T17:00:00.000Z")
    assert.deepStrictEqual(codes(v, "warnings"), ["timing:ambiguous"])
    assert.include(v.warnings[0]!.message, "UTC")
  })

  for (const timing of [
    "2026-13-45",
    "2026-02-29",
    "2026-04-31",
    "2030-12-01T25:00Z",
    "2030-12-01T12:60Z",
    "45/45/2026"
  ]) {
    it(`${JSON.stringify(timing)} looks like a date but is not one`, () => {
      const v = validateDraft({ ...complete, timing })
      assert.isTrue(v.valid)
      assert.strictEqual(v.task.deadline, undefined)
      assert.deepStrictEqual(codes(v, "warnings"), ["timing:ambiguous"])
      assert.include(v.warnings[0]!.message, "not a valid one")
    })
  }

  it("other date notations yield no deadline and a warning", () => {
    const order = validateDraft({ ...complete, timing: "by 12/01/2026" })
    assert.deepStrictEqual(codes(order, "warnings"), ["timing:ambiguous"])
    assert.include(order.warnings[0]!.message, "day/month order is ambiguous")
    assert.strictEqual(order.task.deadline, undefined)
    for (const timing of ["by 12/25/2026", "by 2026/12/01", "bis 01.12.2026"]) {
      const v = validateDraft({ ...complete, timing })
      assert.deepStrictEqual(codes(v, "warnings"), ["timing:ambiguous"], timing)
      assert.include(v.warnings[0]!.message, "not an ISO 8601 date")
      assert.notInclude(v.warnings[0]!.message, "order is ambiguous")
    }
  })

  it("a valid date beside an invalid one still yields the deadline", () => {
    const v = validateDraft({ ...complete, timing: "2030-12-01T10:00:00Z or 2026-13-01" })
    assert.strictEqual(v.task.deadline, "2030-12-01T10:00:00.000Z")
    assert.deepStrictEqual(codes(v, "warnings"), ["timing:ambiguous"])
  })

  it("echoing the derived deadline is silent; any other deadline member is flagged", () => {
    const first = validateDraft(complete)
    const again = validateDraft({ ...first.task })
    assert.deepStrictEqual(again.warnings, [])
    assert.deepStrictEqual(again.task, first.task)
    const other = validateDraft({ ...complete, deadline: "2030-01-01T00:00:00Z" })
    assert.deepStrictEqual(codes(other, "warnings"), ["deadline:unrecognized"])
    assert.include(other.warnings[0]!.message, "timing")
    assert.strictEqual(other.task.deadline, "2030-12-01T17:00:00.000Z")
  })
})

describe("a deadline that has passed", () => {
  const now = "2030-12-01T17:00:00.000Z"

  it("is a deadline_passed issue on timing when `now` is given, naming the deadline, now and a later example", () => {
    const v = validateDraft({ ...complete, timing: "by 2026-11-30" }, { now })
    assert.isFalse(v.valid)
    assert.deepStrictEqual(codes(v), ["timing:deadline_passed"])
    const message = issueOn(v, "timing")[0]!.message
    assert.include(message, "2026-11-30T23:59:59.999Z")
    assert.include(message, now)
    assert.include(message, "deadline_passed")
    assert.include(message, '"by 2030-12-08T17:00:00Z"')
    // The task keeps timing and the deadline read from it: the agent sees what was understood.
    assert.strictEqual(v.task.deadline, "2026-11-30T23:59:59.999Z")
  })

  it("a deadline equal to now has passed; a millisecond later has not (the dispatcher's rule)", () => {
    assert.deepStrictEqual(codes(validateDraft({ ...complete, timing: now }, { now })), ["timing:deadline_passed"])
    assert.isTrue(validateDraft({ ...complete, timing: "2030-12-01T17:00:00.001Z" }, { now }).valid)
    assert.isTrue(deadlinePassed(now, now))
    assert.isTrue(deadlinePassed("2030-12-01T16:59:59.999Z", now))
    assert.isFalse(deadlinePassed("2030-12-01T17:00:00.001Z", now))
  })

  it("is read at the latest instant of timing, and not checked without `now` or without a deadline", () => {
    // A window whose end is still ahead is fine although it started in the past.
    assert.isTrue(validateDraft({ ...complete, timing: "2026-11-01 to 2030-12-02" }, { now }).valid)
    assert.isTrue(validateDraft({ ...complete, timing: "by 2020-01-01" }).valid)
    assert.isTrue(validateDraft({ ...complete, timing: "within two weeks" }, { now }).valid)
  })
})

describe("unknown members", () => {
  it("are dropped with an unrecognized warning and a suggestion when close", () => {
    const v = validateDraft({
      ...complete,
      acceptance_tset: "x",
      expectedResult: "x",
      Action: "x",
      deadlne: "x",
      zzzzzzzz: "x",
      ab: "x"
    })
    assert.isTrue(v.valid)
    assert.deepStrictEqual(
      v.warnings.map((w) => w.message),
      [
        "unknown member 'acceptance_tset' is ignored; did you mean 'acceptance_test'?",
        "unknown member 'expectedResult' is ignored; did you mean 'expected_result'?",
        "unknown member 'Action' is ignored; did you mean 'action'?",
        "unknown member 'deadlne' is ignored; did you mean 'timing'?",
        "unknown member 'zzzzzzzz' is ignored.",
        "unknown member 'ab' is ignored."
      ]
    )
    assert.deepStrictEqual(Object.keys(v.task), [
      "action",
      "execution_mode",
      "timing",
      "deadline",
      "expected_result",
      "acceptance_test",
      "principal",
      "agent"
    ])
  })

  it("__proto__, constructor and friends are plain unknown keys", () => {
    const body = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "hasOwnProperty": 1, "toString": "x", "action": "a", "execution_mode": "digital", "expected_result": "r", "acceptance_test": "t"}'
    ) as Record<string, unknown>
    const v = validateDraft(body)
    assert.isTrue(v.valid)
    assert.deepStrictEqual(
      v.warnings.filter((w) => w.code === "unrecognized").map((w) => w.field),
      ["__proto__", "constructor", "hasOwnProperty", "toString"]
    )
    assert.strictEqual(Object.getPrototypeOf(v.task), Object.prototype)
    assert.isUndefined((v.task as Record<string, unknown>).polluted)
    assert.isUndefined(({} as Record<string, unknown>).polluted)
    assert.deepStrictEqual(Object.keys(v.task), ["action", "execution_mode", "expected_result", "acceptance_test"])
  })

  it("works on null-prototype bodies and ignores inherited members", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, complete)
    assert.isTrue(validateDraft(bare).valid)
    const inherited = Object.create(complete) as Record<string, unknown>
    assert.deepStrictEqual(codes(validateDraft(inherited)), [
      "action:required",
      "execution_mode:required",
      "expected_result:required",
      "acceptance_test:required"
    ])
  })

  it("deeply nested values are never walked", () => {
    let deep: unknown = "leaf"
    for (let i = 0; i < 100_000; i++) deep = { deep }
    const v = validateDraft({ ...complete, extra: deep, constraints: deep })
    assert.deepStrictEqual(codes(v), ["constraints:invalid"])
    assert.deepStrictEqual(codes(v, "warnings"), ["extra:unrecognized"])
  })

  it("many unknown members are summarised after 20", () => {
    const body: Record<string, unknown> = { ...complete }
    for (let i = 0; i < 1000; i++) body[`k${i}`] = i
    const v = validateDraft(body)
    assert.strictEqual(v.warnings.length, 21)
    assert.include(v.warnings[20]!.message, "'k20' and 979 more")
    assert.strictEqual(v.warnings[20]!.field, "k20")
  })
})

describe("normalisation and order", () => {
  it("trims every string, drops idempotency_key from task and returns it", () => {
    const v = validateDraft({
      action: "  a  ",
      execution_mode: " Physical ",
      location: "\tBerlin\n",
      timing: " soon ",
      expected_result: " r ",
      acceptance_test: " t ",
      constraints: " c ",
      participant_slug: " jane-doe ",
      principal: " p ",
      agent: " g ",
      contact_email: " x@y.io ",
      budget: " USD 1 ",
      idempotency_key: "  key-0123456789abcdef  "
    })
    assert.isTrue(v.valid)
    assert.deepStrictEqual(v.task, {
      action: "a",
      execution_mode: "physical",
      location: "Berlin",
      timing: "soon",
      expected_result: "r",
      acceptance_test: "t",
      constraints: "c",
      participant_slug: "jane-doe",
      principal: "p",
      agent: "g",
      contact_email: "x@y.io",
      budget: "USD 1"
    })
    assert.strictEqual(v.idempotencyKey, "key-0123456789abcdef")
  })

  it("idempotency_key: blank is undefined, wrong type and too long are issues", () => {
    assert.strictEqual(validateDraft({ ...complete, idempotency_key: "   " }).idempotencyKey, undefined)
    const wrong = validateDraft({ ...complete, idempotency_key: 7 })
    assert.deepStrictEqual(codes(wrong), ["idempotency_key:invalid"])
    assert.strictEqual(wrong.idempotencyKey, undefined)
    const long = validateDraft({ ...complete, idempotency_key: "k".repeat(256) })
    assert.deepStrictEqual(codes(long), ["idempotency_key:too_long"])
    assert.strictEqual(long.idempotencyKey, undefined)
  })

  it("issues follow field order whatever the body's key order; unknown members follow body order", () => {
    const v = validateDraft({
      zeta: 1,
      idempotency_key: 1,
      contact_email: "nope",
      budget: "lots",
      acceptance_test: 1,
      execution_mode: "physical",
      alpha: 2
    })
    assert.deepStrictEqual(codes(v), [
      "action:required",
      "location:required",
      "expected_result:required",
      "acceptance_test:invalid",
      "contact_email:invalid",
      "idempotency_key:invalid"
    ])
    assert.deepStrictEqual(codes(v, "warnings"), [
      "timing:recommended",
      "principal:recommended",
      "agent:recommended",
      "budget:ambiguous",
      "zeta:unrecognized",
      "alpha:unrecognized"
    ])
  })
})

describe("withUnknownParticipant", () => {
  it("adds not_found in field order, drops the slug and invalidates", () => {
    const v = withUnknownParticipant(
      validateDraft({ ...complete, participant_slug: "jane-doe", contact_email: "bad", action: 1 })
    )
    assert.isFalse(v.valid)
    assert.deepStrictEqual(codes(v), ["action:invalid", "participant_slug:not_found", "contact_email:invalid"])
    const notFound = v.issues[1]!
    assert.include(notFound.message, '"jane-doe"')
    assert.include(notFound.message, "GET /api/public/v1/participants")
    assert.isFalse(Object.hasOwn(v.task, "participant_slug"))
  })

  it("turns a valid draft invalid and is idempotent", () => {
    const once = withUnknownParticipant(validateDraft({ ...complete, participant_slug: "nobody" }))
    assert.isFalse(once.valid)
    assert.deepStrictEqual(codes(once), ["participant_slug:not_found"])
    assert.deepStrictEqual(withUnknownParticipant(once), once)
  })

  it("leaves a draft without slug unchanged", () => {
    const v = validateDraft(complete)
    assert.strictEqual(withUnknownParticipant(v), v)
  })
})

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const JsonScalar = Schema.Union([Schema.String, Schema.Number, Schema.Boolean, Schema.Null])

const AnyMembers = Schema.Struct(
  Object.fromEntries(draftMembers.map((m) => [m, Schema.optionalKey(JsonScalar)])) as Record<
    (typeof draftMembers)[number],
    Schema.optionalKey<typeof JsonScalar>
  >
)
const ExtraMembers = Schema.Record(Schema.String, JsonScalar)

/** A non-blank string already trimmed and free of U+0000, at most `max` code points. */
const text = (max: number) =>
  Arbitrary.schema(Schema.String.check(Schema.isMaxCodePoints(max))).pipe(
    Arbitrary.map((s) => s.replaceAll("\u0000", "").trim() || "x")
  )
const padding = Arbitrary.schema(Schema.Literals(["", " ", "  \t", "\n", "\u00a0 "]))
const padded = (max: number) =>
  Arbitrary.all({ core: text(max), before: padding, after: padding }).pipe(
    Arbitrary.map(({ after, before, core }) => ({ core, raw: `${before}${core}${after}` }))
  )

const slug = Arbitrary.schema(Schema.String.check(Schema.isPattern(participantSlugPattern), Schema.isMaxLength(64)))
const email = Arbitrary.all({
  local: Arbitrary.schema(Schema.String.check(Schema.isPattern(/^[a-z0-9._+-]{1,20}$/))),
  domain: Arbitrary.schema(Schema.String.check(Schema.isPattern(/^[a-z0-9-]{1,20}\.[a-z]{2,6}$/)))
}).pipe(Arbitrary.map(({ domain, local }) => `${local}@${domain}`))

interface ValidCase {
  readonly body: Record<string, unknown>
  readonly expected: Record<string, string>
  readonly key: string | undefined
}

const validDraft = Arbitrary.all({
  action: padded(4000),
  mode: Arbitrary.schema(ExecutionMode),
  modeCase: Arbitrary.schema(Schema.Literals(["lower", "upper", "padded"])),
  location: padded(500),
  withLocation: Arbitrary.schema(Schema.Boolean),
  expected_result: padded(4000),
  acceptance_test: padded(4000),
  constraints: Arbitrary.schema(Schema.optional(Schema.Boolean)),
  constraintsText: padded(4000),
  principal: padded(500),
  agent: padded(500),
  slug: Arbitrary.schema(Schema.optional(Schema.Boolean)),
  slugText: slug,
  email: Arbitrary.schema(Schema.optional(Schema.Boolean)),
  emailText: email,
  key: Arbitrary.schema(Schema.optional(Schema.Boolean)),
  keyText: padded(255)
}).pipe(
  Arbitrary.map((g): ValidCase => {
    const mode = g.modeCase === "upper" ? g.mode.toUpperCase() : g.modeCase === "padded" ? ` ${g.mode} ` : g.mode
    const body: Record<string, unknown> = {
      action: g.action.raw,
      execution_mode: mode,
      expected_result: g.expected_result.raw,
      acceptance_test: g.acceptance_test.raw,
      principal: g.principal.raw,
      agent: g.agent.raw
    }
    const expected: Record<string, string> = {
      action: g.action.core,
      execution_mode: g.mode,
      expected_result: g.expected_result.core,
      acceptance_test: g.acceptance_test.core,
      principal: g.principal.core,
      agent: g.agent.core
    }
    if (g.mode !== "digital" || g.withLocation) {
      body.location = g.location.raw
      expected.location = g.location.core
    }
    if (g.constraints === true) {
      body.constraints = g.constraintsText.raw
      expected.constraints = g.constraintsText.core
    }
    if (g.slug === true) {
      body.participant_slug = g.slugText
      expected.participant_slug = g.slugText
    }
    if (g.email === true) {
      body.contact_email = g.emailText
      expected.contact_email = g.emailText
    }
    // A key shorter than a secret is an issue: a valid draft's key has at least 16 characters.
    const key = g.key === true && [...g.keyText.core].length >= 16
    if (key) body.idempotency_key = g.keyText.raw
    return { body, expected, key: key ? g.keyText.core : undefined }
  })
)

const knownNames: ReadonlySet<string> = new Set<string>(draftMembers)
const taskNames: ReadonlySet<string> = new Set<string>([
  ...draftMembers.filter((m) => m !== "idempotency_key"),
  "deadline"
])

// Enough runs to reach unusual generated keys and strings while keeping the suite fast.
const propOptions = { arbitrary: { runs: Number(process.env.PROP_RUNS ?? 300) } }

describe("properties", () => {
  it.prop(
    "never throws; valid iff no issues; fields are known or body keys; task has known members only",
    { known: AnyMembers, extra: ExtraMembers },
    ({ extra, known }) => {
      // Spread defines own properties, so a generated "__proto__" key stays a plain key.
      const body: Record<string, unknown> = { ...extra, ...known }
      const v = validateDraft(body)
      assert.strictEqual(v.valid, v.issues.length === 0)
      for (const [list, severity] of [
        [v.issues, "issue"],
        [v.warnings, "warning"]
      ] as const) {
        for (const i of list) {
          assert.isTrue(knownNames.has(i.field) || Object.hasOwn(body, i.field), i.field)
          assert.isTrue(Object.hasOwn(IssueCode, i.code), i.code)
          assert.strictEqual(issueSeverity[i.code as keyof typeof IssueCode], severity)
        }
      }
      for (const key of Object.keys(v.task)) assert.isTrue(taskNames.has(key), key)
      assert.isFalse(Object.hasOwn(v.task, "idempotency_key"))
      // Scalars only here: a result_schema (an object) is never valid, so every member is text.
      for (const value of Object.values(v.task)) assert.strictEqual(value, String(value).trim())
      if (v.task.deadline !== undefined) assert.strictEqual(new Date(v.task.deadline).toISOString(), v.task.deadline)
      assert.isTrue(Schema.is(NormalizedDraft)(v.task))
    },
    propOptions
  )

  it.prop(
    "a complete valid draft is valid and its task round-trips trimmed values",
    { c: validDraft },
    ({ c }) => {
      const v = validateDraft(c.body)
      assert.deepStrictEqual(v.issues, [])
      assert.isTrue(v.valid)
      const { deadline: _, ...task } = v.task
      assert.deepStrictEqual(task, c.expected)
      assert.strictEqual(v.idempotencyKey, c.key)
    },
    propOptions
  )

  it.prop(
    "validating the normalised task again yields the same task",
    { known: AnyMembers, extra: ExtraMembers, c: validDraft },
    ({ c, extra, known }) => {
      for (const body of [{ ...extra, ...known }, c.body]) {
        const first = validateDraft(body)
        const second = validateDraft({ ...first.task })
        assert.deepStrictEqual(second.task, first.task)
        assert.deepStrictEqual(
          second.warnings.filter((w) => w.code === "unrecognized"),
          []
        )
      }
    },
    propOptions
  )

  it.prop(
    "removing one required member from a valid draft yields exactly one required issue naming it",
    {
      c: validDraft,
      member: Schema.Literals(["action", "execution_mode", "expected_result", "acceptance_test"]),
      how: Schema.Literals(["delete", "empty", "blank", "null"])
    },
    ({ c, how, member }) => {
      const body = { ...c.body }
      if (how === "delete") delete body[member]
      else body[member] = how === "empty" ? "" : how === "blank" ? " \t\n " : null
      const v = validateDraft(body)
      assert.isFalse(v.valid)
      assert.deepStrictEqual(codes(v), [`${member}:required`])
    },
    propOptions
  )
})

// ---------------------------------------------------------------------------------------------
// The published schema is the rule set
// ---------------------------------------------------------------------------------------------

describe("TaskDraft's JSON Schema says what decoding enforces", () => {
  const document = Schema.toJsonSchemaDocument(TaskDraft)
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  const accepts = ajv.compile({ ...document.schema, $defs: document.definitions })
  // webhook_url's host and scheme policy and result_schema's content are judged beyond the
  // document (422 with the member named); every other member's rule is stated exactly.
  const stated = draftMembers.filter((m) => m !== "webhook_url" && m !== "result_schema")
  const crafted = [
    null,
    "",
    " \t\n",
    "\u00a0x\u00a0",
    "a\u0000b",
    "DIGITAL",
    " Hybrid ",
    "physical",
    "remote",
    "jane-doe",
    " jane-doe ",
    "Jane Doe",
    "jane--doe",
    "a".repeat(64),
    "a".repeat(65),
    "ops@example.com",
    " ops@example.com ",
    "ops@example",
    "a@b.c",
    "a..b@x.io",
    "Jane <jane@example.com>",
    "k".repeat(15),
    ` ${"k".repeat(16)} `,
    "😀".repeat(500),
    "😀".repeat(501),
    `  ${"x".repeat(500)}  `,
    "x".repeat(501),
    "x".repeat(4000),
    `\n${"x".repeat(4001)}`,
    42,
    true,
    ["x"],
    { x: 1 }
  ]
  // `complete` is valid: any issue comes from the member set (or from location, which a mode asks
  // for). A short idempotency key is an issue too (submission refuses it first, with 400).
  const issueOnMember = (member: string, value: unknown) => !validateDraft({ ...complete, [member]: value }).valid

  it("crafted values: valid by the schema exactly when decoding names no issue on the member", () => {
    for (const member of stated) {
      for (const value of crafted) {
        const body = { ...complete, [member]: value }
        assert.strictEqual(accepts(body), !issueOnMember(member, value), `${member}: ${JSON.stringify(value)}`)
      }
    }
  })

  it.prop(
    "generated values: valid by the schema exactly when decoding names no issue on the member",
    {
      member: Schema.Literals(stated),
      value: Schema.Union([Schema.String, Schema.Null, Schema.Number]),
      before: Schema.Literals(["", " ", "\t\n"]),
      after: Schema.Literals(["", " ", "\u00a0"])
    },
    ({ after, before, member, value }) => {
      const padded = typeof value === "string" ? `${before}${value}${after}` : value
      assert.strictEqual(accepts({ ...complete, [member]: padded }), !issueOnMember(member, padded))
    },
    propOptions
  )

  it("location: the schema requires it exactly when decoding does", () => {
    for (const mode of ["digital", " Physical", "HYBRID", "remote", null]) {
      for (const location of [undefined, null, "", " ", "Berlin"]) {
        const body: Record<string, unknown> = { ...complete, execution_mode: mode }
        if (location !== undefined) body.location = location
        const located = validateDraft(body).issues.some((i) => i.field === "location")
        const modeInvalid = validateDraft(body).issues.some((i) => i.field === "execution_mode")
        assert.strictEqual(accepts(body), !located && !modeInvalid, JSON.stringify(body))
      }
    }
  })
})
