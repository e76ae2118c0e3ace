/**
 * Mail across real processes and a real SMTP server (smtp-server, started here): the operator's
 * commands queue mails in the database, and the servers on it send them — each once, with its
 * link working, through an SMTP server that refuses or is down for a while, after a SIGKILL, and
 * with two servers claiming from one outbox. Nothing secret reaches a log line.
 * Runs in both vitest projects: on SQLite the processes share one WAL file, on Postgres one database.
 */
import { afterAll, describe, expect, it } from "vitest"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { runOperator } from "../support/operator.ts"
import { call, freePort, type ServiceProcess, spawnService } from "../support/process.ts"
import { linksOf, mailsArrived, type ReceivedMail, type SmtpSink, startSmtpSink } from "../support/smtp.ts"

const started: Array<ServiceProcess> = []
const databases: Array<TestDatabase> = []
const sinks: Array<SmtpSink> = []

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop("SIGKILL")))
  for (const sink of sinks) await sink.close()
  for (const database of databases) await database.drop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const slugs = ["ahmed-hassan", "aisha-bello", "akiko-tanaka", "alejandro-ruiz", "amara-okafor", "ana-popescu"]
const addressOf = (slug: string) => `${slug}@example.org`

interface Setup {
  readonly database: TestDatabase
  readonly sink: SmtpSink
  /** The environment of every process: the servers' and the operator's. */
  readonly env: Record<string, string>
  readonly base: string
}

const setUp = async (extra: Record<string, string> = {}): Promise<Setup> => {
  const database = await freshDatabase()
  databases.push(database)
  const sink = await startSmtpSink()
  sinks.push(sink)
  // One public address for every process: the links name it, whichever process made them.
  const base = `http://127.0.0.1:${await freePort()}`
  const env = {
    DATABASE_URL: database.url,
    PUBLIC_BASE_URL: base,
    SMTP_URL: sink.url,
    MAIL_FROM: "Task marketplace <noreply@market.example>",
    MAIL_RETRY_SCHEDULE: "200ms,200ms,300ms,500ms,500ms,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s",
    TIMER_SWEEP_INTERVAL: "200ms",
    ...extra
  }
  return { database, sink, env, base }
}

const start = async (setup: Setup, port?: number) => {
  const service = await spawnService({
    databaseUrl: setup.database.url,
    env: setup.env,
    ...(port === undefined ? {} : { port })
  })
  started.push(service)
  return service
}

/** `participants invite` as the operator runs it: the link it prints. */
const invite = async (setup: Setup, slug: string) => {
  const run = await runOperator(setup.env, "participants", "invite", slug, "--email", addressOf(slug))
  expect(run, run.stderr).toMatchObject({ code: 0 })
  const [link, , mailed] = run.stdout.split("\n")
  expect(mailed).toBe("a mail with the link is queued; a running server sends it")
  return link!
}

interface OutboxRow {
  readonly messageId: string
  readonly state: string
  readonly attempts: number
  readonly claim: string | null
  readonly content: string | null
  readonly recipient: string
  readonly kind: string
  readonly lastError: string | null
}

const outbox = async (database: TestDatabase): Promise<Array<OutboxRow>> =>
  (
    await database.rows(
      "SELECT message_id, state, attempts, claim, content, recipient, kind, last_error FROM mail_outbox ORDER BY created_at, id"
    )
  ).map((row) => ({
    messageId: String(row.message_id),
    state: String(row.state),
    attempts: Number(row.attempts),
    claim: row.claim === null ? null : String(row.claim),
    content: row.content === null ? null : String(row.content),
    recipient: String(row.recipient),
    kind: String(row.kind),
    lastError: row.last_error === null ? null : String(row.last_error)
  }))

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await sleep(50)
  }
}

/** Each recipient got exactly one mail, and no Message-ID arrived twice. */
const oncePerRecipient = (mails: ReadonlyArray<ReceivedMail>, recipients: ReadonlyArray<string>) => {
  expect(mails.map((mail) => mail.to.join(",")).sort()).toEqual([...recipients].sort())
  const ids = mails.map((mail) => mail.parsed.messageId)
  expect(new Set(ids).size).toBe(ids.length)
}

/** What no log line may hold: the SMTP password, the links' tokens, the addresses. */
const expectNothingSecretIn = (output: string, setup: Setup, links: ReadonlyArray<string>) => {
  expect(output).not.toContain(setup.sink.password)
  for (const link of links) expect(output).not.toContain(new URL(link).searchParams.get("token")!)
  for (const slug of slugs) expect(output).not.toContain(addressOf(slug))
}

describe("mail across processes, through a real SMTP server", { timeout: 90_000 }, () => {
  it("an invitation and a reset each arrive once, from MAIL_FROM, with the printed link, which works; sent, the content is erased", async () => {
    const setup = await setUp()
    const server = await start(setup, Number(new URL(setup.base).port))
    const link = await invite(setup, "akiko-tanaka")
    const [invitation] = await mailsArrived(setup.sink, 1, 15_000, "the invitation")
    expect(invitation!.to).toEqual([addressOf("akiko-tanaka")])
    expect(invitation!.user).toBe("mailer")
    expect(invitation!.parsed.from?.text).toBe('"Task marketplace" <noreply@market.example>')
    expect(invitation!.parsed.subject).toBe("You are invited to the task marketplace")
    expect(invitation!.parsed.messageId).toMatch(/^<[A-Za-z0-9_-]+@market\.example>$/)
    // The printed link, in the plain text and the HTML; nothing else links anywhere but the public address.
    expect(linksOf(invitation!)).toEqual([link])
    expect(invitation!.parsed.html).toContain(`href="${link.replaceAll("&", "&amp;")}"`)
    expect(invitation!.parsed.headers.has("list-unsubscribe")).toBe(false)
    expect(link.startsWith(`${setup.base}/oauth/password?token=`)).toBe(true)
    const page = await call(link)
    expect(page.status).toBe(200)
    expect(page.text).toContain("password")

    const reset = await runOperator(setup.env, "participants", "reset", "akiko-tanaka")
    expect(reset.code).toBe(0)
    const resetLink = reset.stdout.split("\n")[0]!
    const mails = await mailsArrived(setup.sink, 2, 15_000, "the reset")
    expect(mails[1]!.parsed.subject).toBe("Choose a new password")
    expect(linksOf(mails[1]!)).toEqual([resetLink])
    expect((await call(resetLink)).status).toBe(200)

    await until("both marked sent", async () => (await outbox(setup.database)).every((row) => row.state === "sent"))
    const rows = await outbox(setup.database)
    expect(rows.map((row) => [row.kind, row.state, row.attempts, row.content])).toEqual([
      ["invitation", "sent", 1, null],
      ["password_reset", "sent", 1, null]
    ])
    expect(rows.map((row) => row.messageId)).toEqual(mails.map((mail) => mail.parsed.messageId))
    await sleep(500)
    expect(setup.sink.mails).toHaveLength(2)
    expectNothingSecretIn(server.output(), setup, [link, resetLink])
  })

  it("an SMTP server that refuses, then one that is down, then up again: every mail arrives once, with the Message-ID it was given", async () => {
    const setup = await setUp()
    const server = await start(setup)
    setup.sink.refusing = true
    const links = [await invite(setup, slugs[0]!), await invite(setup, slugs[1]!)]
    await until("refused twice each", async () => setup.sink.tries() >= 4)
    expect(setup.sink.mails).toHaveLength(0)
    // Why, in words that name neither the address nor the server's text.
    await until("the refusal recorded", async () =>
      (await outbox(setup.database)).every(
        (row) => row.lastError === "the SMTP server answered 451 to MAIL (EENVELOPE)"
      )
    )
    await setup.sink.down()
    links.push(await invite(setup, slugs[2]!))
    await until("attempted while down", async () =>
      (await outbox(setup.database)).every((row) => row.attempts >= 1 && row.state === "pending")
    )
    const before = await outbox(setup.database)
    expect(before.every((row) => row.content !== null)).toBe(true)
    expect(before[2]!.lastError).toMatch(/^the SMTP server could not be reached \(E[A-Z]+\)$/)
    setup.sink.refusing = false
    await setup.sink.up()
    const mails = await mailsArrived(setup.sink, 3, 20_000)
    oncePerRecipient(mails, slugs.slice(0, 3).map(addressOf))
    expect(mails.map((mail) => mail.parsed.messageId).sort()).toEqual(before.map((row) => row.messageId).sort())
    await until("all sent", async () => (await outbox(setup.database)).every((row) => row.state === "sent"))
    expect((await outbox(setup.database)).every((row) => row.attempts >= 2)).toBe(true)
    await sleep(600)
    expect(setup.sink.mails).toHaveLength(3)
    expectNothingSecretIn(server.output(), setup, links)
  })

  it("a server killed with SIGKILL while mails wait loses none: the next server sends each once", async () => {
    // Retries spread over about 40 s: the operator's runs take seconds each on a busy machine.
    const setup = await setUp({ MAIL_RETRY_SCHEDULE: ["200ms", "500ms", "1s", ...Array(17).fill("2s")].join(",") })
    await setup.sink.down()
    const first = await start(setup)
    for (const slug of slugs.slice(0, 3)) await invite(setup, slug)
    // Each tried and failed at least once, none held by a claim: the mails are the database's alone.
    await until("attempted, released", async () =>
      (await outbox(setup.database)).every((row) => row.attempts >= 1 && row.claim === null)
    )
    const pending = await outbox(setup.database)
    expect(pending.every((row) => row.state === "pending")).toBe(true)
    expect((await first.stop("SIGKILL")).signal).toBe("SIGKILL")
    await setup.sink.up()
    await start(setup)
    const mails = await mailsArrived(setup.sink, 3, 20_000)
    oncePerRecipient(mails, slugs.slice(0, 3).map(addressOf))
    expect(mails.map((mail) => mail.parsed.messageId).sort()).toEqual(pending.map((row) => row.messageId).sort())
    await sleep(600)
    expect(setup.sink.mails).toHaveLength(3)
  })

  it("two servers on one outbox send each mail once", async () => {
    const setup = await setUp()
    await start(setup)
    await start(setup)
    for (const slug of slugs) await invite(setup, slug)
    const mails = await mailsArrived(setup.sink, slugs.length, 20_000)
    await sleep(1000)
    expect(setup.sink.mails).toHaveLength(slugs.length)
    oncePerRecipient(mails, slugs.map(addressOf))
    expect((await outbox(setup.database)).every((row) => row.state === "sent" && row.attempts === 1)).toBe(true)
  })

  it("without SMTP_URL nothing is queued or sent, said once at start-up; the link is still printed", async () => {
    const database = await freshDatabase()
    databases.push(database)
    const server = await spawnService({ databaseUrl: database.url, env: { LOG_LEVEL: "Info" } })
    started.push(server)
    const run = await runOperator(
      { DATABASE_URL: database.url },
      "participants",
      "invite",
      "akiko-tanaka",
      "--email",
      "a@example.org"
    )
    expect(run.code).toBe(0)
    expect(run.stdout.split("\n")[0]).toMatch(/\/oauth\/password\?token=/)
    expect(run.stdout).toContain("mail is off (SMTP_URL is unset): hand the link over yourself")
    expect(await database.count("mail_outbox")).toBe(0)
    await sleep(300)
    expect(server.output().match(/mail is off/g)).toHaveLength(1)
  })
})
