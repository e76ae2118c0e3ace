/**
 * Logins' storage: the rows of `participant_logins` and `login_links` and the statements that read
 * and write them, over one SqlClient (SQLite and Postgres alike). A link's token is never stored:
 * only its SHA-256 (links.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import { type LinkPurpose, type Login, linkPurposes } from "../../domain/login.ts"
import { undecodableRow } from "../storage.ts"

/** A row of `participant_logins`. */
export const LoginRow = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  participant_slug: Schema.String,
  password_hash: Schema.NullOr(Schema.String),
  password_changed_at: Schema.NullOr(Schema.String)
})
export type LoginRow = typeof LoginRow.Type

/** The login a row holds (its password hash stays in storage). */
export const toLogin = (row: LoginRow): Login => ({
  id: row.id,
  email: row.email,
  participantSlug: row.participant_slug,
  passwordChangedAt: row.password_changed_at
})

/** Decodes a row a statement returned. */
export const decodeLogin = Schema.decodeUnknownEffect(LoginRow)

/** A row of `login_links`, with its login's address. */
export const LinkRow = Schema.Struct({
  purpose: Schema.Literals(linkPurposes),
  expires_at: Schema.String,
  used_at: Schema.NullOr(Schema.String),
  replaced_at: Schema.NullOr(Schema.String),
  login_id: Schema.String,
  email: Schema.String
})
export type LinkRow = typeof LinkRow.Type

/** The statements over logins and their links, for one SqlClient. */
export const loginRows = (sql: SqlClient.SqlClient) => {
  const loginColumns = sql.literal("id, email, participant_slug, password_hash, password_changed_at")

  const loginWhere = (column: "id" | "email_key" | "participant_slug") => {
    const find = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: LoginRow,
      execute: (value) => sql`SELECT ${loginColumns} FROM participant_logins WHERE ${sql(column)} = ${value}`
    })
    return (value: string) =>
      find(value).pipe(
        Effect.map(Option.getOrUndefined),
        Effect.catchTag("SchemaError", undecodableRow("participant_logins", `${column} ${value}`))
      )
  }
  const loginById = loginWhere("id")
  const loginByEmailKey = loginWhere("email_key")
  const loginByParticipant = loginWhere("participant_slug")

  /**
   * The participant's login, locked until the transaction ends, so two links issued at once for
   * one login cannot both survive. SQLite needs no lock: its write transactions run one at a
   * time (BEGIN IMMEDIATE), in every process.
   */
  const forUpdate = sql.onDialectOrElse({ sqlite: () => sql.literal(""), orElse: () => sql.literal("FOR UPDATE") })
  const lockedLoginOf = (participantSlug: string) =>
    SqlSchema.findOneOption({
      Request: Schema.String,
      Result: LoginRow,
      execute: (slug) =>
        sql`SELECT ${loginColumns} FROM participant_logins WHERE participant_slug = ${slug} ${forUpdate}`
    })(participantSlug).pipe(
      Effect.map(Option.getOrUndefined),
      Effect.catchTag("SchemaError", undecodableRow("participant_logins", `participant_slug ${participantSlug}`))
    )

  const linkRow = (tokenHash: string) =>
    SqlSchema.findOneOption({
      Request: Schema.String,
      Result: LinkRow,
      execute: (hash) => sql`
        SELECT l.purpose, l.expires_at, l.used_at, l.replaced_at, l.login_id, p.email
        FROM login_links l JOIN participant_logins p ON p.id = l.login_id
        WHERE l.token_hash = ${hash}
      `
    })(tokenHash).pipe(
      Effect.map(Option.getOrUndefined),
      // The token's hash is not logged: it would let a reader of the logs find the row.
      Effect.catchTag("SchemaError", undecodableRow("login_links", "a link's token hash"))
    )

  /**
   * Stores a new link as the login's only usable one. The links it replaces, and used ones, are
   * kept until they expire, so opening one still says why it no longer works (`replaced`,
   * `used`); expired ones are dropped.
   */
  const replaceLinks = Effect.fnUntraced(function* (
    loginId: string,
    purpose: LinkPurpose,
    tokenHash: string,
    now: string,
    expiresAt: string
  ) {
    yield* sql`DELETE FROM login_links WHERE login_id = ${loginId} AND expires_at <= ${now}`
    yield* sql`
      UPDATE login_links SET replaced_at = ${now}
      WHERE login_id = ${loginId} AND used_at IS NULL AND replaced_at IS NULL
    `
    yield* sql`
      INSERT INTO login_links (token_hash, login_id, purpose, expires_at, used_at, created_at)
      VALUES (${tokenHash}, ${loginId}, ${purpose}, ${expiresAt}, NULL, ${now})
    `
  })

  const endSessionsOf = (loginId: string) => sql`DELETE FROM oauth_records WHERE account_id = ${loginId}`

  return {
    loginColumns,
    loginById,
    loginByEmailKey,
    loginByParticipant,
    lockedLoginOf,
    linkRow,
    replaceLinks,
    endSessionsOf
  }
}
