/**
 * Secrets the service makes for itself and keeps in the database (`service_secrets`), so that every
 * process sharing it uses the same ones: made once, by whichever process gets there first.
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"

/** The secret called `name` (32 random bytes, base64url), made now if there is none yet. */
export const storedSecret = (name: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const candidate = randomBytes(32).toString("base64url")
    const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    yield* sql`
      INSERT INTO service_secrets (name, value, created_at) VALUES (${name}, ${candidate}, ${createdAt})
      ON CONFLICT (name) DO NOTHING
    `
    const { value } = yield* SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ value: Schema.String }),
      execute: (secret) => sql`SELECT value FROM service_secrets WHERE name = ${secret}`
    })(name)
    return value
  })

/** The secret the embedded authorization server signs its cookies and form tokens with. */
export class OAuthCookieSecret extends Context.Service<OAuthCookieSecret, { readonly value: string }>()(
  "task-marketplace/services/OAuthCookieSecret"
) {
  static readonly layer = Layer.effect(
    OAuthCookieSecret,
    Effect.map(Effect.orDie(storedSecret("oauth_cookies")), (value) => OAuthCookieSecret.of({ value }))
  )
}
