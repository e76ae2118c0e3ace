// Availability and sign-ups awaiting approval as agents and participants meet them over HTTP, on
// SQLite and on Postgres: a participant who switched offers off (in another process sharing the
// database, as the console's profile page would) stays listed, unchanged, but gets no offer — a
// task naming them is declined at once, preflight having warned — until they switch back on; an
// offer made before stays theirs to accept. A sign-up awaiting approval is unknown to agents, and
// its own token is told so by /me, /me/tasks and the participant's MCP endpoint; approved, it is
// listed and offered tasks.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type * as Effect from "effect/Effect"
import { Participant } from "../../src/domain/participant.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { Profiles } from "../../src/services/profiles.ts"
import { type ApiClient, asJsonObject, asPayload, exchange } from "../support/api_client.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { initializeMessage, postMcp } from "../support/mcp.ts"
import {
  expectEnvelope,
  notExactly,
  type ServerOnDatabase,
  startOnFreshDatabase,
  validDraft
} from "../support/server.ts"
import { otherProcessOn } from "../support/services.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
let env: ServerOnDatabase
let elsewhere: ReturnType<typeof otherProcessOn>

beforeAll(async () => {
  issuer = await startIssuer()
  env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50, offerTimeoutMs: 60_000 }
  })
  elsewhere = otherProcessOn(env.database)
})
afterAll(async () => {
  await elsewhere?.dispose()
  await env?.close()
  await issuer?.close()
})

/** Switches a participant's offers on or off from another process, as the console would. */
const setAvailable = (slug: string, available: boolean) =>
  elsewhere.runPromise(Profiles.use((profiles) => profiles.setAvailable(slug, available)))

/**
 * Physical in Lagos or Abuja: exactly two eligible in the sample catalogue, amara-okafor (Lagos)
 * and aisha-bello (Abuja, hybrid: she interviews).
 */
const nigeriaDraft = (overrides: Record<string, unknown> = {}) =>
  validDraft({
    action: "Visit the pharmacy at 12 Allen Avenue and check whether it is open; interview the pharmacist",
    location: "Lagos or Abuja, Nigeria",
    expected_result: "Three photos of the shop front and a JSON checklist of opening hours",
    acceptance_test: "The photos show the pharmacy sign and its opening hours legibly",
    ...overrides
  })

/** A typed call's JSON body, as sent. */
const bodyOf = async <A, E>(run: (client: ApiClient) => Effect.Effect<A, E>, token?: string): Promise<Json> =>
  (await exchange(env.server, run, { token })).json()

const preflight = (draft: Record<string, unknown>): Promise<Json> =>
  bodyOf((c) => c.preflight({ payload: asJsonObject(draft) }))

const submit = async (draft: Record<string, unknown>): Promise<string> => {
  const response = await exchange(env.server, (c) =>
    c.createTask({ payload: asPayload(TaskDraft, draft), headers: { "idempotency-key": randomUUID() } })
  )
  const body: Json = await response.json()
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${JSON.stringify(body)}`)
  return body.reference
}

/** The task once the service has moved it out of `open`, read with the long poll. */
const settled = async (reference: string): Promise<Json> => {
  for (let i = 0; i < 20; i++) {
    const task: Json = await bodyOf((c) =>
      c.getTask({ params: { reference }, query: { wait: i === 0 ? 0 : 5 }, headers: {} })
    )
    if (task.state !== "open" && task.state !== "matching") return task
  }
  throw new Error(`task ${reference} was never moved`)
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe("a participant not taking offers", () => {
  it("stays listed as ever, but gets no offer, named or not; back on, they do", async () => {
    await setAvailable("amara-okafor", false)

    // Discovery lists them as before: the same public representation, nothing added.
    const read = await exchange(env.server, (c) => c.getParticipant({ params: { slug: "amara-okafor" } }))
    expect(read.status).toBe(200)
    const body: Json = await read.json()
    expect(notExactly(Participant, body)).toBeUndefined()
    const listed: Json = await bodyOf((c) => c.listParticipants({ query: { q: "amara" } }))
    expect(listed.data.map((p: Json) => p.slug)).toEqual(["amara-okafor"])

    // Preflight counts only who takes offers; search lists only them.
    const unnamed = await preflight(nigeriaDraft())
    expect(unnamed.feasibility).toEqual({ eligible_participants: 1, sample: ["aisha-bello"] })
    const searched: Json = await bodyOf((c) =>
      c.search({ payload: { query: "Photograph a pharmacy in Lagos, Nigeria" } })
    )
    expect(searched.data.map((m: Json) => m.participant.slug)).not.toContain("amara-okafor")

    // Unnamed: offered to the other one.
    const offered = await settled(await submit(nigeriaDraft()))
    expect(offered).toMatchObject({ state: "awaiting_participant", participant_slug: "aisha-bello" })

    // Named: warned at preflight, declined at once (no offer ever made), and told why.
    const named = await preflight(nigeriaDraft({ participant_slug: "amara-okafor" }))
    expect(named.valid).toBe(true)
    const warning = named.warnings.find((w: Json) => w.field === "participant_slug")
    expect(warning.code).toBe("participant_unavailable")
    expect(warning.message).toContain("amara-okafor is not taking offers right now")
    const declined = await settled(await submit(nigeriaDraft({ participant_slug: "amara-okafor" })))
    expect(declined.state).toBe("declined")
    expect(declined.history.map((h: Json) => h.to)).toEqual(["open", "matching", "declined"])
    expect(declined.outcome.reason).toBe("no_match")
    expect(declined.outcome.message).toContain("amara-okafor is not taking offers right now")
    expect(declined.next_step).toMatch(/^The task was declined with no_match: amara-okafor is not taking offers/)

    // Back on: offered again.
    await setAvailable("amara-okafor", true)
    expect((await preflight(nigeriaDraft())).feasibility.eligible_participants).toBe(2)
    const again = await settled(await submit(nigeriaDraft({ participant_slug: "amara-okafor" })))
    expect(again).toMatchObject({ state: "awaiting_participant", participant_slug: "amara-okafor" })
  })

  it("keeps an offer made before switching off: it is theirs to accept", async () => {
    const subject = `user-aisha-${randomUUID().slice(0, 8)}`
    await linkAccount(env.database, subject, "aisha-bello")
    const reference = await submit(nigeriaDraft({ participant_slug: "aisha-bello" }))
    expect(await settled(reference)).toMatchObject({ state: "awaiting_participant", participant_slug: "aisha-bello" })
    await setAvailable("aisha-bello", false)
    // Sweeps come and go (every 50 ms): the offer stays.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const accepted = await exchange(env.server, (c) => c.acceptTask({ params: { reference } }), {
      token: await issuer.token({ sub: subject })
    })
    expect(accepted.status).toBe(200)
    expect(((await accepted.json()) as Json).state).toBe("accepted")
    await setAvailable("aisha-bello", true)
  })
})

describe("a sign-up awaiting approval", () => {
  it("is unknown to agents; its token is told it awaits approval; approved, it is listed and offered tasks", async () => {
    const { login } = await elsewhere.runPromise(
      Profiles.use((profiles) =>
        profiles.signUp(
          {
            email: "kofi.signup@example.com",
            password: "correct horse battery staple",
            profile: {
              name: "Kofi Mensah",
              discipline: "Pharmacy inspection",
              location: "Lagos, Nigeria",
              task_type: "physical",
              tags: ["pharmacy", "inspection"],
              capabilities: ["Pharmacy visits in Lagos"],
              returns: "Photos and a checklist.",
              boundary: null
            }
          },
          "203.0.113.30"
        )
      )
    )
    expect(login.participantSlug).toBe("kofi-mensah")

    // Agents: nobody by that slug.
    const unknown = await exchange(env.server, (c) => c.getParticipant({ params: { slug: "kofi-mensah" } }))
    expect(unknown.status).toBe(404)
    const listed: Json = await bodyOf((c) => c.listParticipants({ query: { q: "kofi" } }))
    expect(listed.data).toEqual([])
    const named = await preflight(nigeriaDraft({ participant_slug: "kofi-mensah" }))
    expect(named.issues.map((i: Json) => `${i.field}:${i.code}`)).toContain("participant_slug:not_found")

    // The person: signed in, but no participant of the marketplace yet.
    const token = await issuer.token({ sub: login.id })
    const reads: ReadonlyArray<(c: ApiClient) => Effect.Effect<unknown, unknown>> = [(c) => c.me(), (c) => c.myTasks()]
    for (const read of reads) {
      const error = await expectEnvelope(await exchange(env.server, read, { token }), 403, "forbidden")
      expect(error.message).toBe(
        "Your profile (kofi-mensah) awaits the marketplace operator's approval: until then you receive no offers and cannot act on tasks."
      )
      expect(error.hint).toContain("once the operator approves your profile")
    }
    const endpoint = `${env.server.url}/mcp/participant`
    const mcp = await postMcp(
      endpoint,
      initializeMessage(),
      bearer(await issuer.token({ sub: login.id, aud: endpoint }))
    )
    expect(mcp.status).toBe(403)
    expect(((await mcp.json()) as Json).error.message).toContain("awaits the marketplace operator's approval")

    await elsewhere.runPromise(Profiles.use((profiles) => profiles.approve("kofi-mensah")))
    const me = await exchange(env.server, (c) => c.me(), { token })
    expect(me.status).toBe(200)
    expect(((await me.json()) as Json).participant).toMatchObject({ slug: "kofi-mensah", name: "Kofi Mensah" })
    const offered = await settled(await submit(nigeriaDraft({ participant_slug: "kofi-mensah" })))
    expect(offered).toMatchObject({ state: "awaiting_participant", participant_slug: "kofi-mensah" })
    const mine: Json = await bodyOf((c) => c.myTasks(), token)
    expect(mine.data.map((t: Json) => t.reference)).toEqual([offered.reference])
  })
})
