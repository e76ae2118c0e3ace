// Who may drive a transition (DECISIONS §6): every refusal answers the right status and envelope
// (401 with WWW-Authenticate naming the protected-resource metadata, 403 for the wrong party),
// never a 5xx, never echoes the credential, and changes nothing. Runs on SQLite and on Postgres.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { SignJWT } from "jose"
import type { AppSettings } from "../../src/config/settings.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, exchange } from "../support/api_client.ts"
import {
  type KeyPair,
  linkAccount,
  makeKeyPair,
  startIssuer,
  type TestIssuer,
  testAudience,
  unsignedToken
} from "../support/issuer.ts"
import {
  awaitTask,
  expectEnvelope,
  json,
  type ServerOnDatabase,
  startOnFreshDatabase,
  validDraft
} from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

type Env = ServerOnDatabase

const now = () => Math.floor(Date.now() / 1000)

let issuer: TestIssuer
/** Another authorization server, with its own keys and identifier: the service does not trust it. */
let stranger: TestIssuer
/** An issuer that publishes its metadata only at the OpenID Connect address. */
let openidIssuer: TestIssuer
let foreignKey: KeyPair
const envs: Array<Env> = []
let main: Env
let noIssuer: Env
let openid: Env
/** Configured with an issuer that is not running: discovery fails. */
let unreachable: Env

const boot = async (settings: Partial<AppSettings>): Promise<Env> => {
  const env = await startOnFreshDatabase({
    settings: { oauthAudience: testAudience, timerSweepMs: 50, offerTimeoutMs: 60_000, ...settings }
  })
  envs.push(env)
  return env
}

/** Subjects linked on the main server's database. */
const lukasSubject = "user-lukas"
const emilySubject = "user-emily"
const unlinkedSubject = "user-nobody"

beforeAll(async () => {
  ;[issuer, stranger, openidIssuer, foreignKey] = await Promise.all([
    startIssuer(),
    startIssuer(),
    startIssuer({ metadata: "openid" }),
    makeKeyPair()
  ])
  const gone = await startIssuer()
  await gone.close()
  ;[main, noIssuer, openid, unreachable] = await Promise.all([
    boot({ oauthIssuer: issuer.url }),
    boot({}),
    boot({ oauthIssuer: openidIssuer.url }),
    boot({ oauthIssuer: gone.url })
  ])
  await linkAccount(main.database, lukasSubject, "lukas-schmidt")
  await linkAccount(main.database, emilySubject, "emily-hart")
  await linkAccount(noIssuer.database, lukasSubject, "lukas-schmidt")
  await linkAccount(openid.database, lukasSubject, "lukas-schmidt")
  await linkAccount(unreachable.database, lukasSubject, "lukas-schmidt")
})
afterAll(async () => {
  for (const env of envs) await env.close()
  await Promise.all([issuer?.close(), stranger?.close(), openidIssuer?.close()])
})

// --- helpers -----------------------------------------------------------------------------------

const create = async (env: Env, draft: Record<string, unknown>) => {
  const response = await exchange(env.server, (c) =>
    c.createTask({ payload: asPayload(TaskDraft, draft), headers: {} })
  )
  const text = await response.text()
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${text}`)
  const task: Json = JSON.parse(text)
  return { reference: task.reference as string, token: task.task_token as string }
}

const read = async (env: Env, reference: string): Promise<Json> => {
  const response = await exchange(env.server, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))
  expect(response.status).toBe(200)
  return response.json()
}

const waitForState = (env: Env, reference: string, state: string): Promise<Json> =>
  awaitTask(env.server.api(`/tasks/${reference}`), (task) => task.state === state, { timeoutMs: 10_000 })

/** The members that change with every move: a refusal must leave all of them as they were. */
const snapshot = (task: Json) => ({
  state: task.state,
  participant_slug: task.participant_slug,
  history: task.history.length,
  updated_at: task.updated_at,
  outcome: task.outcome,
  result: task.result
})

/** A named task offered to lukas-schmidt (awaiting_participant). */
const offeredToLukas = async (env: Env) => {
  const created = await create(env, validDraft({ participant_slug: "lukas-schmidt" }))
  await waitForState(env, created.reference, "awaiting_participant")
  return created
}

// Raw: the Authorization header as written (schemes, malformed and foreign credentials) is the subject.
const post = (env: Env, path: string, authorization?: string, body?: unknown) => {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization }
  return fetch(env.server.api(path), body === undefined ? { method: "POST", headers } : json(body, headers))
}
const get = (env: Env, path: string, authorization?: string) =>
  fetch(env.server.api(path), authorization === undefined ? {} : { headers: { authorization } })

/**
 * Asserts a refusal: status and envelope, WWW-Authenticate on 401, no credential echoed, and the
 * task (when given) unchanged.
 */
const refused = async (
  env: Env,
  response: Response,
  status: 401 | 403,
  code: "unauthorized" | "forbidden",
  check: { readonly secret?: string | undefined; readonly reference?: string; readonly before?: Json } = {}
) => {
  expect(response.status).toBeLessThan(500)
  const text = await response.clone().text()
  if (check.secret !== undefined && check.secret.length > 0) {
    expect(text).not.toContain(check.secret)
    for (const part of check.secret.split(".")) if (part.length >= 16) expect(text).not.toContain(part)
  }
  const error = await expectEnvelope(response, status, code)
  if (status === 401) {
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${env.server.url}/.well-known/oauth-protected-resource"`
    )
  }
  if (check.reference !== undefined) {
    expect(snapshot(await read(env, check.reference))).toEqual(check.before)
  }
  return error
}

// ==============================================================================================

describe("the agent's task token", () => {
  it("missing → 401 unauthorized with WWW-Authenticate; nothing changes", async () => {
    const { reference } = await offeredToLukas(main)
    const before = snapshot(await read(main, reference))
    await refused(main, await post(main, `/tasks/${reference}/cancel`), 401, "unauthorized", { reference, before })
    await refused(
      main,
      await post(main, `/tasks/${reference}/review`, undefined, { decision: "accept" }),
      401,
      "unauthorized",
      {
        reference,
        before
      }
    )
    for (const authorization of ["", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Token tt_abc", "bearer"]) {
      await refused(main, await post(main, `/tasks/${reference}/cancel`, authorization), 401, "unauthorized", {
        reference,
        before
      })
    }
  })

  it("another task's token, a made-up token, or a participant's access token → 401; nothing changes", async () => {
    const { reference } = await offeredToLukas(main)
    const other = await create(main, validDraft({ participant_slug: "lukas-schmidt" }))
    const before = snapshot(await read(main, reference))
    const lukasToken = await issuer.token({ sub: lukasSubject })
    for (const secret of [
      other.token,
      `tt_${"A".repeat(43)}`,
      other.token.slice(0, -1),
      lukasToken,
      `${other.token}x`,
      "x".repeat(8000)
    ]) {
      await refused(main, await post(main, `/tasks/${reference}/cancel`, `Bearer ${secret}`), 401, "unauthorized", {
        secret,
        reference,
        before
      })
      await refused(
        main,
        await post(main, `/tasks/${reference}/review`, `Bearer ${secret}`, { decision: "accept" }),
        401,
        "unauthorized",
        { secret, reference, before }
      )
    }
    // The other task's token still works on its own task (the refusals were about the pairing).
    const cancelled = await post(main, `/tasks/${other.reference}/cancel`, `Bearer ${other.token}`)
    expect(cancelled.status).toBe(200)
  })

  it("a wrong token is refused (401) before the body is judged; the right one then meets the body's 400", async () => {
    const { reference, token } = await offeredToLukas(main)
    const other = await create(main, validDraft({ participant_slug: "lukas-schmidt" }))
    const before = snapshot(await read(main, reference))
    for (const body of [{ decision: "maybe" }, { decision: "revise" }, {}]) {
      await refused(
        main,
        await post(main, `/tasks/${reference}/review`, `Bearer ${other.token}`, body),
        401,
        "unauthorized",
        {
          reference,
          before
        }
      )
      const invalid = await expectEnvelope(
        await post(main, `/tasks/${reference}/review`, `Bearer ${token}`, body),
        400,
        "invalid_request"
      )
      expect(invalid.details?.[0]?.field).toMatch(/^(decision|reason)$/)
    }
    await refused(
      main,
      await post(main, `/tasks/${reference}/cancel`, `Bearer ${other.token}`, { reason: 7 }),
      401,
      "unauthorized",
      {
        reference,
        before
      }
    )
    expect(snapshot(await read(main, reference))).toEqual(before)
  })

  it("the task token is not a participant credential: /me and accept answer 401", async () => {
    const { reference, token } = await offeredToLukas(main)
    const before = snapshot(await read(main, reference))
    await refused(main, await get(main, "/me", `Bearer ${token}`), 401, "unauthorized", { secret: token })
    await refused(main, await post(main, `/tasks/${reference}/accept`, `Bearer ${token}`), 401, "unauthorized", {
      secret: token,
      reference,
      before
    })
  })
})

describe("participants: the wrong party", () => {
  it("a linked participant the task is not offered to → 403 forbidden for every move; nothing changes", async () => {
    const { reference } = await offeredToLukas(main)
    const before = snapshot(await read(main, reference))
    const emily = `Bearer ${await issuer.token({ sub: emilySubject })}`
    const responses = {
      accept: await post(main, `/tasks/${reference}/accept`, emily),
      decline: await post(main, `/tasks/${reference}/decline`, emily),
      start: await post(main, `/tasks/${reference}/start`, emily),
      submit: await post(main, `/tasks/${reference}/submit`, emily, { summary: "done" })
    }
    // Nothing changed, whatever the answers.
    expect(snapshot(await read(main, reference))).toEqual(before)
    const statuses = Object.fromEntries(Object.entries(responses).map(([action, r]) => [action, r.status]))
    expect(statuses).toEqual({ accept: 403, decline: 403, start: 403, submit: 403 })
    for (const response of Object.values(responses)) {
      const error = await refused(main, response, 403, "forbidden", { reference, before })
      expect(error.message).toMatch(/not offered to|held by you/)
    }
    // Their own list does not show it.
    const mine: Json = await (await get(main, "/me/tasks", emily)).json()
    expect(mine.data.map((t: Json) => t.reference)).not.toContain(reference)
  })

  it("a task held by another participant (in_flight) → 403 forbidden for every move; nothing changes", async () => {
    const { reference } = await offeredToLukas(main)
    const lukas = `Bearer ${await issuer.token({ sub: lukasSubject })}`
    expect((await post(main, `/tasks/${reference}/accept`, lukas)).status).toBe(200)
    expect((await post(main, `/tasks/${reference}/start`, lukas)).status).toBe(200)
    const before = snapshot(await read(main, reference))
    expect(before.state).toBe("in_flight")
    const emily = `Bearer ${await issuer.token({ sub: emilySubject })}`
    const responses = {
      submit: await post(main, `/tasks/${reference}/submit`, emily, { summary: "I did it" }),
      // The wrong party is refused before their body is judged.
      submitWithoutSummary: await post(main, `/tasks/${reference}/submit`, emily, {}),
      accept: await post(main, `/tasks/${reference}/accept`, emily),
      decline: await post(main, `/tasks/${reference}/decline`, emily),
      start: await post(main, `/tasks/${reference}/start`, emily)
    }
    expect(snapshot(await read(main, reference))).toEqual(before)
    const statuses = Object.fromEntries(Object.entries(responses).map(([action, r]) => [action, r.status]))
    expect(statuses).toEqual({ submit: 403, submitWithoutSummary: 403, accept: 403, decline: 403, start: 403 })
    for (const response of Object.values(responses)) {
      await refused(main, response, 403, "forbidden", { reference, before })
    }
  })

  it("an unlinked subject → 403 forbidden on /me, /me/tasks and every move; nothing changes", async () => {
    const { reference } = await offeredToLukas(main)
    const before = snapshot(await read(main, reference))
    const token = await issuer.token({ sub: unlinkedSubject })
    const nobody = `Bearer ${token}`
    const me = await refused(main, await get(main, "/me", nobody), 403, "forbidden", { secret: token })
    expect(me.message).toMatch(/not linked/)
    await refused(main, await get(main, "/me/tasks", nobody), 403, "forbidden", { secret: token })
    for (const action of ["accept", "decline", "start"]) {
      await refused(main, await post(main, `/tasks/${reference}/${action}`, nobody), 403, "forbidden", {
        secret: token,
        reference,
        before
      })
    }
    await refused(main, await post(main, `/tasks/${reference}/submit`, nobody, { summary: "x" }), 403, "forbidden", {
      secret: token,
      reference,
      before
    })
  })
})

describe("participants: invalid access tokens → 401", () => {
  const badTokens: ReadonlyArray<readonly [string, () => Promise<string>]> = [
    ["expired", () => issuer.token({ sub: lukasSubject, iat: now() - 3600, exp: now() - 120 })],
    ["not yet valid (nbf)", () => issuer.token({ sub: lukasSubject, nbf: now() + 120 })],
    ["issued for another audience", () => issuer.token({ sub: lukasSubject, aud: "https://other.example/api" })],
    ["for another audience among several", () => issuer.token({ sub: lukasSubject, aud: ["a", "b"] })],
    ["naming another issuer (right key)", () => issuer.token({ sub: lukasSubject, iss: stranger.url })],
    ["from another issuer (its own key and iss)", () => stranger.token({ sub: lukasSubject })],
    ["from another issuer claiming ours", () => stranger.token({ sub: lukasSubject, iss: issuer.url })],
    [
      "signed by a foreign key under our kid",
      () => issuer.token({ sub: lukasSubject, key: foreignKey, kid: issuer.key.kid })
    ],
    ["signed by a foreign key, no kid", () => issuer.token({ sub: lukasSubject, key: foreignKey, kid: null })],
    ["unsigned (alg: none)", async () => unsignedToken(issuer, lukasSubject)],
    [
      "HS256 with a guessable secret",
      () =>
        new SignJWT({})
          .setProtectedHeader({ alg: "HS256" })
          .setSubject(lukasSubject)
          .setIssuer(issuer.url)
          .setAudience(testAudience)
          .setExpirationTime(now() + 600)
          .sign(new TextEncoder().encode("a-secret-of-at-least-32-bytes-long!!"))
    ],
    ["without a subject", () => issuer.token({ sub: null })],
    [
      "with a tampered payload (another subject)",
      async () => {
        const [header, , signature] = (await issuer.token({ sub: lukasSubject })).split(".")
        const payload = Buffer.from(
          JSON.stringify({ sub: emilySubject, iss: issuer.url, aud: testAudience, exp: now() + 600 })
        ).toString("base64url")
        return `${header}.${payload}.${signature}`
      }
    ],
    ["garbage", async () => "not-a-jwt"],
    ["three garbage segments", async () => "eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl"],
    ["very long", async () => `eyJ${"A".repeat(8000)}.eyJ.sig`]
  ]

  for (const [name, make] of badTokens) {
    it(`${name}: /me and accept refused; the offer is untouched`, async () => {
      const { reference } = await offeredToLukas(main)
      const before = snapshot(await read(main, reference))
      const token = await make()
      const authorization = `Bearer ${token}`
      await refused(main, await get(main, "/me", authorization), 401, "unauthorized", { secret: token })
      await refused(main, await get(main, "/me/tasks", authorization), 401, "unauthorized", { secret: token })
      await refused(main, await post(main, `/tasks/${reference}/accept`, authorization), 401, "unauthorized", {
        secret: token,
        reference,
        before
      })
      await refused(main, await post(main, `/tasks/${reference}/decline`, authorization), 401, "unauthorized", {
        secret: token,
        reference,
        before
      })
    })
  }

  it("a missing access token → 401 on /me, /me/tasks and every move", async () => {
    const { reference } = await offeredToLukas(main)
    const before = snapshot(await read(main, reference))
    await refused(main, await get(main, "/me"), 401, "unauthorized")
    await refused(main, await get(main, "/me/tasks"), 401, "unauthorized")
    for (const action of ["accept", "decline", "start"]) {
      await refused(main, await post(main, `/tasks/${reference}/${action}`), 401, "unauthorized", { reference, before })
    }
    await refused(
      main,
      await post(main, `/tasks/${reference}/submit`, undefined, { summary: "x" }),
      401,
      "unauthorized",
      {
        reference,
        before
      }
    )
  })

  it("the control: lukas's valid token is accepted (the refusals above were about the tokens)", async () => {
    const { reference } = await offeredToLukas(main)
    const authorization = `Bearer ${await issuer.token({ sub: lukasSubject })}`
    const me: Json = await (await get(main, "/me", authorization)).json()
    expect(me.participant.slug).toBe("lukas-schmidt")
    const response = await post(main, `/tasks/${reference}/accept`, authorization)
    expect(response.status).toBe(200)
    expect((await response.json()).state).toBe("accepted")
  })
})

describe("issuer configuration", () => {
  it("no issuer configured → 401 for every participant endpoint, even with a well-formed token", async () => {
    const { reference } = await offeredToLukas(noIssuer)
    const before = snapshot(await read(noIssuer, reference))
    const token = await issuer.token({ sub: lukasSubject })
    const authorization = `Bearer ${token}`
    await refused(noIssuer, await get(noIssuer, "/me", authorization), 401, "unauthorized", { secret: token })
    await refused(noIssuer, await get(noIssuer, "/me/tasks", authorization), 401, "unauthorized", { secret: token })
    await refused(noIssuer, await post(noIssuer, `/tasks/${reference}/accept`, authorization), 401, "unauthorized", {
      secret: token,
      reference,
      before
    })
  })

  it("an issuer that cannot be reached → 401 (never a 5xx), and nothing changes", async () => {
    const { reference } = await offeredToLukas(unreachable)
    const before = snapshot(await read(unreachable, reference))
    const token = await issuer.token({ sub: lukasSubject })
    for (let i = 0; i < 2; i++) {
      await refused(unreachable, await get(unreachable, "/me", `Bearer ${token}`), 401, "unauthorized", {
        secret: token
      })
      await refused(
        unreachable,
        await post(unreachable, `/tasks/${reference}/accept`, `Bearer ${token}`),
        401,
        "unauthorized",
        { secret: token, reference, before }
      )
    }
  })

  it("keys are discovered through /.well-known/openid-configuration when the OAuth metadata is absent", async () => {
    const { reference } = await offeredToLukas(openid)
    const authorization = `Bearer ${await openidIssuer.token({ sub: lukasSubject })}`
    const me = await get(openid, "/me", authorization)
    expect(me.status).toBe(200)
    expect((await me.json()).participant.slug).toBe("lukas-schmidt")
    expect(openidIssuer.hits["/.well-known/openid-configuration"]).toBeGreaterThanOrEqual(1)
    expect(openidIssuer.hits["/jwks.json"]).toBeGreaterThanOrEqual(1)
    // A token of the main issuer is not one of this issuer's.
    const before = snapshot(await read(openid, reference))
    const foreign = await issuer.token({ sub: lukasSubject })
    await refused(openid, await post(openid, `/tasks/${reference}/accept`, `Bearer ${foreign}`), 401, "unauthorized", {
      secret: foreign,
      reference,
      before
    })
  })
})
