/**
 * Participant accounts: an OAuth subject linked to a participant (by the operator, an invitation or
 * an open sign-up); a request bearing that subject's access token acts as that participant — once
 * the participant is listed: a sign-up's link names a profile that awaits the operator's approval.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import type { StorageUnavailable } from "../domain/errors.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"

/** Whom a subject acts as, and whether that participant's sign-up still awaits approval. */
export interface AccountLink {
  readonly slug: string
  /** True while the profile is a sign-up the operator has not approved (no offers, no tasks). */
  readonly pending: boolean
}

export class Accounts extends Context.Service<
  Accounts,
  {
    /** Links (or re-links) a subject to a participant. */
    link(subject: string, participantSlug: string): Effect.Effect<void, StorageUnavailable>
    participantOf(subject: string): Effect.Effect<string | undefined, StorageUnavailable>
    /** `participantOf`, and whether that participant awaits approval, in one read. */
    linkOf(subject: string): Effect.Effect<AccountLink | undefined, StorageUnavailable>
  }
>()("task-marketplace/services/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)

      const link = Effect.fn("Accounts.link")(function* (subject: string, participantSlug: string) {
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        yield* sql`
          INSERT INTO participant_accounts (subject, participant_slug, linked_at) VALUES (${subject}, ${participantSlug}, ${now})
          ON CONFLICT (subject) DO UPDATE SET participant_slug = excluded.participant_slug, linked_at = excluded.linked_at
        `
      }, asStorageCall)

      const slugOf = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: Schema.Struct({ participant_slug: Schema.String }),
        execute: (subject) => sql`SELECT participant_slug FROM participant_accounts WHERE subject = ${subject}`
      })
      const participantOf = Effect.fn("Accounts.participantOf")((subject: string) =>
        slugOf(subject).pipe(
          Effect.map((row) => (row._tag === "Some" ? row.value.participant_slug : undefined)),
          Effect.catchTag("SchemaError", undecodableRow("participant_accounts", `subject ${subject}`)),
          asStorageCall
        )
      )

      const standingOf = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: Schema.Struct({ participant_slug: Schema.String, pending: IntegerColumn }),
        execute: (subject) => sql`
          SELECT a.participant_slug, CASE WHEN p.slug IS NULL THEN 0 ELSE 1 END AS pending
          FROM participant_accounts a LEFT JOIN pending_participants p ON p.slug = a.participant_slug
          WHERE a.subject = ${subject}
        `
      })
      const linkOf = Effect.fn("Accounts.linkOf")((subject: string) =>
        standingOf(subject).pipe(
          Effect.map((row) =>
            row._tag === "Some" ? { slug: row.value.participant_slug, pending: row.value.pending !== 0 } : undefined
          ),
          Effect.catchTag("SchemaError", undecodableRow("participant_accounts", `subject ${subject}`)),
          asStorageCall
        )
      )

      return Accounts.of({ link, participantOf, linkOf })
    })
  )
}
