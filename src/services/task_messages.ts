/**
 * The conversation on each task, stored (`task_messages`): the rules are domain/messages.ts. A
 * message is kept with the thread it belongs to (the participant the agent talks with), who wrote
 * it, and when. Writing reads the task first; a message written as the task ends may be kept, as
 * one said just before (the rule is about the conversation, not a move of the task).
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type { NotPermitted, StorageUnavailable } from "../domain/errors.ts"
import { TaskNotFound } from "../domain/errors.ts"
import {
  type ConversationClosed,
  type Message,
  type MessageList,
  type Speaker,
  threadsToRead,
  threadToWrite
} from "../domain/messages.ts"
import { decodeEach, storageCallFor } from "./storage.ts"
import { TaskStore } from "./task_store.ts"

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
      const asStorageCall = storageCallFor(sql)
      const decodeRows = decodeEach(StoredMessage, "task_messages", (row) => `id ${(row as { id?: unknown }).id}`)

      const taskOf = Effect.fnUntraced(function* (reference: string) {
        const task = yield* store.findByReference(reference)
        if (task === undefined) return yield* new TaskNotFound({ reference })
        return task
      })

      return TaskMessages.of({
        post: Effect.fn("TaskMessages.post")(function* (reference: string, speaker: Speaker, body: string) {
          const thread = threadToWrite(yield* taskOf(reference), speaker)
          if (typeof thread !== "string") return yield* Effect.fail(thread)
          const message: StoredMessage = {
            id: messageId(),
            reference,
            participant_slug: thread,
            author: speaker._tag === "Agent" ? "agent" : "participant",
            body: body.trim(),
            created_at: new Date(yield* Clock.currentTimeMillis).toISOString()
          }
          yield* asStorageCall(sql`INSERT INTO task_messages ${sql.insert(message)}`)
          return message
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
  static readonly layerWithDependencies = TaskMessages.layer.pipe(Layer.provide(TaskStore.layer))
}
