/**
 * Participant accounts: the operator links an OAuth subject to a participant; a request bearing
 * that subject's access token acts as that participant.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import type { StorageUnavailable } from "../domain/errors.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"

export class Accounts extends Context.Service<
  Accounts,
  {
    /** Links (or re-links) a subject to a participant. */
    link(subject: string, participantSlug: string): Effect.Effect<void, StorageUnavailable>
    participantOf(subject: string): Effect.Effect<string | undefined, StorageUnavailable>
  }
>()("task-marketplace/services/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)

      const link = Effect.fnUntraced(function* (subject: string, participantSlug: string) {
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        yield* sql`
          INSERT INTO participant_accounts (subject, participant_slug, linked_at) VALUES (${subject}, ${participantSlug}, ${now})
          ON CONFLICT (subject) DO UPDATE SET participant_slug = excluded.participant_slug, linked_at = excluded.linked_at
        `
      }, asStorageCall)

      const linkOf = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: Schema.Struct({ participant_slug: Schema.String }),
        execute: (subject) => sql`SELECT participant_slug FROM participant_accounts WHERE subject = ${subject}`
      })
      const participantOf = (subject: string) =>
        linkOf(subject).pipe(
          Effect.map((row) => (row._tag === "Some" ? row.value.participant_slug : undefined)),
          Effect.catchTag("SchemaError", undecodableRow("participant_accounts", `subject ${subject}`)),
          asStorageCall
        )

      return Accounts.of({ link, participantOf })
    })
  )
}
