/**
 * The public address a server serves under (PUBLIC_BASE_URL, or the address made from HOST and
 * PORT), recorded in the database when the server starts. A one-shot command run in another
 * environment — the operator tool in a shell without the server's variables — writes its links
 * (an invitation, a reset) to that address, not to a default the server does not listen on.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import { AppConfig } from "../config/app_config.ts"

const fact = "public_base_url"

/** Records this server's public address (the last server started says it). */
export const PublicAddressSeed = Layer.effectDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { publicBaseUrl } = yield* AppConfig
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    yield* sql`
      INSERT INTO service_facts (name, value, updated_at) VALUES (${fact}, ${publicBaseUrl}, ${now})
      ON CONFLICT (name) DO UPDATE SET value = ${publicBaseUrl}, updated_at = ${now}
    `
  }).pipe(Effect.orDie)
)

/** The public address the last server started recorded, if any has. */
export const recordedPublicAddress = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const row = yield* SqlSchema.findOneOption({
    Request: Schema.String,
    Result: Schema.Struct({ value: Schema.String }),
    execute: (name) => sql`SELECT value FROM service_facts WHERE name = ${name}`
  })(fact)
  return row._tag === "Some" ? row.value.value : undefined
})
