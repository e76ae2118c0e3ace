/**
 * An agent's messages reach the participant by mail, gathered, end to end through a server and a
 * real SMTP server (smtp-server), on both backends, with the server's clock moved rather than
 * waited for: the first message after a quiet spell is mailed at once; later ones within ten
 * minutes of the last mail sent go together in one mail when the ten minutes are up; a quiet spell
 * later the next goes at once again. Each mail links the task's console page and carries a
 * one-click unsubscribe, and nothing else; the participant's own messages mail nobody; the kind
 * turned off mails nothing, nor a mail held when it was turned off. The agent writes over REST; the participant's side is another
 * process's services on the same database.
 */
import { Effect } from "effect"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ParticipantOperations } from "../../src/operations/participant.ts"
import { Logins } from "../../src/services/logins/service.ts"
import { MailOutbox } from "../../src/services/mail_outbox.ts"
import { MailPreferences } from "../../src/services/mail_preferences.ts"
import { type MovableClock, movableClock } from "../support/clock.ts"
import {
  awaitTask,
  digitalDraft,
  json,
  type ServerOnDatabase,
  startOnFreshDatabase,
  submitTask,
  type TestServer
} from "../support/server.ts"
import { otherProcessOn } from "../support/services.ts"
import { headerOf, linksOf, mailsArrived, type ReceivedMail, type SmtpSink, startSmtpSink } from "../support/smtp.ts"

const akiko = { slug: "akiko-tanaka", address: "akiko@example.org" }
const lukas = { slug: "lukas-schmidt", address: "lukas@example.org" }
const minutes = (n: number) => n * 60_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let sink: SmtpSink
let env: ServerOnDatabase
let server: TestServer
let clock: MovableClock
let other: ReturnType<typeof otherProcessOn>

beforeAll(async () => {
  sink = await startSmtpSink()
  clock = movableClock()
  env = await startOnFreshDatabase({
    settings: {
      mail: {
        transport: { smtpUrl: Redacted.make(sink.url), from: "Task marketplace <noreply@market.example>" },
        retryScheduleMs: [200, 200, 500]
      },
      timerSweepMs: 100
    },
    clock: clock.layer
  })
  server = env.server
  other = otherProcessOn(env.database)
  // Logins made by another process with mail off: no invitation is mailed.
  await other.runPromise(
    Effect.gen(function* () {
      const logins = yield* Logins
      yield* logins.invite(akiko.slug, akiko.address)
      yield* logins.invite(lukas.slug, lukas.address)
    })
  )
}, 60_000)

afterAll(async () => {
  await other?.dispose()
  await env?.close()
  await sink?.close()
})

const say = async (reference: string, token: string, body: string) => {
  const response = await fetch(
    server.api(`/tasks/${reference}/messages`),
    json({ body }, { authorization: `Bearer ${token}` })
  )
  expect(response.status, await response.clone().text()).toBe(201)
  return response.json()
}

/** A task offered to `who`, its offer's mail received. */
const offeredTo = async (who: { slug: string; address: string }, action: string) => {
  const from = sink.mails.length
  const task = await submitTask(server.api("/tasks"), digitalDraft({ participant_slug: who.slug, action }))
  await awaitTask(server.api(`/tasks/${task.reference}`), (t) => t.state === "awaiting_participant")
  await mailsArrived(sink, from + 1, 15_000, "the offer")
  return task
}

const mailsTo = (address: string, subject: RegExp) =>
  sink.mails.filter((mail) => mail.to.includes(address) && subject.test(mail.parsed.subject ?? ""))

/** Waits until `count` mails to `address` with a subject like `subject` have arrived. */
const arrived = async (address: string, subject: RegExp, count: number) => {
  const deadline = Date.now() + 15_000
  while (mailsTo(address, subject).length < count) {
    if (Date.now() > deadline) throw new Error(`${mailsTo(address, subject).length} of ${count} mails to ${address}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return mailsTo(address, subject)
}

const messageMails = /^New messages?: /

/** The message mails the outbox holds for a participant, oldest first (a sent one's content is erased). */
const outboxFor = (slug: string) =>
  other.runPromise(
    Effect.gen(function* () {
      const all = yield* (yield* MailOutbox).all
      return all.filter((mail) => mail.kind === "message" && mail.participantSlug === slug)
    })
  )

/** Waits until `count` of a participant's message mails are recorded sent. */
const sentCount = async (slug: string, count: number) => {
  const deadline = Date.now() + 15_000
  const sent = async () => (await outboxFor(slug)).filter((mail) => mail.state === "sent").length
  while ((await sent()) < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} mails to ${slug} were recorded sent`)
    await sleep(50)
  }
}

/** Waits until a participant's latest message mail is recorded skipped (taken up when due, not sent). */
const lastSkipped = async (slug: string) => {
  const deadline = Date.now() + 15_000
  for (;;) {
    const last = (await outboxFor(slug)).at(-1)
    if (last?.state === "skipped") return
    if (Date.now() > deadline) throw new Error(`the held mail stayed ${JSON.stringify(last)}`)
    await sleep(50)
  }
}

const quoted = (mail: ReceivedMail) => [...(mail.parsed.text ?? "").matchAll(/^> (.*)$/gm)].map((match) => match[1])

describe("message mails, gathered", { timeout: 90_000 }, () => {
  it("the first goes at once; later ones within ten minutes go together when they are up; after a quiet spell, at once again", async () => {
    const { reference, token } = await offeredTo(akiko, "Photograph the front door of the Osaka office")
    const taskPage = `${server.url}/console/tasks/${reference}`

    // (Every earlier message mail to akiko was sent: the tests run in order.)
    const quietBefore = (await outboxFor(akiko.slug)).length
    const before = clock.now()
    await say(reference, token, "The left door, please.")
    const [first] = await arrived(akiko.address, messageMails, 1)
    expect(first!.parsed.subject).toBe("New message: Photograph the front door of the Osaka office")
    expect(quoted(first!)).toEqual(["The left door, please."])
    const unsubscribe = headerOf(first!, "list-unsubscribe")?.replace(/^<|>$/g, "")
    expect(unsubscribe).toMatch(new RegExp(`^${server.url}/mail/unsubscribe/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{24}$`))
    expect(headerOf(first!, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")
    // The task's page and the unsubscribe, nothing else: no token, no other address.
    expect(linksOf(first!)).toEqual([taskPage, unsubscribe])
    expect(first!.parsed.text).not.toContain(token)
    expect(first!.parsed.html).toContain(`href="${taskPage}"`)
    const after = clock.now()
    // Its sending is recorded (the SMTP server took it just before): the ten minutes count from there.
    await sentCount(akiko.slug, quietBefore + 1)

    // Two more, a minute and three minutes later: held until ten minutes after the first mail.
    clock.advance(minutes(1))
    await say(reference, token, "Only the door, not the sign.")
    clock.advance(minutes(2))
    await say(reference, token, "Landscape, if you can.\nThank you!")
    // The participant's own answer mails nobody.
    await other.runPromise(
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        yield* operations.postMessage({ subject: "unused", slug: akiko.slug }, reference, { body: "Will do." })
      })
    )
    const pending = (await outboxFor(akiko.slug)).filter((mail) => mail.state === "pending")
    expect(pending).toHaveLength(1)
    expect(pending[0]!.content).toMatchObject({
      kind: "message",
      reference,
      messages: [{ body: "Only the door, not the sign." }, { body: "Landscape, if you can.\nThank you!" }]
    })
    // Due ten minutes after the first mail was sent.
    const due = Date.parse(pending[0]!.nextAttemptAt!)
    expect(due).toBeGreaterThanOrEqual(before + minutes(10))
    expect(due).toBeLessThanOrEqual(after + minutes(10))
    // A mail due now (another task's) goes meanwhile; the held one does not.
    const { reference: elsewhere, token: elsewhereToken } = await offeredTo(lukas, "Check the opening hours")
    await say(elsewhere, elsewhereToken, "Are they posted on the door?")
    await arrived(lukas.address, messageMails, 1)
    expect(mailsTo(akiko.address, messageMails)).toHaveLength(1)

    // The ten minutes are up: one mail holds both.
    clock.advance(minutes(7))
    const [, gathered] = await arrived(akiko.address, messageMails, 2)
    expect(gathered!.parsed.subject).toBe("New messages: Photograph the front door of the Osaka office")
    expect(gathered!.parsed.text).toContain(
      'The agent of the task "Photograph the front door of the Osaka office" wrote 2 messages:'
    )
    expect(quoted(gathered!)).toEqual(["Only the door, not the sign.", "Landscape, if you can.", "Thank you!"])
    expect(gathered!.parsed.messageId).not.toBe(first!.parsed.messageId)
    expect(linksOf(gathered!)).toEqual([taskPage, unsubscribe])

    // A quiet spell (over ten minutes since the last mail): the next goes at once.
    clock.advance(minutes(11))
    await say(reference, token, "One last thing: the house number too.")
    const [, , third] = await arrived(akiko.address, messageMails, 3)
    expect(quoted(third!)).toEqual(["One last thing: the house number too."])
    expect(mailsTo(akiko.address, messageMails)).toHaveLength(3)
    // Every message mail of the task was sent, each once (recorded just after the SMTP server took it).
    const states = async () => (await outboxFor(akiko.slug)).slice(quietBefore).map((mail) => mail.state)
    const deadline = Date.now() + 15_000
    while ((await states()).includes("pending") && Date.now() < deadline) await sleep(50)
    expect(await states()).toEqual(["sent", "sent", "sent"])
  })

  it("with the kind turned off, an agent's message mails nothing", async () => {
    const { reference, token } = await offeredTo(lukas, "Photograph the station clock")
    const setOff = (off: ReadonlyArray<"message">) =>
      other.runPromise(
        Effect.gen(function* () {
          yield* (yield* MailPreferences).set(lukas.slug, off)
        })
      )
    await setOff(["message"])
    const before = mailsTo(lukas.address, messageMails).length
    const queued = (await outboxFor(lukas.slug)).length
    await say(reference, token, "Is the clock still there?")
    expect(await outboxFor(lukas.slug)).toHaveLength(queued)
    // Turned on again, a quiet spell later: the next message is mailed at once, alone.
    await setOff([])
    clock.advance(minutes(11))
    await say(reference, token, "Never mind, found it.")
    const after = await arrived(lukas.address, messageMails, before + 1)
    expect(quoted(after[after.length - 1]!)).toEqual(["Never mind, found it."])
    expect(await outboxFor(lukas.slug)).toHaveLength(queued + 1)
  })

  it("a held mail whose participant declined meanwhile (the task offered to the next) is not sent", async () => {
    // A digital task many can take: declined by the first, it is offered to the next.
    const { reference, token } = await submitTask(
      server.api("/tasks"),
      digitalDraft({ action: "Transcribe a short voice note" })
    )
    const offered = await awaitTask(server.api(`/tasks/${reference}`), (t) => t.state === "awaiting_participant")
    const first = { slug: offered.participant_slug as string, address: `first-${reference}@example.org` }
    await other.runPromise(
      Effect.gen(function* () {
        yield* (yield* Logins).invite(first.slug, first.address)
      })
    )
    clock.advance(minutes(11))
    await say(reference, token, "It is in Portuguese.")
    await arrived(first.address, messageMails, 1)
    await say(reference, token, "About two minutes long.")
    await other.runPromise(
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        yield* operations.decline({ subject: "unused", slug: first.slug }, reference, "Not my language")
      })
    )
    clock.advance(minutes(10))
    // The sender takes the held mail up when it falls due, and skips it.
    await lastSkipped(first.slug)
    expect(mailsTo(first.address, messageMails)).toHaveLength(1)
  })

  it("a held mail whose kind its participant turned off meanwhile is not sent", async () => {
    const who = { slug: "jonas-weber", address: "jonas@example.org" }
    await other.runPromise(
      Effect.gen(function* () {
        yield* (yield* Logins).invite(who.slug, who.address)
      })
    )
    const { reference, token } = await offeredTo(who, "Check the price of oat milk in three shops")
    clock.advance(minutes(11))
    await say(reference, token, "Any brand will do.")
    await arrived(who.address, messageMails, 1)
    // Held: within ten minutes of the mail just sent.
    await say(reference, token, "Photos of the shelf, please.")
    expect((await outboxFor(who.slug)).at(-1)?.state).toBe("pending")
    await other.runPromise(
      Effect.gen(function* () {
        yield* (yield* MailPreferences).turnOff(who.slug, "message")
      })
    )
    clock.advance(minutes(10))
    await lastSkipped(who.slug)
    expect(mailsTo(who.address, messageMails)).toHaveLength(1)
  })
})
