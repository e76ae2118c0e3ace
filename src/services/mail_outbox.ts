/**
 * The outbox of mails (`mail_outbox`): a row written in the transaction of the change that causes
 * the mail (an invitation issued, an offer made…), so a mail exists exactly when its change does —
 * a process killed after the commit leaves it here for the next one to send. With mail off
 * (SMTP_URL unset) nothing is written, nor is a notification its participant turned off
 * (services/mail_preferences.ts).
 *
 * Attempts are claimed as webhook events are (services/webhook_outbox.ts): one conditional UPDATE,
 * skipping rows another process has locked on Postgres, whose claim is a lease past the attempt's
 * longest end; a process that dies mid-attempt leaves the mail to fall due again. Each mail keeps
 * the `Message-ID` it was given here on every attempt.
 *
 * An agent's messages to a participant are gathered (domain/mail.ts, `gatherMessage`): a message
 * joins the mail of its task and participant (`gather_key`) that is not sent yet and not held by an
 * attempt, or starts one, due at once after a quiet spell and otherwise when ten minutes since the
 * last one sent are over. The join is a conditional UPDATE: a mail an attempt claimed meanwhile is
 * left alone, and the message starts a mail of its own.
 */
import { randomBytes } from "node:crypto"
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { AppConfig } from "../config/app_config.ts"
import type { StorageUnavailable } from "../domain/errors.ts"
import {
  gathering,
  gatherKeyOf,
  gatherMessage,
  isNotificationKind,
  MailContent,
  type MailedMessage,
  messageIdDomainOf,
  withMessage
} from "../domain/mail.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { decodeEach, storageCallFor } from "./storage.ts"

/**
 * A mail to queue: to whom (absent: the participant's login address; a participant without a
 * login gets none), for which participant, what it says, and when it is due (absent: at once).
 */
export interface MailRequest {
  readonly to?: string
  readonly participantSlug: string | null
  readonly content: MailContent
  readonly dueAt?: string | null
}

/** A message mail: the task it is about and its first message (domain/mail.ts). */
export type MessageMail = Extract<MailContent, { readonly kind: "message" }>

/** A mail as the outbox keeps it. */
export const StoredMail = Schema.Struct({
  id: Schema.String,
  messageId: Schema.String,
  kind: Schema.String,
  recipient: Schema.String,
  participantSlug: Schema.NullOr(Schema.String),
  /** Null once sent or given up. */
  content: Schema.NullOr(MailContent),
  createdAt: Schema.String,
  /** `skipped`: no longer worth sending when it fell due (a reminder of an offer answered). */
  state: Schema.Literals(["pending", "sent", "failed", "skipped"]),
  nextAttemptAt: Schema.NullOr(Schema.String),
  claim: Schema.NullOr(Schema.String),
  attempts: Schema.Number,
  lastError: Schema.NullOr(Schema.String)
})
export type StoredMail = typeof StoredMail.Type

const MailRow = Schema.Struct({
  ...StoredMail.fields,
  content: Schema.NullOr(Schema.fromJsonString(MailContent)),
  attempts: IntegerColumn
}).pipe(
  Schema.encodeKeys({
    messageId: "message_id",
    participantSlug: "participant_slug",
    createdAt: "created_at",
    nextAttemptAt: "next_attempt_at",
    lastError: "last_error"
  })
)

/** What an attempt decided: sent, failed for good, or pending again until `nextAttemptAt`. */
export interface MailOutcome {
  readonly state: "sent" | "failed" | "skipped" | "pending"
  readonly nextAttemptAt: string | null
  readonly error: string | null
  readonly at: string
}

export class MailOutbox extends Context.Service<
  MailOutbox,
  {
    /** Whether mail is on (SMTP_URL set): when off, `queue` writes nothing. */
    readonly enabled: boolean
    /**
     * Queues mails, due at once. Call it inside the transaction of the change that causes them,
     * and `wake` once it commits. Database failures are the caller's, as its transaction's are.
     */
    queue(mails: ReadonlyArray<MailRequest>): Effect.Effect<void, SqlError.SqlError>
    /**
     * Gathers `message` into the participant's message mail of the task `content` names (a new
     * one holds the messages of `content` and `message`). Call it inside the transaction that keeps
     * the message, holding the task's row, and `wake` once it commits.
     */
    gatherMessage(
      participantSlug: string,
      content: MessageMail,
      message: MailedMessage
    ): Effect.Effect<void, SqlError.SqlError>
    /** Claims up to `limit` mails due at `now` for the attempt named `claim`, until `leaseUntil`. */
    claimDue(
      now: string,
      leaseUntil: string,
      claim: string,
      limit: number
    ): Effect.Effect<ReadonlyArray<StoredMail>, StorageUnavailable>
    /** Records an attempt's outcome, if the claim still holds the mail (false when it lapsed). */
    finish(id: string, claim: string, outcome: MailOutcome): Effect.Effect<boolean, StorageUnavailable>
    /** Every mail, oldest first (tests and the operator's eyes). */
    readonly all: Effect.Effect<ReadonlyArray<StoredMail>, StorageUnavailable>
    /** Wakes this process's sender: a mail was committed or released. */
    readonly wake: Effect.Effect<void>
    /** The sender's pause: over after `timeoutMs`, or at once when woken. */
    nextDue(timeoutMs: number): Effect.Effect<void>
  }
>()("task-marketplace/services/MailOutbox") {
  static readonly layer = Layer.effect(
    MailOutbox,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const transport = config.mail.transport
      const domain = transport === undefined ? "localhost" : messageIdDomainOf(transport.from)
      const decodeRows = decodeEach(MailRow, "mail_outbox", (row) => `id ${(row as { id?: unknown }).id}`)
      const encodeContent = Schema.encodeSync(Schema.fromJsonString(MailContent))
      const decodeContent = Schema.decodeUnknownSync(Schema.fromJsonString(MailContent))
      const signal = yield* Queue.sliding<void>(1)

      /** Whom a mail goes to: undefined when its kind is turned off, or nobody has the address. */
      const recipientOf = Effect.fnUntraced(function* (mail: MailRequest) {
        // A notification its participant turned off is not queued (account mails always are).
        if (mail.participantSlug !== null && isNotificationKind(mail.content.kind)) {
          const off = yield* sql`
            SELECT 1 AS off FROM mail_preferences WHERE participant_slug = ${mail.participantSlug} AND kind = ${mail.content.kind}
          `
          if (off.length > 0) return undefined
        }
        if (mail.to !== undefined || mail.participantSlug === null) return mail.to
        const [login] = yield* sql<{ readonly email: string }>`
          SELECT email FROM participant_logins WHERE participant_slug = ${mail.participantSlug}
        `
        return login?.email
      })

      const rowOf = (mail: MailRequest & { readonly to: string }, now: string, gatherKey: string | null) => ({
        id: `mail_${randomBytes(12).toString("base64url")}`,
        message_id: `<${randomBytes(18).toString("base64url")}@${domain}>`,
        kind: mail.content.kind,
        recipient: mail.to,
        participant_slug: mail.participantSlug,
        gather_key: gatherKey,
        content: encodeContent(mail.content),
        created_at: now,
        state: "pending",
        next_attempt_at: mail.dueAt ?? now,
        claim: null,
        attempts: 0,
        last_error: null,
        sent_at: null
      })

      const queue = Effect.fn("MailOutbox.queue")(function* (mails: ReadonlyArray<MailRequest>) {
        if (transport === undefined || mails.length === 0) return
        const wanted: Array<MailRequest & { readonly to: string }> = []
        for (const mail of mails) {
          const to = yield* recipientOf(mail)
          if (to !== undefined) wanted.push({ ...mail, to })
        }
        if (wanted.length === 0) return
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        const rows = wanted.map((mail) => rowOf(mail, now, null))
        if (Arr.isArrayNonEmpty(rows)) yield* sql`INSERT INTO mail_outbox ${sql.insert(rows)}`
      })

      const windowMs = gathering.message!.windowMs

      const gather = Effect.fn("MailOutbox.gatherMessage")(function* (
        participantSlug: string,
        content: MessageMail,
        message: MailedMessage
      ) {
        if (transport === undefined) return
        const to = yield* recipientOf({ participantSlug, content })
        if (to === undefined) return
        const key = gatherKeyOf(content.reference, participantSlug)
        const now = yield* Clock.currentTimeMillis
        const pending = yield* sql<{
          readonly id: string
          readonly claim: string | null
          readonly content: string | null
        }>`
          SELECT id, claim, content FROM mail_outbox WHERE gather_key = ${key} AND state = 'pending' ORDER BY created_at, id
        `
        const [sent] = yield* sql<{ readonly last: string | null }>`
          SELECT MAX(sent_at) AS last FROM mail_outbox WHERE gather_key = ${key} AND state = 'sent'
        `
        const decision = gatherMessage(
          {
            pending: pending.map((row) => ({ id: row.id, claimed: row.claim !== null || row.content === null })),
            lastSentAt: sent?.last ?? null
          },
          now,
          windowMs
        )
        if (decision._tag === "Join") {
          const held = pending.find((row) => row.id === decision.id)!
          const joined = withMessage(decodeContent(held.content!) as MessageMail, message)
          // Only while no attempt holds it: a mail claimed meanwhile may be on its way.
          const updated = yield* sql<{ readonly id: string }>`
            UPDATE mail_outbox SET content = ${encodeContent(joined)}
            WHERE id = ${decision.id} AND state = 'pending' AND claim IS NULL AND content = ${held.content}
            RETURNING id
          `
          if (updated.length === 1) return
        }
        const dueAt = decision._tag === "New" ? decision.dueAt : new Date(now + windowMs).toISOString()
        const row = rowOf(
          { to, participantSlug, content: withMessage(content, message), dueAt },
          new Date(now).toISOString(),
          key
        )
        yield* sql`INSERT INTO mail_outbox ${sql.insert(row)}`
      })

      const claimDue = Effect.fn("MailOutbox.claimDue")(
        (now: string, leaseUntil: string, claim: string, limit: number) =>
          Effect.flatMap(
            sql`
              UPDATE mail_outbox SET claim = ${claim}, next_attempt_at = ${leaseUntil}
              WHERE id IN (
                SELECT id FROM mail_outbox
                WHERE state = 'pending' AND next_attempt_at <= ${now}
                ORDER BY next_attempt_at
                LIMIT ${limit}
                ${sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })}
              )
              AND state = 'pending' AND next_attempt_at <= ${now}
              RETURNING id, message_id, kind, recipient, participant_slug, content, created_at, state,
                next_attempt_at, claim, attempts, last_error
            `,
            decodeRows
          ),
        asStorageCall
      )

      // Sent or given up, the content goes: it may hold a one-time link nobody needs any more.
      const finish = Effect.fn("MailOutbox.finish")(
        (id: string, claim: string, outcome: MailOutcome) =>
          Effect.map(
            outcome.state === "pending"
              ? sql<{ id: string }>`
                  UPDATE mail_outbox SET next_attempt_at = ${outcome.nextAttemptAt}, attempts = attempts + 1,
                    last_error = ${outcome.error}, claim = NULL
                  WHERE id = ${id} AND claim = ${claim}
                  RETURNING id
                `
              : sql<{ id: string }>`
                  UPDATE mail_outbox SET state = ${outcome.state}, next_attempt_at = NULL,
                    attempts = attempts + ${outcome.state === "skipped" ? 0 : 1},
                    last_error = ${outcome.error}, claim = NULL, content = NULL,
                    sent_at = ${outcome.state === "sent" ? outcome.at : null}
                  WHERE id = ${id} AND claim = ${claim}
                  RETURNING id
                `,
            (rows) => rows.length === 1
          ),
        asStorageCall
      )

      const all = Effect.flatMap(
        sql`
          SELECT id, message_id, kind, recipient, participant_slug, content, created_at, state, next_attempt_at,
            claim, attempts, last_error
          FROM mail_outbox ORDER BY created_at, id
        `,
        decodeRows
      ).pipe(asStorageCall, Effect.withSpan("MailOutbox.all"))

      return MailOutbox.of({
        enabled: transport !== undefined,
        queue,
        gatherMessage: gather,
        claimDue,
        finish,
        all,
        wake: Queue.offer(signal, undefined).pipe(Effect.asVoid),
        nextDue: (timeoutMs) => Effect.raceFirst(Queue.take(signal), Effect.sleep(timeoutMs)).pipe(Effect.asVoid)
      })
    })
  )
}
