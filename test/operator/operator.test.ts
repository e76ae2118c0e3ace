// The operator tool as an operator runs it (DECISIONS §6): `node scripts/operator.ts …` in its own
// process, configured by DATABASE_URL, next to a running server on the same database — what the
// tool writes, the API shows.
import { createHash, randomUUID } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { retiredKeyRetention } from "../../src/domain/signing_keys.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { Profiles } from "../../src/services/profiles.ts"
import { type ApiClient, asJsonObject, asPayload, exchange } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { sampleProfileEdit } from "../support/directory.ts"
import { runOperator } from "../support/operator.ts"
import { startServer, type TestServer, validDraft } from "../support/server.ts"
import { withServicesOn } from "../support/services.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let database: TestDatabase
let server: TestServer
let files: string

beforeAll(async () => {
  database = await freshDatabase()
  // Started first, so the database is migrated and seeded with the sample catalogue.
  server = await startServer({ database })
  files = mkdtempSync(join(tmpdir(), "tm-operator-"))
})
afterAll(async () => {
  await server?.close()
  await database?.drop()
  rmSync(files, { recursive: true, force: true })
})

/** Runs the tool with the server's configuration (and `settings`). */
const operatorWith = (settings: Record<string, string>, ...args: ReadonlyArray<string>) =>
  runOperator({ DATABASE_URL: database.url, PUBLIC_BASE_URL: server.url, ...settings }, ...args)

const operator = (...args: ReadonlyArray<string>) => operatorWith({}, ...args)

const participant = (slug: string, overrides: Record<string, unknown> = {}) => ({
  slug,
  ...sampleProfileEdit,
  ...overrides
})

const writeJson = (name: string, value: unknown) => {
  const file = join(files, name)
  writeFileSync(file, JSON.stringify(value))
  return file
}

/** A typed call's JSON body, as sent. */
const bodyOf = async <A, E>(run: (client: ApiClient) => Effect.Effect<A, E>): Promise<Json> =>
  (await exchange(server, run)).json()

const preflight = (draft: Record<string, unknown>): Promise<Json> =>
  bodyOf((c) => c.preflight({ payload: asJsonObject(draft) }))

/** Submits a task offered to a named sample participant, and waits until the offer is made. */
const offeredTask = async (): Promise<string> => {
  const response = await exchange(server, (c) =>
    c.createTask({
      payload: asPayload(TaskDraft, validDraft({ participant_slug: "ahmed-hassan", location: "Cairo, Egypt" })),
      headers: { "idempotency-key": randomUUID() }
    })
  )
  const created: Json = await response.json()
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${JSON.stringify(created)}`)
  for (let i = 0; i < 20; i++) {
    const task: Json = await bodyOf((c) =>
      c.getTask({ params: { reference: created.reference }, query: { wait: i === 0 ? 0 : 5 }, headers: {} })
    )
    if (task.state === "awaiting_participant") return created.reference
  }
  throw new Error(`task ${created.reference} was never offered`)
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url")

/** The one-time links of a login that still work, as stored (a replaced one is kept, marked, to say so). */
const linksOf = async (loginId: string) =>
  (
    await database.rows(
      `SELECT token_hash, purpose FROM login_links WHERE login_id = '${loginId}' AND replaced_at IS NULL`
    )
  ).map((r) => ({ ...r }))

/** Changes rows behind the services' back (what no command can do yet: choose a password). */
const write = (statement: string) => database.write(statement)

const readTask = (reference: string): Promise<Json> =>
  bodyOf((c) => c.getTask({ params: { reference }, query: {}, headers: {} }))

// One at a time: each run is a Node process loading the services (~1 s of CPU), and running them
// side by side only makes each slower.
describe("operator tool", () => {
  it("help prints every command with an example, and exits 0", async ({ expect }) => {
    for (const help of [["help"], ["--help"], ["tasks", "--help"]]) {
      const run = await operator(...help)
      expect(run.code).toBe(0)
      expect(run.stderr).toBe("")
      for (const command of [
        "participants import",
        "participants link",
        "participants invite <slug> --email <address>",
        "participants reset <slug>",
        "participants pending",
        "participants approve <slug>",
        "tasks show",
        "tasks cancel",
        "keys rotate",
        "keys list",
        "help"
      ]) {
        expect(run.stdout).toContain(command)
      }
      expect(run.stdout.match(/e\.g\. npm run operator -- /g)).toHaveLength(10)
    }
  })

  it("no command or an unknown one prints the usage and exits 2", async ({ expect }) => {
    const none = await operator()
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/no command given/)
    expect(none.stdout).toContain("Usage:")

    const unknown = await operator("participants", "remove", "x")
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown command "participants remove"')
    expect(unknown.stdout).toContain("Usage:")
  })

  it("participants import adds the file's participants, served by the API at once", async ({ expect }) => {
    const file = writeJson("good.json", [
      participant("operator-import-one", { discipline: "Operator import check" }),
      participant("operator-import-two", {
        name: "Jonas Weber",
        discipline: "Operator import check",
        task_type: "digital",
        boundary: "Weekdays only."
      })
    ])
    const run = await operator("participants", "import", file)
    expect(run).toMatchObject({ code: 0, stderr: "" })
    expect(run.stdout.trim()).toBe(`imported 2 participants from ${file}`)

    const listed: Json = await bodyOf((c) => c.listParticipants({ query: { q: "operator import check" } }))
    expect(listed.data.map((p: Json) => p.slug)).toEqual(["operator-import-one", "operator-import-two"])
    const read: Json = await bodyOf((c) => c.getParticipant({ params: { slug: "operator-import-two" } }))
    expect(read).toMatchObject({ object: "participant", name: "Jonas Weber", task_type: "digital" })
    expect(read.boundary).toBe("Weekdays only.")
    const rows = await database.rows(
      "SELECT slug FROM participants WHERE slug IN ('operator-import-one', 'operator-import-two') ORDER BY slug"
    )
    expect(rows.map((r) => r.slug)).toEqual(["operator-import-one", "operator-import-two"])
  })

  it("an import by the operator's process reaches the running server's matching at once", async ({ expect }) => {
    // The server matches from an in-memory copy of the directory: read it once before the import,
    // so a copy that missed the other process's write would show here.
    const draft = validDraft({
      participant_slug: "operator-matching-check",
      execution_mode: "digital",
      location: undefined,
      action: "Proofread our product page and list every typo"
    })
    const before: Json = await preflight(draft)
    expect(before.issues.map((i: Json) => `${i.field}:${i.code}`)).toContain("participant_slug:not_found")
    expect(before.feasibility.sample).not.toContain("operator-matching-check")

    const run = await operator(
      "participants",
      "import",
      writeJson("matching.json", [participant("operator-matching-check", { task_type: "digital" })])
    )
    expect(run).toMatchObject({ code: 0, stderr: "" })

    const after: Json = await preflight(draft)
    expect(after.feasibility).toEqual({ eligible_participants: 1, sample: ["operator-matching-check"] })
  })

  it("a bad file is refused naming the file, the record and the field; nothing is imported", async ({ expect }) => {
    const file = writeJson("bad.json", [
      participant("operator-rejected-one"),
      participant("operator-rejected-two", { task_type: "remote" })
    ])
    const run = await operator("participants", "import", file)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr.trim().split("\n")).toHaveLength(1)
    expect(run.stderr).toContain(file)
    expect(run.stderr).toContain('record 2 ("operator-rejected-two"), task_type')
    expect(run.stderr).toContain('got "remote"')
    expect(await database.rows("SELECT slug FROM participants WHERE slug LIKE 'operator-rejected%'")).toEqual([])

    const slug = await operator("participants", "import", writeJson("slug.json", [participant("Not A Slug")]))
    expect(slug.code).toBe(1)
    expect(slug.stderr).toMatch(/record 1 \("Not A Slug"\), slug: expected lower-case/)

    const missing = await operator("participants", "import", join(files, "absent.json"))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("absent.json: cannot be read: no such file")
  })

  it("a refused setting stops the tool with one line naming the variable, never its value", async ({ expect }) => {
    const run = await operatorWith({ REDIS_URL: "http://user:s3cret@cache:6379" }, "tasks", "show", "tsk_none")
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: Invalid configuration: REDIS_URL: expected redis://host:port or rediss://…\n"
    })
  })

  it("participants link links an OAuth subject to a participant", async ({ expect }) => {
    const subject = `auth0|${randomUUID()}`
    const run = await operator("participants", "link", "aisha-bello", subject)
    expect(run).toMatchObject({ code: 0, stderr: "" })
    expect(run.stdout).toContain("aisha-bello")
    const rows = await database.rows(
      `SELECT participant_slug FROM participant_accounts WHERE subject = '${subject.replace(/'/g, "''")}'`
    )
    expect(rows.map((r) => r.participant_slug)).toEqual(["aisha-bello"])
  })

  it("linking to an unknown participant fails and links nothing", async ({ expect }) => {
    const subject = `auth0|${randomUUID()}`
    const run = await operator("participants", "link", "nobody-by-that-slug", subject)
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe("error: no participant nobody-by-that-slug")
    expect(await database.rows(`SELECT * FROM participant_accounts WHERE subject = '${subject}'`)).toEqual([])
  })

  it("participants invite prints a one-time link, the URL alone on the first line; the login is the participant's subject", async ({
    expect
  }) => {
    const run = await operator("participants", "invite", "akiko-tanaka", "--email", " Akiko.Tanaka@Example.com ")
    expect(run).toMatchObject({ code: 0, stderr: "" })
    const [url, about, mail, ...rest] = run.stdout.split("\n")
    expect(rest).toEqual([""])
    // Without SMTP_URL no mail is queued, and the operator is told to hand the link over.
    expect(mail).toBe("mail is off (SMTP_URL is unset): hand the link over yourself")
    expect(await database.count("mail_outbox")).toBe(0)
    expect(url).toMatch(new RegExp(`^${server.url}/oauth/password\\?token=[A-Za-z0-9_-]{43}$`))
    expect(about).toMatch(
      /^one-time link to choose a password for participant akiko-tanaka \(Akiko\.Tanaka@Example\.com\); usable once, until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
    )
    const until = Date.parse(about?.split("until ")[1] ?? "")
    expect(until - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 120_000)
    expect(until - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600_000)

    const [login] = await database.rows(
      "SELECT id, email, email_key, password_hash FROM participant_logins WHERE participant_slug = 'akiko-tanaka'"
    )
    expect(login).toMatchObject({ email: "Akiko.Tanaka@Example.com", email_key: "akiko.tanaka@example.com" })
    expect(login?.password_hash).toBeNull()
    expect(String(login?.id)).toMatch(/^acct_[A-Za-z0-9_-]{22}$/)
    const accounts = await database.rows(
      `SELECT participant_slug FROM participant_accounts WHERE subject = '${login?.id}'`
    )
    expect(accounts.map((r) => r.participant_slug)).toEqual(["akiko-tanaka"])
    const token = new URL(url ?? "").searchParams.get("token") ?? ""
    expect(await linksOf(String(login?.id))).toEqual([{ token_hash: sha256(token), purpose: "invite" }])

    // Invited again before choosing a password: the same login, a new link, the first one replaced.
    const again = await operator("participants", "invite", "akiko-tanaka", "--email=akiko@example.com")
    expect(again).toMatchObject({ code: 0, stderr: "" })
    const second = new URL(again.stdout.split("\n")[0] ?? "").searchParams.get("token") ?? ""
    expect(second).not.toBe(token)
    expect(await linksOf(String(login?.id))).toEqual([{ token_hash: sha256(second), purpose: "invite" }])
  })

  it("links lead to the address the server recorded when this shell sets no PUBLIC_BASE_URL", async ({ expect }) => {
    // The server (started by this file with its own address) recorded it; this shell says nothing of it.
    const run = await runOperator(
      { DATABASE_URL: database.url, PORT: "1" },
      "participants",
      "invite",
      "aroha-parata",
      "--email",
      "aroha@example.com"
    )
    expect(run).toMatchObject({ code: 0, stderr: "" })
    expect(run.stdout.split("\n")[0]).toMatch(new RegExp(`^${server.url}/oauth/password\\?token=[A-Za-z0-9_-]{43}$`))
    // Set here, it wins: the operator may mean another address on purpose.
    const elsewhere = await runOperator(
      { DATABASE_URL: database.url, PUBLIC_BASE_URL: "https://tasks.example.org" },
      "participants",
      "reset",
      "aroha-parata"
    )
    expect(elsewhere.stdout).toMatch(/^https:\/\/tasks\.example\.org\/oauth\/password\?token=/)
  })

  it("participants invite refuses with one line: unknown participant, invalid or taken address, a chosen password", async ({
    expect
  }) => {
    const failing = async (args: ReadonlyArray<string>, message: string) => {
      const run = await operator("participants", "invite", ...args)
      expect(run).toEqual({ code: 1, stdout: "", stderr: `error: ${message}\n` })
    }
    await failing(["nobody-by-that-slug", "--email", "someone@example.com"], "no participant nobody-by-that-slug")
    await failing(
      ["camille-tremblay", "--email", "camille@"],
      '"camille@" cannot be a login\'s address. Enter an email address such as name@example.com.'
    )
    expect(
      await operator("participants", "invite", "camille-tremblay", "--email", "camille@example.com")
    ).toMatchObject({
      code: 0
    })
    await failing(
      ["chen-wei", "--email", "CAMILLE@example.com"],
      "CAMILLE@example.com is already the login of participant camille-tremblay"
    )
    await write(
      "UPDATE participant_logins SET password_hash = 'scrypt$x', password_changed_at = '2026-11-27T10:00:00.000Z' WHERE participant_slug = 'camille-tremblay'"
    )
    await failing(
      ["camille-tremblay", "--email", "camille@example.com"],
      "participant camille-tremblay has already chosen a password; send a reset link instead: npm run operator -- participants reset camille-tremblay"
    )
    expect(await database.rows("SELECT id FROM participant_logins WHERE participant_slug = 'chen-wei'")).toEqual([])

    const missing = await operator("participants", "invite", "chen-wei")
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("participants invite needs --email <address>")
    expect(missing.stdout).toContain("Usage:")
  })

  it("participants reset prints a one-hour link for the login; without a login it says to invite", async ({
    expect
  }) => {
    const none = await operator("participants", "reset", "chidinma-eze")
    expect(none).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "error: participant chidinma-eze has no login yet; invite them first: npm run operator -- participants invite chidinma-eze --email <address>\n"
    })
    const unknown = await operator("participants", "reset", "nobody-by-that-slug")
    expect(unknown).toMatchObject({ code: 1, stderr: "error: no participant nobody-by-that-slug\n" })

    expect(await operator("participants", "invite", "chidinma-eze", "--email", "chidinma@example.com")).toMatchObject({
      code: 0
    })
    const run = await operator("participants", "reset", "chidinma-eze")
    expect(run).toMatchObject({ code: 0, stderr: "" })
    const [url, about] = run.stdout.split("\n")
    expect(about).toMatch(
      /^one-time link to choose a new password for participant chidinma-eze \(chidinma@example\.com\); usable once, until /
    )
    const until = Date.parse(about?.split("until ")[1] ?? "")
    expect(until - Date.now()).toBeGreaterThan(3600_000 - 120_000)
    expect(until - Date.now()).toBeLessThanOrEqual(3600_000)
    const [login] = await database.rows("SELECT id FROM participant_logins WHERE participant_slug = 'chidinma-eze'")
    const token = new URL(url ?? "").searchParams.get("token") ?? ""
    // The reset link replaced the invitation's.
    expect(await linksOf(String(login?.id))).toEqual([{ token_hash: sha256(token), purpose: "reset" }])
  })

  it("participants pending lists the sign-ups awaiting approval; approve lists one, and offers follow", async ({
    expect
  }) => {
    expect(await operator("participants", "pending")).toEqual({
      code: 0,
      stdout: "no sign-up awaits approval\n",
      stderr: ""
    })
    const signUp = (email: string, name: string) =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        return yield* profiles.signUp(
          {
            email,
            password: "correct horse battery staple",
            profile: { ...participant("unused"), name, discipline: "Sign-up check", task_type: "digital" }
          },
          "203.0.113.20"
        )
      })
    await withServicesOn(database, signUp("ines.signup@example.com", "Inès Moreau"))
    await withServicesOn(database, signUp("omer.signup@example.com", "Ömer Kaya"))
    const listed = await operator("participants", "pending")
    expect(listed).toMatchObject({ code: 0, stderr: "" })
    const lines = listed.stdout.trim().split("\n")
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(
      /^ines-moreau {2}"Inès Moreau" {2}ines\.signup@example\.com {2}signed up \d{4}-\d{2}-\d{2}T[\d:.]+Z$/
    )
    expect(lines[1]).toMatch(/^omer-kaya {2}"Ömer Kaya" {2}omer\.signup@example\.com {2}signed up /)

    // Pending: unknown to the API, so no task can name them.
    const draft = validDraft({
      participant_slug: "ines-moreau",
      execution_mode: "digital",
      location: undefined,
      action: "Sign-up check of our product page"
    })
    expect((await exchange(server, (c) => c.getParticipant({ params: { slug: "ines-moreau" } }))).status).toBe(404)
    const before: Json = await preflight(draft)
    expect(before.issues.map((i: Json) => `${i.field}:${i.code}`)).toContain("participant_slug:not_found")

    expect(await operator("participants", "approve", "ines-moreau")).toEqual({
      code: 0,
      stdout: 'approved ines-moreau ("Inès Moreau"): listed, and offered tasks from now on\n',
      stderr: ""
    })
    const read: Json = await bodyOf((c) => c.getParticipant({ params: { slug: "ines-moreau" } }))
    expect(read).toMatchObject({ object: "participant", slug: "ines-moreau", name: "Inès Moreau" })
    const after: Json = await preflight(draft)
    expect(after.issues).toEqual([])
    expect(after.feasibility).toEqual({ eligible_participants: 1, sample: ["ines-moreau"] })
    expect((await operator("participants", "pending")).stdout).not.toContain("ines-moreau")

    expect(await operator("participants", "approve", "ines-moreau")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: participant ines-moreau is already listed in the directory\n"
    })
    expect(await operator("participants", "approve", "nobody-by-that-slug")).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "error: no participant or sign-up awaiting approval has the slug nobody-by-that-slug; npm run operator -- participants pending lists the sign-ups awaiting approval\n"
    })
    const usage = await operator("participants", "approve")
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("participants approve needs <slug>")
  })

  it("tasks show prints the task exactly as the API reads it", async ({ expect }) => {
    const reference = await offeredTask()
    const run = await operator("tasks", "show", reference)
    expect(run).toMatchObject({ code: 0, stderr: "" })
    expect(run.stdout).toContain('\n  "reference": ')
    expect(JSON.parse(run.stdout)).toEqual(await readTask(reference))

    const unknown = await operator("tasks", "show", "tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa")
    expect(unknown.code).toBe(1)
    expect(unknown.stdout).toBe("")
    expect(unknown.stderr.trim()).toBe("error: no task tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa")
  })

  it("tasks cancel cancels as the operator, and a second cancel names the state", async ({ expect }) => {
    const reference = await offeredTask()
    const run = await operator("tasks", "cancel", reference, "--reason", "duplicate of another task")
    expect(run).toMatchObject({ code: 0, stderr: "" })
    expect(run.stdout).toContain(`${reference} is now cancelled`)

    const task = await readTask(reference)
    expect(task.state).toBe("cancelled")
    expect(task.outcome).toMatchObject({ state: "cancelled", reason: "cancelled_by_operator" })
    expect(task.history.at(-1)).toMatchObject({ from: "awaiting_participant", to: "cancelled", actor: "operator" })
    expect(JSON.stringify(task.history.at(-1))).toContain("duplicate of another task")

    const again = await operator("tasks", "cancel", reference, "--reason=still a duplicate")
    expect(again.code).toBe(1)
    expect(again.stderr.trim().split("\n")).toHaveLength(1)
    expect(again.stderr).toContain(`cannot cancel ${reference}: the task is cancelled`)
    expect(again.stderr).toContain("cancelled is a terminal state")
    expect((await readTask(reference)).history).toEqual(task.history)
  })

  it("tasks cancel without --reason is a usage error that changes nothing", async ({ expect }) => {
    const run = await operator("tasks", "cancel", "tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa")
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("--reason")
    expect(run.stdout).toContain("Usage:")
  })
  it("keys rotate makes a key that signs from now on; the old one stays published, and keys list says until when", async ({
    expect
  }) => {
    const inUse = async () =>
      (await database.rows("SELECT kid FROM oauth_signing_keys WHERE retired_at IS NULL")).map((r) => String(r.kid))
    // The server made the first key when it started.
    const [old] = await inUse()
    const before = await operator("keys", "list")
    expect(before).toMatchObject({ code: 0, stderr: "" })
    expect(before.stdout).toMatch(new RegExp(`^${old}  created \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  signs\n$`))

    const run = await operator("keys", "rotate")
    expect(run).toMatchObject({ code: 0, stderr: "" })
    const [line, ...rest] = run.stdout.split("\n")
    expect(rest).toEqual([""])
    const [, kid, until] =
      /^signing key ([A-Za-z0-9_-]{16}) signs from now on; retired (?:\S+), published until (\S+)$/.exec(line ?? "") ??
      []
    expect(line).toBe(`signing key ${kid} signs from now on; retired ${old}, published until ${until}`)
    expect(Date.parse(until ?? "") - Date.now()).toBeGreaterThan(retiredKeyRetention - 120_000)
    expect(Date.parse(until ?? "") - Date.now()).toBeLessThanOrEqual(retiredKeyRetention)
    expect(await inUse()).toEqual([kid])

    // The new key first (it signs), the old one still published: as the server reads them.
    const listed = await operator("keys", "list")
    expect(listed).toMatchObject({ code: 0, stderr: "" })
    const lines = listed.stdout.split("\n")
    // Exactly these lines: no key material.
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(new RegExp(`^${kid}  created \\S+  signs$`))
    expect(lines[1]).toMatch(new RegExp(`^${old}  created \\S+  retired \\S+, published until ${until}$`))

    const jwks: Json = await (await fetch(`${server.url}/oauth/jwks`)).json()
    const published = jwks.keys.map((key: Json) => key.kid)
    expect(published).toContain(old)
    for (const key of jwks.keys)
      for (const member of ["d", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(member)

    const extra = await operator("keys", "rotate", "now")
    expect(extra.code).toBe(2)
    expect(extra.stderr).toContain('keys rotate takes no arguments; unexpected "now"')
    expect(await inUse()).toEqual([kid])
  })

  it("keys rotate on a database with no key yet leaves exactly one key in use", async ({ expect }) => {
    const empty = await freshDatabase()
    try {
      const onEmpty = (...args: ReadonlyArray<string>) => operatorWith({ DATABASE_URL: empty.url }, ...args)
      expect(await onEmpty("keys", "list")).toEqual({
        code: 0,
        stdout: "no signing key yet (the server makes one when it starts)\n",
        stderr: ""
      })
      const run = await onEmpty("keys", "rotate")
      expect(run).toMatchObject({ code: 0, stderr: "" })
      const kid = /^signing key (\S+) signs from now on; there was no key to retire\n$/.exec(run.stdout)?.[1]
      expect(kid).toBeDefined()
      const rows = await empty.rows("SELECT kid, retired_at FROM oauth_signing_keys")
      expect(rows.map((r) => ({ ...r }))).toEqual([{ kid, retired_at: null }])
      // A server starting on it signs with that key: it makes none of its own.
      const started = await startServer({ database: empty })
      await started.close()
      expect((await empty.rows("SELECT kid FROM oauth_signing_keys")).map((r) => r.kid)).toEqual([kid])
      expect((await onEmpty("keys", "list")).stdout).toMatch(new RegExp(`^${kid}  created \\S+  signs\n$`))
    } finally {
      await empty.drop()
    }
  })
})
