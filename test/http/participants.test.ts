// Participant discovery over HTTP (published contract: participants, rule 1; DECISIONS §1, §2, §9).
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ParticipantList } from "../../src/api/resources.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { makeParticipantJson } from "../../src/http/participants.ts"
import { presentParticipant } from "../../src/operations/agent.ts"
import { type ApiClient, apiClient, call, exchange } from "../support/api_client.ts"
import { expectEnvelope, notExactly, startServer, type TestServer } from "../support/server.ts"

interface SampleParticipant {
  readonly slug: string
  readonly name: string
  readonly discipline: string
  readonly location: string
  readonly task_type: string
  readonly tags: ReadonlyArray<string>
  readonly capabilities: ReadonlyArray<string>
  readonly returns: string
  readonly boundary: string | null
}

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

const sample: ReadonlyArray<SampleParticipant> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)
const allSlugs = sample.map((p) => p.slug).sort()

/** The fields q searches (published rule 1). */
const searchable = (p: SampleParticipant) => [p.name, p.discipline, p.location, p.task_type, ...p.tags]

/** Slugs q must return, computed from the sample data: any searchable field contains q, ignoring case. */
const expectedFor = (q: string) => {
  const needle = q.trim().toLowerCase()
  return sample
    .filter((p) => searchable(p).some((field) => field.toLowerCase().includes(needle)))
    .map((p) => p.slug)
    .sort()
}

let server: TestServer
let client: ApiClient
beforeAll(async () => {
  server = await startServer()
  client = apiClient(server)
})
afterAll(() => server.close())

type ListQuery = Parameters<ApiClient["listParticipants"]>[0]["query"]

/** A page of the listing, through the typed client (sent and decoded by the declared schemas). */
const list = (query: ListQuery = {}) => call(client.listParticipants({ query }))

/** A page of the listing as the bytes the server sent, with any query parameters, parsed. */
const listRaw = async (params: Record<string, string> = {}) => {
  const search = new URLSearchParams(params).toString()
  const response = await fetch(server.api(`/participants${search === "" ? "" : `?${search}`}`))
  const text = await response.text()
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${text}`)
  return JSON.parse(text) as Json
}

const slugsFor = async (q: string) => {
  const body = await list({ q })
  expect(body.count).toBe(body.data.length)
  expect(body.has_more).toBe(false)
  return body.data.map((p: Json) => p.slug) as Array<string>
}

/** Every page of a listing, following next_cursor. */
const allPages = async (params: ListQuery) => {
  const pages: Array<Json> = []
  let cursor: string | undefined
  for (let i = 0; i < 200; i++) {
    const page = await list(cursor === undefined ? params : { ...params, cursor })
    pages.push(page)
    if (!page.has_more) {
      expect(page.next_cursor).toBeNull()
      return pages
    }
    expect(typeof page.next_cursor).toBe("string")
    cursor = page.next_cursor ?? undefined
  }
  throw new Error("pagination did not end")
}

describe("GET /participants without q", () => {
  it("lists every sample participant in slug order, with every published field", async () => {
    expect(sample.length).toBeLessThanOrEqual(100)
    // As sent, not as decoded: the body is made as bytes by the handler.
    const body = await listRaw()
    expect(body.object).toBe("list")
    expect(body.count).toBe(sample.length)
    expect(body.data).toHaveLength(sample.length)
    expect(body.has_more).toBe(false)
    expect(body.next_cursor).toBeNull()
    expect(body.data.map((p: Json) => p.slug)).toEqual(allSlugs)

    const bySlug = new Map(sample.map((p) => [p.slug, p]))
    for (const p of body.data) {
      const record = bySlug.get(p.slug)!
      expect(p).toEqual({
        object: "participant",
        slug: record.slug,
        name: record.name,
        discipline: record.discipline,
        location: record.location,
        task_type: record.task_type,
        tags: record.tags,
        capabilities: record.capabilities,
        returns: record.returns,
        boundary: record.boundary,
        url: `${server.url}/api/public/v1/participants/${record.slug}`
      })
      expect(p.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      expect(p.boundary === null || typeof p.boundary === "string").toBe(true)
      expect(new URL(p.url).href).toBe(p.url)
    }
    // The body is made as text by the handler: it must still be exactly the declared schema.
    expect(notExactly(ParticipantList, body)).toBeUndefined()
    // The sample covers both forms of boundary.
    expect(body.data.some((p: Json) => p.boundary === null)).toBe(true)
    expect(body.data.some((p: Json) => typeof p.boundary === "string")).toBe(true)
  })

  it("lists everyone for an empty or blank q", async () => {
    expect(await slugsFor("")).toEqual(allSlugs)
    expect(await slugsFor("   ")).toEqual(allSlugs)
  })

  it("ignores unknown query parameters", async () => {
    expect((await listRaw({ foo: "bar", sort: "name", page: "3" })).data.map((p: Json) => p.slug)).toEqual(allSlugs)
    expect(await listRaw({ q: "berlin", utm_source: "agent" })).toEqual(await listRaw({ q: "berlin" }))
  })
})

describe("GET /participants?q=", () => {
  it("is case-insensitive", async () => {
    const lower = await slugsFor("berlin")
    expect(lower).toEqual(["jonas-weber", "lukas-schmidt"])
    expect(await slugsFor("BERLIN")).toEqual(lower)
    expect(await slugsFor("BeRLiN")).toEqual(lower)
  })

  // One value per searchable field, each found in that field of the named participant.
  const perField: ReadonlyArray<readonly [string, string, (p: SampleParticipant) => ReadonlyArray<string>, string]> = [
    ["name", "Wanjiku", (p) => [p.name], "grace-wanjiku"],
    ["discipline", "mystery shopping", (p) => [p.discipline], "marie-dubois"],
    ["location", "Nairobi", (p) => [p.location], "grace-wanjiku"],
    ["task type", "hybrid", (p) => [p.task_type], "aisha-bello"],
    ["tags", "chain-of-custody", (p) => p.tags, "erik-larsen"],
    ["tags", "wcag", (p) => p.tags, "priya-raman"]
  ]
  for (const [field, q, fieldOf, slug] of perField) {
    it(`matches ${field} (${q})`, async () => {
      const holder = sample.find((p) => p.slug === slug)!
      expect(fieldOf(holder).some((v) => v.toLowerCase().includes(q.toLowerCase()))).toBe(true)
      const result = await slugsFor(q)
      expect(result).toContain(slug)
      expect(result).toEqual(expectedFor(q))
      for (const s of result) {
        const p = sample.find((x) => x.slug === s)!
        expect(searchable(p).some((v) => v.toLowerCase().includes(q.toLowerCase()))).toBe(true)
      }
      expect(await slugsFor(q.toUpperCase())).toEqual(result)
    })
  }

  it("returns exactly the participants whose searchable fields contain q, for many values", async () => {
    const values = ["photos", "spanish", "digital", "physical", "same-day", "japan", "translation", "ux", "e", "ia"]
    for (const q of values) expect(await slugsFor(q), q).toEqual(expectedFor(q))
  })

  it("matches substrings", async () => {
    expect(await slugsFor("okaf")).toEqual(["amara-okafor"])
    expect(await slugsFor("ucharest")).toEqual(["ana-popescu"])
    expect(await slugsFor("rese")).toEqual(expectedFor("rese"))
    expect((await slugsFor("rese")).length).toBeGreaterThan(1)
  })

  it("does not match capabilities, returns or boundary", async () => {
    // Words that appear in those fields only.
    const hidden: ReadonlyArray<readonly [string, (p: SampleParticipant) => ReadonlyArray<string>]> = [
      ["glossaries", (p) => p.capabilities],
      ["lightbox", (p) => p.capabilities],
      ["Elektrofachkraft", (p) => p.capabilities],
      ["side-by-side", (p) => [p.returns]],
      ["consented audio", (p) => [p.returns]],
      ["sworn", (p) => (p.boundary === null ? [] : [p.boundary])],
      ["test drives", (p) => (p.boundary === null ? [] : [p.boundary])]
    ]
    for (const [word, fieldOf] of hidden) {
      const holders = sample.filter((p) => fieldOf(p).some((v) => v.toLowerCase().includes(word.toLowerCase())))
      expect(holders.length, word).toBeGreaterThan(0)
      expect(expectedFor(word), word).toEqual([])
      expect(await slugsFor(word), word).toEqual([])
    }
  })

  it("returns a participant matched elsewhere, not one that mentions q only in capabilities", async () => {
    // "motorbike": a tag of ahmed-hassan; only in the capabilities of amara-okafor.
    const amara = sample.find((p) => p.slug === "amara-okafor")!
    expect(amara.capabilities.join(" ").toLowerCase()).toContain("motorbike")
    expect(await slugsFor("motorbike")).toEqual(["ahmed-hassan"])
    expect(await slugsFor("Motorbike")).toEqual(expectedFor("motorbike"))
  })

  it("does not match across two fields", async () => {
    // name "Ahmed Hassan" then discipline "Courier": no single field contains this.
    expect(expectedFor("hassan courier")).toEqual([])
    expect(await slugsFor("hassan courier")).toEqual([])
    expect(await slugsFor("egypt physical")).toEqual([])
  })

  it("does not match across two fields through a control character in q", async () => {
    // No field of any participant contains U+001F, so no q containing it can match.
    expect(expectedFor("\u001f")).toEqual([])
    expect(await slugsFor("hassan\u001fcourier")).toEqual([])
    expect(await slugsFor("\u001f")).toEqual([])
  })

  it("trims surrounding spaces", async () => {
    expect(await slugsFor("  berlin  ")).toEqual(["jonas-weber", "lukas-schmidt"])
    expect(await slugsFor("\tnairobi\n")).toEqual(["grace-wanjiku"])
  })

  it("matches non-ASCII text in any case", async () => {
    expect(await slugsFor("garcía")).toEqual(["lucia-garcia"])
    expect(await slugsFor("GARCÍA")).toEqual(["lucia-garcia"])
    expect(await slugsFor("Lucía García")).toEqual(["lucia-garcia"])
    expect(await slugsFor("MONTRÉAL")).toEqual(["camille-tremblay"])
    expect(await slugsFor("NGUYỄN")).toEqual(["nguyen-thi-lan"])
    expect(await slugsFor("TÜRKIYE")).toEqual(["aylin-demir"])
    expect(await slugsFor("são paulo")).toEqual(["rafael-souza"])
    expect(await slugsFor("Japanese–English")).toEqual(expectedFor("japanese–english"))
    expect(await slugsFor("Japanese–English")).toEqual(["akiko-tanaka", "hiroshi-sato"])
  })

  it("matches % and _ literally", async () => {
    expect(expectedFor("%")).toEqual([])
    expect(await slugsFor("%")).toEqual([])
    expect(await slugsFor("%%")).toEqual([])
    expect(await slugsFor("_")).toEqual([])
    expect(await slugsFor("ux_research")).toEqual([])
    expect(await slugsFor("ux%research")).toEqual([])
    expect(await slugsFor("\\")).toEqual([])
    expect(await slugsFor("o'brien")).toEqual(["liam-obrien"])
  })

  it("finds nothing for text no participant has", async () => {
    const body = await list({ q: "zzzz-no-such-thing" })
    expect(body).toEqual({ object: "list", count: 0, data: [], has_more: false, next_cursor: null })
  })
})

describe("GET /participants pagination", () => {
  it("limit=5 returns the first five, has_more and a next_cursor", async () => {
    const body = await list({ limit: 5 })
    expect(body.count).toBe(5)
    expect(body.data.map((p: Json) => p.slug)).toEqual(allSlugs.slice(0, 5))
    expect(body.has_more).toBe(true)
    expect(typeof body.next_cursor).toBe("string")
    expect(body.next_cursor).not.toBe("")
  })

  it("following next_cursor visits every participant exactly once, in slug order", async () => {
    const pages = await allPages({ limit: 5 })
    expect(pages).toHaveLength(Math.ceil(sample.length / 5))
    for (const page of pages) {
      expect(page.object).toBe("list")
      expect(page.count).toBe(page.data.length)
      expect(page.count).toBeLessThanOrEqual(5)
      expect(page.count).toBeGreaterThan(0)
    }
    expect(pages.flatMap((p) => p.data.map((x: Json) => x.slug))).toEqual(allSlugs)
  })

  it("a limit equal to the number of participants has no next page", async () => {
    const body = await list({ limit: sample.length })
    expect(body.count).toBe(sample.length)
    expect(body.has_more).toBe(false)
    expect(body.next_cursor).toBeNull()
    const smaller = await list({ limit: sample.length - 1 })
    expect(smaller.has_more).toBe(true)
    const rest = await list({ limit: 500, cursor: smaller.next_cursor ?? "" })
    expect(rest.data.map((p: Json) => p.slug)).toEqual(allSlugs.slice(-1))
    expect(rest.has_more).toBe(false)
  })

  it("paginates a filtered list", async () => {
    const q = "photos"
    const expected = expectedFor(q)
    expect(expected.length).toBeGreaterThan(4)
    const pages = await allPages({ q, limit: 2 })
    expect(pages).toHaveLength(Math.ceil(expected.length / 2))
    expect(pages.flatMap((p) => p.data.map((x: Json) => x.slug))).toEqual(expected)
  })

  it("accepts the limits 1 and 500", async () => {
    expect((await list({ limit: 1 })).data.map((p: Json) => p.slug)).toEqual(allSlugs.slice(0, 1))
    expect((await list({ limit: 500 })).count).toBe(sample.length)
  })

  for (const limit of ["0", "-1", "501", "abc", "1.5", "", "1e2", "10000"]) {
    it(`rejects limit=${JSON.stringify(limit)} with 400 invalid_request`, async () => {
      // Raw: values the document refuses, which no client derived from it sends.
      const response = await fetch(server.api(`/participants?limit=${encodeURIComponent(limit)}`))
      const error = await expectEnvelope(response, 400, "invalid_request")
      expect(error.hint).toBeTypeOf("string")
    })
  }

  for (const cursor of ["garbage!!", "abc", "", Buffer.from("before:zzz").toString("base64url")]) {
    it(`rejects cursor=${JSON.stringify(cursor)} with 400 invalid_request`, async () => {
      // Raw: values the document refuses, which no client derived from it sends.
      const response = await fetch(server.api(`/participants?cursor=${encodeURIComponent(cursor)}`))
      await expectEnvelope(response, 400, "invalid_request")
    })
  }
})

describe("GET /participants/{slug}", () => {
  it("returns each participant exactly as listed", async () => {
    const listed = (await list()).data
    const read = await Promise.all(listed.map((p) => call(client.getParticipant({ params: { slug: p.slug } }))))
    expect(read).toEqual(listed)
  })

  it("the url member of a participant addresses that participant", async () => {
    const p = (await list({ limit: 1 })).data[0]!
    // Raw: the subject is the address as given, followed as any client would.
    const response = await fetch(p.url)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(p)
  })

  it("answers 404 participant_not_found with a hint for an unknown slug", async () => {
    // "%" goes on the wire as %25.
    for (const slug of ["nobody-here", "AHMED-HASSAN", "ahmed", "%"]) {
      const error = await expectEnvelope(
        await exchange(server, (c) => c.getParticipant({ params: { slug } })),
        404,
        "participant_not_found"
      )
      expect(error.hint).toBeTypeOf("string")
      expect(error.hint).toContain("/api/public/v1/participants")
    }
  })
})

describe("participant JSON kept for listings", () => {
  it("is made once per record, and at most the bound's worth of records is kept", () => {
    const records = sample.slice(0, 4) as unknown as ReadonlyArray<ParticipantRecord>
    const json = makeParticipantJson("https://tasks.example.com", 3)
    const first = json(records[0]!)
    expect(JSON.parse(first.toString())).toEqual(presentParticipant("https://tasks.example.com", records[0]!))
    expect(json(records[0]!)).toBe(first)
    json(records[1]!)
    json(records[2]!)
    expect(json(records[0]!)).toBe(first)
    // A fourth record is past the bound: the kept bytes are let go and made again when listed.
    json(records[3]!)
    const again = json(records[0]!)
    expect(again).not.toBe(first)
    expect(again.equals(first)).toBe(true)
  })
})
