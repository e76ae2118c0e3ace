/**
 * Which notifications a participant receives (every kind, unless turned off on the profile page or
 * by an unsubscribe), and the one-click unsubscribe addresses notifications carry (RFC 8058):
 * `<PUBLIC_BASE_URL>/mail/unsubscribe/<token>`, the token naming the participant and the kind,
 * signed with a secret kept in the database (`mail_unsubscribe`), so it needs no row and works in
 * every process. It grants nothing but turning that one kind off.
 *
 * The same secret signs the address confirmation a sign-up is mailed
 * (`<PUBLIC_BASE_URL>/mail/confirm/<token>`): the token names the login, its address and when it
 * expires, and grants nothing but marking that address confirmed.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../config/app_config.ts"
import type { StorageUnavailable } from "../domain/errors.ts"
import { isNotificationKind, type NotificationKind, notificationKinds } from "../domain/mail.ts"
import { storedSecret } from "./service_secrets.ts"
import { storageCallFor } from "./storage.ts"

/** Where a one-click unsubscribe is answered. */
export const unsubscribePath = "/mail/unsubscribe"

/** Where a sign-up's address is confirmed. */
export const confirmPath = "/mail/confirm"

/** What a confirmation token names. */
export interface Confirmation {
  readonly loginId: string
  readonly email: string
  readonly expiresAt: string
}

/** What an unsubscribe token names. */
export interface Unsubscription {
  readonly participantSlug: string
  readonly kind: NotificationKind
}

export class MailPreferences extends Context.Service<
  MailPreferences,
  {
    /** The kinds the participant has turned off. */
    offFor(participantSlug: string): Effect.Effect<ReadonlyArray<NotificationKind>, StorageUnavailable>
    /** Turns the kinds given off, and every other kind on. */
    set(participantSlug: string, off: ReadonlyArray<NotificationKind>): Effect.Effect<void, StorageUnavailable>
    /** Turns one kind off (an unsubscribe); doing it again changes nothing. */
    turnOff(participantSlug: string, kind: NotificationKind): Effect.Effect<void, StorageUnavailable>
    /** The participant's one-click unsubscribe address for one kind. */
    unsubscribeUrl(participantSlug: string, kind: NotificationKind): Effect.Effect<string>
    /** What an unsubscribe token names, when it is one of ours; undefined otherwise. */
    readToken(token: string): Unsubscription | undefined
    /** The address where a sign-up confirms its address, until `expiresAt`. */
    confirmationUrl(confirmation: Confirmation): string
    /** What a confirmation token names, when it is one of ours (expired or not); undefined otherwise. */
    readConfirmation(token: string): Confirmation | undefined
  }
>()("task-marketplace/services/MailPreferences") {
  static readonly layer = Layer.effect(
    MailPreferences,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const secret = yield* Effect.orDie(storedSecret("mail_unsubscribe"))
      const sign = (payload: string) => createHmac("sha256", secret).update(payload).digest().subarray(0, 18)

      const tokenOf = (participantSlug: string, kind: NotificationKind) => {
        const payload = `${participantSlug}/${kind}`
        return `${Buffer.from(payload).toString("base64url")}.${sign(payload).toString("base64url")}`
      }

      const readToken = (token: string): Unsubscription | undefined => {
        const match = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{24})$/.exec(token)
        if (match === null) return undefined
        const payload = Buffer.from(match[1]!, "base64url").toString()
        const given = Buffer.from(match[2]!, "base64url")
        if (given.length !== 18 || !timingSafeEqual(given, sign(payload))) return undefined
        if (payload.includes("\n")) return undefined
        const slash = payload.lastIndexOf("/")
        const kind = payload.slice(slash + 1)
        if (slash <= 0 || !isNotificationKind(kind)) return undefined
        return { participantSlug: payload.slice(0, slash), kind }
      }

      // A confirmation's payload starts with `confirm\n`: no unsubscribe payload does (a slug has no
      // line break), so neither token passes for the other.
      const confirmationTokenOf = ({ loginId, email, expiresAt }: Confirmation) => {
        const payload = `confirm\n${loginId}\n${email}\n${expiresAt}`
        return `${Buffer.from(payload).toString("base64url")}.${sign(payload).toString("base64url")}`
      }

      const readConfirmation = (token: string): Confirmation | undefined => {
        const match = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{24})$/.exec(token)
        if (match === null) return undefined
        const payload = Buffer.from(match[1]!, "base64url").toString()
        const given = Buffer.from(match[2]!, "base64url")
        if (given.length !== 18 || !timingSafeEqual(given, sign(payload))) return undefined
        const [tag, loginId, email, expiresAt, ...rest] = payload.split("\n")
        if (tag !== "confirm" || rest.length > 0 || !loginId || !email || !expiresAt) return undefined
        return { loginId, email, expiresAt }
      }

      const offFor = Effect.fn("MailPreferences.offFor")(
        (participantSlug: string) =>
          Effect.map(
            sql<{
              readonly kind: string
            }>`SELECT kind FROM mail_preferences WHERE participant_slug = ${participantSlug}`,
            (rows) => notificationKinds.filter((kind) => rows.some((row) => row.kind === kind))
          ),
        asStorageCall
      )

      const set = Effect.fn("MailPreferences.set")(
        (participantSlug: string, off: ReadonlyArray<NotificationKind>) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`DELETE FROM mail_preferences WHERE participant_slug = ${participantSlug}`
                const at = new Date(now).toISOString()
                const rows = [...new Set(off)].map((kind) => ({ participant_slug: participantSlug, kind, off_at: at }))
                if (Arr.isArrayNonEmpty(rows)) yield* sql`INSERT INTO mail_preferences ${sql.insert(rows)}`
              })
            )
          ),
        asStorageCall
      )

      const turnOff = Effect.fn("MailPreferences.turnOff")(
        (participantSlug: string, kind: NotificationKind) =>
          Effect.flatMap(
            Clock.currentTimeMillis,
            (now) => sql`
              INSERT INTO mail_preferences (participant_slug, kind, off_at)
              VALUES (${participantSlug}, ${kind}, ${new Date(now).toISOString()})
              ON CONFLICT (participant_slug, kind) DO NOTHING
            `
          ),
        asStorageCall
      )

      return MailPreferences.of({
        offFor,
        set,
        turnOff: (participantSlug, kind) => Effect.asVoid(turnOff(participantSlug, kind)),
        unsubscribeUrl: (participantSlug, kind) =>
          Effect.succeed(`${config.publicBaseUrl}${unsubscribePath}/${tokenOf(participantSlug, kind)}`),
        readToken,
        confirmationUrl: (confirmation) => `${config.publicBaseUrl}${confirmPath}/${confirmationTokenOf(confirmation)}`,
        readConfirmation
      })
    })
  )
}
