/**
 * Every process's mail sender: it claims due mails from the outbox (services/mail_outbox.ts),
 * renders each (domain/mail.ts), sends it through SMTP_URL with nodemailer, and records the
 * attempt: sent once the server accepts it; else retried after the next wait of
 * MAIL_RETRY_SCHEDULE (lengthened by up to a tenth at random), while the server refuses it or
 * cannot be reached, and failed once the schedule is used up. Every attempt sends the mail's
 * `Message-ID`, so a mail accepted just before a crash and sent again is one mail to receivers
 * that deduplicate.
 *
 * A notification carries a one-click unsubscribe (`List-Unsubscribe` and `List-Unsubscribe-Post`,
 * RFC 8058) to its participant's address for that kind (services/mail_preferences.ts).
 *
 * With mail off (SMTP_URL unset) the sender says so once and does nothing. Nothing of a mail
 * (address, link) and nothing of SMTP_URL is logged: a failure is logged by the mail's id, kind
 * and the SMTP code.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { AppConfig } from "../config/app_config.ts"
import { isNotificationKind, messageMailStillDue, reminderStillDue } from "../domain/mail.ts"
import { renderMail } from "../pages/mail.ts"
import { MailOutbox, type StoredMail } from "./mail_outbox.ts"
import { MailPreferences } from "./mail_preferences.ts"
import { runOutboxSender } from "./outbox_sender.ts"
import { TaskStore } from "./task_store.ts"

/** How many mails one process sends at once. */
const maxInFlight = 4

/** How long connecting, the greeting and each SMTP answer may take. */
const connectionTimeoutMs = 10_000
const socketTimeoutMs = 30_000

/** A claim outlives the longest attempt by this much, so it never lapses while the attempt runs. */
const leaseMs = connectionTimeoutMs * 2 + socketTimeoutMs * 2 + 30_000

/**
 * Why an attempt failed, in words safe to keep and log: the SMTP answer's code and the error's
 * kind, never the server's whole text (it may repeat the recipient) nor the URL.
 */
export const describeMailFailure = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return "the mail could not be sent"
  const { code, responseCode, command } = error as { code?: unknown; responseCode?: unknown; command?: unknown }
  const tag = typeof code === "string" ? ` (${code})` : ""
  const verb = typeof command === "string" ? command.split(" ", 1)[0] : undefined
  if (typeof responseCode === "number") {
    return `the SMTP server answered ${responseCode}${verb === undefined ? "" : ` to ${verb}`}${tag}`
  }
  if (code === "ECONNECTION" || code === "ESOCKET" || code === "ETIMEDOUT" || verb === "CONN") {
    return `the SMTP server could not be reached${tag}`
  }
  return `the mail could not be sent${tag}`
}

export const MailSenderWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const outbox = yield* MailOutbox
    const preferences = yield* MailPreferences
    const tasks = yield* TaskStore
    const transport = config.mail.transport
    if (transport === undefined) {
      yield* Effect.logInfo("mail is off (SMTP_URL is unset): no mail is sent or queued")
      return
    }
    // nodemailer is loaded only where mail is on: most processes never send one (docs/performance.md).
    const { createTransport } = yield* Effect.promise(() => import("nodemailer"))
    const mailer = yield* Effect.acquireRelease(
      Effect.sync(() =>
        createTransport({
          url: Redacted.value(transport.smtpUrl),
          connectionTimeout: connectionTimeoutMs,
          greetingTimeout: connectionTimeoutMs,
          socketTimeout: socketTimeoutMs,
          logger: false,
          debug: false
        })
      ),
      (mailer) => Effect.sync(() => mailer.close())
    )
    const iso = (ms: number) => new Date(ms).toISOString()

    const send = Effect.fnUntraced(function* (mail: StoredMail) {
      const content = mail.content
      if (content === null) return yield* Effect.fail(new Error("the mail's content is gone"))
      const now = yield* Clock.currentTimeMillis
      const unsubscribe =
        isNotificationKind(content.kind) && mail.participantSlug !== null
          ? yield* preferences.unsubscribeUrl(mail.participantSlug, content.kind)
          : undefined
      const rendered = renderMail(content, now, unsubscribe)
      return yield* Effect.tryPromise({
        try: () =>
          mailer.sendMail({
            from: transport.from,
            to: mail.recipient,
            subject: rendered.subject,
            text: rendered.text,
            html: rendered.html,
            messageId: mail.messageId,
            headers:
              unsubscribe === undefined
                ? {}
                : { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
          }),
        catch: (error) => error
      })
    })

    /**
     * A reminder whose offer was answered, withdrawn or has lapsed meanwhile is not sent, nor a
     * message mail to a participant who no longer reads the task's conversation (it declined), nor
     * a notification of a kind its participant turned off since it was queued (a message mail
     * waits up to ten minutes for the messages that follow).
     */
    const stillWanted = Effect.fnUntraced(function* (mail: StoredMail) {
      const content = mail.content
      if (mail.participantSlug === null) return true
      if (content !== null && isNotificationKind(content.kind)) {
        if ((yield* preferences.offFor(mail.participantSlug)).includes(content.kind)) return false
      }
      if (content?.kind === "offer_reminder") {
        return reminderStillDue(content, mail.participantSlug, yield* tasks.findByReference(content.reference))
      }
      if (content?.kind === "message") {
        return messageMailStillDue(mail.participantSlug, yield* tasks.findByReference(content.reference))
      }
      return true
    })

    const attempt = Effect.fnUntraced(function* (mail: StoredMail, claim: string) {
      if (!(yield* stillWanted(mail))) {
        const at = iso(yield* Clock.currentTimeMillis)
        yield* outbox.finish(mail.id, claim, { state: "skipped", nextAttemptAt: null, error: null, at })
        return
      }
      const result = yield* Effect.result(send(mail))
      const ended = yield* Clock.currentTimeMillis
      if (result._tag === "Success") {
        yield* outbox.finish(mail.id, claim, { state: "sent", nextAttemptAt: null, error: null, at: iso(ended) })
        return
      }
      const error = describeMailFailure(result.failure)
      const wait = config.mail.retryScheduleMs[mail.attempts]
      if (wait === undefined || mail.content === null) {
        yield* outbox.finish(mail.id, claim, { state: "failed", nextAttemptAt: null, error, at: iso(ended) })
        yield* Effect.logWarning("a mail could not be sent; no attempt is left").pipe(
          Effect.annotateLogs({ mail: mail.id, kind: mail.kind, attempts: mail.attempts + 1, error })
        )
        return
      }
      const next = iso(ended + Math.round(wait * (1 + Math.random() / 10)))
      yield* outbox.finish(mail.id, claim, { state: "pending", nextAttemptAt: next, error, at: iso(ended) })
    })

    yield* runOutboxSender({
      maxInFlight,
      leaseMs,
      claimDue: outbox.claimDue,
      attempt,
      notRecorded: (mail, cause) =>
        Effect.logWarning("a mail attempt could not be recorded").pipe(
          Effect.annotateLogs({ mail: mail.id, kind: mail.kind, cause })
        ),
      wake: outbox.wake,
      nextDue: outbox.nextDue,
      sweepMs: config.timerSweepMs,
      failing: "claiming mails failed; retrying every interval",
      recovered: "claiming mails works again"
    })
  })
)
