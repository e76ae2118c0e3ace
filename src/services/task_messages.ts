/**
 * The conversation on each task, stored (`task_messages`): the rules are domain/messages.ts. A
 * message is kept with the thread it belongs to (the participant the agent talks with), who wrote
 * it, and when.
 *
 * Writing reads and judges the task, then keeps the message in one transaction with what it causes:
 * a participant's message, the `task.message` webhook event of a task with a `webhook_url`
 * (services/webhook_outbox.ts); an agent's, the participant's gathered mail (services/mail_outbox.ts).
 * The transaction holds the task's row (a transition's update waits for it, and it for one) and
 * checks the task is still the one judged, else judges again; a task that keeps changing lets the
 * last round's message through, as one said just before the change. The task itself is not changed.
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../config/app_config.ts"
import type { NotPermitted, StorageUnavailable } from "../domain/errors.ts"
import { TaskNotFound } from "../domain/errors.ts"
import { titleOf } from "../domain/mail.ts"
import {
  type ConversationClosed,
  type Message,
  type MessageList,
  type Speaker,
  threadsToRead,
  threadToWrite
} from "../domain/messages.ts"
import { MailOutbox } from "./mail_outbox.ts"
import { decodeEach, storageCallFor } from "./storage.ts"
import { TaskStore } from "./task_store.ts"
import { WebhookOutbox } from "./webhook_outbox.ts"

/** A message as stored and shown. */
export const StoredMessage = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  participant_slug: Schema.String,
  author: Schema.Literals(["agent", "participant"]),
  body: Schema.String,
  created_at: Schema.String
})
export type StoredMessage = typeof StoredMessage.Type

/** A stored message as the parties read it. */
export const messageOf = (message: StoredMessage): Message => ({
  object: "message",
  id: message.id,
  from: message.author,
  body: message.body,
  created_at: message.created_at
})

/** Messages as the list the parties read. */
export const messageListOf = (messages: ReadonlyArray<StoredMessage>): MessageList => ({
  object: "list",
  count: messages.length,
  data: messages.map(messageOf)
})

/** How many times a write judges a task that changed meanwhile before it keeps the message anyway. */
const rounds = 5

/** A message's id: `msg_` and 22 base64url characters. */
const messageId = () => `msg_${randomBytes(17).toString("base64url").slice(0, 22)}`

export class TaskMessages extends Context.Service<
  TaskMessages,
  {
    /** Writes `body` (decoded by MessageRequest; kept trimmed) as `speaker` on the task. */
    post(
      reference: string,
      speaker: Speaker,
      body: string
    ): Effect.Effect<StoredMessage, TaskNotFound | ConversationClosed | NotPermitted | StorageUnavailable>
    /** The messages `speaker` may read on the task, oldest first. */
    list(
      reference: string,
      speaker: Speaker
    ): Effect.Effect<ReadonlyArray<StoredMessage>, TaskNotFound | NotPermitted | StorageUnavailable>
  }
>()("task-marketplace/services/TaskMessages") {
  static readonly layer = Layer.effect(
    TaskMessages,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const store = yield* TaskStore
      const config = yield* AppConfig
      const outbox = yield* WebhookOutbox
      const mail = yield* MailOutbox
      const taskUrl = (reference: string) => `${config.publicBaseUrl}/console/tasks/${encodeURIComponent(reference)}`
      const asStorageCall = storageCallFor(sql)
      const decodeRows = decodeEach(StoredMessage, "task_messages", (row) => `id ${(row as { id?: unknown }).id}`)

      const taskOf = Effect.fnUntraced(function* (reference: string) {
        const task = yield* store.findByReference(reference)
        if (task === undefined) return yield* new TaskNotFound({ reference })
        return task
      })

      return TaskMessages.of({
        post: Effect.fn("TaskMessages.post")(function* (reference: string, speaker: Speaker, body: string) {
          for (let round = 1; ; round++) {
            const task = yield* taskOf(reference)
            const thread = threadToWrite(task, speaker)
            if (typeof thread !== "string") return yield* Effect.fail(thread)
            const message: StoredMessage = {
              id: messageId(),
              reference,
              participant_slug: thread,
              author: speaker._tag === "Agent" ? "agent" : "participant",
              body: body.trim(),
              created_at: new Date(yield* Clock.currentTimeMillis).toISOString()
            }
            // The agent hears of a participant's message by webhook; the participant of an agent's by mail.
            const event = message.author === "participant" ? task.webhookUrl : null
            const mailed = message.author === "agent" && mail.enabled
            const kept = yield* asStorageCall(
              sql.withTransaction(
                Effect.gen(function* () {
                  const [row] = yield* sql<{ readonly version: number | bigint }>`
                    SELECT version FROM tasks WHERE reference = ${reference}
                    ${sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE"), orElse: () => sql.literal("") })}
                  `
                  if (row === undefined || (Number(row.version) !== task.version && round < rounds)) return false
                  yield* sql`INSERT INTO task_messages ${sql.insert(message)}`
                  if (event !== null) yield* outbox.recordMessage(reference, event, messageOf(message))
                  if (mailed) {
                    yield* mail.gatherMessage(
                      thread,
                      { kind: "message", reference, title: titleOf(task), url: taskUrl(reference), messages: [] },
                      { body: message.body, createdAt: message.created_at }
                    )
                  }
                  return true
                })
              )
            )
            if (!kept) continue
            if (event !== null) yield* outbox.wake
            if (mailed) yield* mail.wake
            return message
          }
        }),
        list: Effect.fn("TaskMessages.list")(function* (reference: string, speaker: Speaker) {
          const threads = threadsToRead(yield* taskOf(reference), speaker)
          if (typeof threads !== "string") return yield* Effect.fail(threads)
          const rows = yield* asStorageCall(
            threads === "all"
              ? sql`SELECT * FROM task_messages WHERE reference = ${reference} ORDER BY created_at, id`
              : sql`SELECT * FROM task_messages WHERE reference = ${reference} AND participant_slug = ${threads} ORDER BY created_at, id`
          )
          return yield* decodeRows(rows)
        })
      })
    })
  )

  /** The same with the services of ours it needs (the database still to give). */
  static readonly layerWithDependencies = TaskMessages.layer.pipe(
    Layer.provide([TaskStore.layer, WebhookOutbox.layer, MailOutbox.layer])
  )
}
