/**
 * Participant accounts: the operator links an OAuth subject to a participant; a request bearing
 * that subject's access token acts as that participant.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import type { StorageUnavailable } from "../domain/errors.ts"
import { storageCallFor } from "./storage.ts"

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

      const participantOf = Effect.fnUntraced(function* (subject: string) {
        const rows = yield* sql<{ participant_slug: string }>`
          SELECT participant_slug FROM participant_accounts WHERE subject = ${subject}
        `
        return rows[0]?.participant_slug
      }, asStorageCall)

      return Accounts.of({ link, participantOf })
    })
  )
}
