// The mail rules alone (src/domain/mail.ts): which move mails whom, when a reminder is due and
// whether it still is, and what a mail says (src/pages/mail.ts) — an agent's words escaped in HTML and kept on one
// line in a subject.
import { describe, expect, it } from "vitest"
import {
  gathering,
  gatherKeyOf,
  gatherMessage,
  type MailContent,
  type MailedTask,
  messageIdDomainOf,
  messageMailStillDue,
  reminderLeadMs,
  reminderStillDue,
  withMessage,
  workMailsOf
} from "../../src/domain/mail.ts"
import { renderMail, timeLeft } from "../../src/pages/mail.ts"

const taskUrl = (reference: string) => `https://market.example/console/tasks/${reference}`

const task = (overrides: Partial<MailedTask> & Pick<MailedTask, "history">): MailedTask => ({
  reference: "tsk_1",
  state: "awaiting_participant",
  participantSlug: "akiko-tanaka",
  offerExpiresAt: "2026-01-02T00:00:00.000Z",
  brief: { action: "Photograph the door", location: "Osaka, Japan" },
  ...overrides
})

describe("which moves mail the participant", () => {
  it("an offer mails the offer at once and queues its reminder before it lapses", () => {
    const offered = task({ history: [{ from: "matching", to: "awaiting_participant", actor: "service" }] })
    const mails = workMailsOf([offered], 24 * 3600_000, taskUrl)
    expect(mails.map((mail) => [mail.content.kind, mail.dueAt])).toEqual([
      ["offer", null],
      ["offer_reminder", "2026-01-01T22:00:00.000Z"]
    ])
    expect(mails[0]!.content).toMatchObject({
      where: "Osaka, Japan",
      respondBy: "2026-01-02T00:00:00.000Z",
      url: "https://market.example/console/tasks/tsk_1"
    })
    expect(reminderLeadMs(8000)).toBe(2000)
    expect(reminderLeadMs(24 * 3600_000)).toBe(2 * 3600_000)
  })

  it("a revision carries the agent's words; accepted and rejected results are mailed; other moves are not", () => {
    const at = (from: string, to: string, actor: string, reason?: string) =>
      task({ state: to, history: [{ from, to, actor, ...(reason === undefined ? {} : { reason }) }] })
    const kinds = workMailsOf(
      [
        at("submitted", "in_flight", "agent", "revision requested: Count the east side too."),
        at("submitted", "settled", "service", "auto_accepted"),
        at("submitted", "declined", "agent", "result_rejected: Unreadable."),
        at("submitted", "declined", "agent", "result_rejected"),
        at("accepted", "in_flight", "participant"),
        at("awaiting_participant", "declined", "service", "accept_timeout")
      ],
      1000,
      taskUrl
    ).map((mail) => mail.content)
    expect(kinds).toMatchObject([
      { kind: "revision_requested", reason: "Count the east side too." },
      { kind: "result_accepted" },
      { kind: "result_rejected", reason: "Unreadable." },
      { kind: "result_rejected", reason: null }
    ])
    expect(
      workMailsOf(
        [task({ participantSlug: null, history: [{ from: "open", to: "matching", actor: "service" }] })],
        1000,
        taskUrl
      )
    ).toEqual([])
  })

  it("a reminder is still due only while the same participant has the same offer", () => {
    const content = { respondBy: "2026-01-02T00:00:00.000Z" }
    const waiting = { state: "awaiting_participant", participantSlug: "a", offerExpiresAt: content.respondBy }
    expect(reminderStillDue(content, "a", waiting)).toBe(true)
    expect(reminderStillDue(content, "a", { ...waiting, state: "accepted" })).toBe(false)
    expect(reminderStillDue(content, "a", { ...waiting, participantSlug: "b" })).toBe(false)
    expect(reminderStillDue(content, "a", { ...waiting, offerExpiresAt: "2026-01-03T00:00:00.000Z" })).toBe(false)
    expect(reminderStillDue(content, "a", undefined)).toBe(false)
  })
})

describe("what a mail says", () => {
  it("escapes an agent's words in HTML and keeps a subject on one line", () => {
    const [offer] = workMailsOf(
      [
        task({
          brief: { action: 'Check <script>alert("x")</script>\r\nBcc: everyone@example.org', location: "A & B" },
          history: [{ from: "matching", to: "awaiting_participant", actor: "service" }]
        })
      ],
      3600_000,
      taskUrl
    )
    const mail = renderMail(offer!.content, Date.parse("2026-01-01T23:00:00.000Z"), undefined)
    expect(mail.subject).not.toMatch(/[\r\n]/)
    expect(mail.html).not.toContain("<script>")
    expect(mail.html).toContain("&lt;script&gt;")
    expect(mail.html).toContain("A &amp; B")
    expect(mail.text).toContain("(in 60 minutes)")
  })

  it("ends a notification with its unsubscribe link; an account mail has none", () => {
    const content = {
      kind: "result_accepted",
      reference: "tsk_1",
      title: "T",
      url: "https://market.example/console/tasks/tsk_1"
    } as const
    const mail = renderMail(content, 0, "https://market.example/mail/unsubscribe/x.y")
    expect(mail.text.trim().endsWith("Unsubscribe: https://market.example/mail/unsubscribe/x.y")).toBe(true)
    const reset = renderMail(
      {
        kind: "password_reset",
        url: "https://market.example/oauth/password?token=t",
        expiresAt: "2026-01-01T00:00:00.000Z"
      },
      0,
      undefined
    )
    expect(reset.text).not.toContain("Unsubscribe")
    expect(reset.text).toContain("expires 2026-01-01 00:00 UTC")
  })

  it("counts the time left and names the Message-ID's domain after MAIL_FROM", () => {
    expect(timeLeft("2026-01-01T00:00:30.000Z", Date.parse("2026-01-01T00:00:00.000Z"))).toBe("in less than a minute")
    expect(timeLeft("2026-01-01T05:00:00.000Z", Date.parse("2026-01-01T00:00:00.000Z"))).toBe("in 5 hours")
    expect(timeLeft("2026-01-04T00:00:00.000Z", Date.parse("2026-01-01T00:00:00.000Z"))).toBe("in 3 days")
    expect(timeLeft("2025-01-01T00:00:00.000Z", Date.parse("2026-01-01T00:00:00.000Z"))).toBe("now")
    expect(messageIdDomainOf("Task marketplace <noreply@market.example>")).toBe("market.example")
    expect(messageIdDomainOf("noreply@mail.example.org")).toBe("mail.example.org")
  })
})

describe("message mails are gathered (ten minutes per task and participant)", () => {
  const window = gathering.message!.windowMs
  const t0 = Date.parse("2026-03-01T09:00:00.000Z")
  const at = (ms: number) => new Date(t0 + ms).toISOString()
  const none = { pending: [], lastSentAt: null }

  it("the window is ten minutes, and only message mails are gathered", () => {
    expect(window).toBe(10 * 60_000)
    expect(Object.keys(gathering)).toEqual(["message"])
    expect(gatherKeyOf("tsk_1", "akiko-tanaka")).toBe("message:tsk_1:akiko-tanaka")
    expect(gatherKeyOf("tsk_1", "akiko-tanaka")).not.toBe(gatherKeyOf("tsk_1", "lukas-schmidt"))
  })

  it("the first message after a quiet spell goes at once", () => {
    expect(gatherMessage(none, t0, window)).toEqual({ _tag: "New", dueAt: at(0) })
    // The last mail went ten minutes ago or more: quiet.
    expect(gatherMessage({ pending: [], lastSentAt: at(-window) }, t0, window)).toEqual({ _tag: "New", dueAt: at(0) })
    expect(gatherMessage({ pending: [], lastSentAt: at(-3 * window) }, t0, window)).toEqual({
      _tag: "New",
      dueAt: at(0)
    })
  })

  it("a message within ten minutes of the last mail sent waits until they are up", () => {
    expect(gatherMessage({ pending: [], lastSentAt: at(-60_000) }, t0, window)).toEqual({
      _tag: "New",
      dueAt: at(window - 60_000)
    })
    expect(gatherMessage({ pending: [], lastSentAt: at(-window + 1) }, t0, window)).toEqual({
      _tag: "New",
      dueAt: at(1)
    })
  })

  it("a message joins the mail not sent yet that no attempt holds, whenever it is due", () => {
    const held = { pending: [{ id: "mail_a", claimed: false }], lastSentAt: at(-60_000) }
    expect(gatherMessage(held, t0, window)).toEqual({ _tag: "Join", id: "mail_a" })
    // The first mail not sent yet (due at once, say), even with no mail sent before.
    expect(gatherMessage({ pending: [{ id: "mail_b", claimed: false }], lastSentAt: null }, t0, window)).toEqual({
      _tag: "Join",
      id: "mail_b"
    })
  })

  it("a mail an attempt holds may be on its way: the message starts a mail, due ten minutes from now", () => {
    expect(gatherMessage({ pending: [{ id: "mail_a", claimed: true }], lastSentAt: null }, t0, window)).toEqual({
      _tag: "New",
      dueAt: at(window)
    })
    // …but joins one that is free beside it.
    expect(
      gatherMessage(
        {
          pending: [
            { id: "mail_a", claimed: true },
            { id: "mail_c", claimed: false }
          ],
          lastSentAt: null
        },
        t0,
        window
      )
    ).toEqual({ _tag: "Join", id: "mail_c" })
  })

  it("a gathered mail holds every message, oldest first, and says so", () => {
    const content: Extract<MailContent, { readonly kind: "message" }> = {
      kind: "message",
      reference: "tsk_1",
      title: "Photograph the door",
      url: taskUrl("tsk_1"),
      messages: []
    }
    const one = withMessage(content, { body: "The left door, please.", createdAt: at(0) })
    const two = withMessage(one, { body: "Line one\nline <two>", createdAt: at(60_000) })
    expect(content.messages).toEqual([])
    expect(two.messages.map((m) => m.body)).toEqual(["The left door, please.", "Line one\nline <two>"])
    const single = renderMail(one, t0, "https://market.example/mail/unsubscribe/x")
    expect(single.subject).toBe("New message: Photograph the door")
    const gathered = renderMail(two, t0, "https://market.example/mail/unsubscribe/x")
    expect(gathered.subject).toBe("New messages: Photograph the door")
    expect(gathered.text).toContain('The agent of the task "Photograph the door" wrote 2 messages:')
    expect(gathered.text).toContain("The agent, 2026-03-01 09:00 UTC:\n> The left door, please.")
    expect(gathered.text).toContain("The agent, 2026-03-01 09:01 UTC:\n> Line one\n> line <two>")
    expect(gathered.text).toContain(`Open the task: ${taskUrl("tsk_1")}`)
    expect(gathered.html).toContain("line &lt;two&gt;")
    expect(gathered.html).not.toContain("<two>")
  })
})

describe("a held message mail, when it falls due", () => {
  const facts = (state: string, participantSlug: string | null) =>
    ({ reference: "tsk_1", state, participantSlug }) as Parameters<typeof messageMailStillDue>[1]

  it("is sent while its participant reads the conversation, also after the task ended with them", () => {
    expect(messageMailStillDue("akiko-tanaka", facts("awaiting_participant", "akiko-tanaka"))).toBe(true)
    expect(messageMailStillDue("akiko-tanaka", facts("in_flight", "akiko-tanaka"))).toBe(true)
    expect(messageMailStillDue("akiko-tanaka", facts("settled", "akiko-tanaka"))).toBe(true)
  })

  it("is not sent once they declined or the task went to someone else (or is gone)", () => {
    expect(messageMailStillDue("akiko-tanaka", facts("matching", null))).toBe(false)
    expect(messageMailStillDue("akiko-tanaka", facts("awaiting_participant", "lukas-schmidt"))).toBe(false)
    expect(messageMailStillDue("akiko-tanaka", undefined)).toBe(false)
  })
})
