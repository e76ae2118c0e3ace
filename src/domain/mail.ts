/**
 * The mails the service sends, the rules alone: each kind, what it carries, whether a participant
 * may turn it off, and its words (subject, plain text and HTML, in English). Transport-free: the
 * outbox (services/mail_outbox.ts) keeps a mail's content as written here and the sender renders it
 * when it sends (services/mail_sender.ts).
 *
 * Two families (docs/decisions/mail.md):
 * - account mails (an invitation, a password reset, a sign-up's confirmation, its approval, an
 *   address that already has an account): always sent, never an unsubscribe;
 * - notifications (an offer, its reminder, a revision request, a result accepted or rejected):
 *   each kind can be turned off by the participant, and every one carries a one-click unsubscribe
 *   (RFC 8058). An agent's new message on a task is one more notification kind whose mails are
 *   gathered (`gathering`, `gatherMessage`): the first after a quiet spell goes at once, later ones
 *   within ten minutes of the last mail go together in one mail.
 */
import * as Schema from "effect/Schema"
import { type ConversationFacts, threadsToRead } from "./messages.ts"

/** The notifications a participant may turn off, each on its own. */
export const notificationKinds = [
  "offer",
  "offer_reminder",
  "revision_requested",
  "result_accepted",
  "result_rejected",
  "message"
] as const
export type NotificationKind = (typeof notificationKinds)[number]

/** What each notification is called on the profile page and in an unsubscribe's answer. */
export const notificationTitles: { readonly [K in NotificationKind]: string } = {
  offer: "New offers",
  offer_reminder: "Reminders before an offer lapses",
  revision_requested: "Revision requests",
  result_accepted: "Results accepted",
  result_rejected: "Results rejected",
  message: "New messages from an agent"
}

export const isNotificationKind = (kind: string): kind is NotificationKind =>
  (notificationKinds as ReadonlyArray<string>).includes(kind)

/**
 * How mails of a kind are gathered: a task's messages, per task and participant, within ten
 * minutes. The first mail after a quiet spell (no mail of its key sent within the window) goes at
 * once; a later one is held until the window since the last mail sent is over, and every message
 * written meanwhile joins it (`gatherMessage`; the outbox's `gather_key` is `gatherKeyOf`).
 */
export const gathering: { readonly [K in NotificationKind]?: { readonly windowMs: number } } = {
  message: { windowMs: 10 * 60_000 }
}

/** The key a task's message mails to one participant are gathered under. */
export const gatherKeyOf = (reference: string, participantSlug: string): string =>
  `message:${reference}:${participantSlug}`

/** The mails of one gather key the outbox still holds or has sent, as the rule reads them. */
export interface GatherState {
  /**
   * The mails not sent yet: `claimed` while an attempt holds one (it may be on its way: nothing
   * can join it).
   */
  readonly pending: ReadonlyArray<{ readonly id: string; readonly claimed: boolean }>
  /** When the latest mail of the key was sent, or null when none was. */
  readonly lastSentAt: string | null
}

/** Where a new message goes: into a mail not sent yet, or a new mail due at `dueAt`. */
export type Gathered = { readonly _tag: "Join"; readonly id: string } | { readonly _tag: "New"; readonly dueAt: string }

/**
 * The gathering rule, for a message written at `now`: it joins a mail of its key that is not sent
 * yet and that no attempt holds; otherwise it starts a mail, sent at once after a quiet spell (no
 * mail sent within `windowMs`), or else when `windowMs` since the last mail sent is over. A mail
 * on its way counts as sent now.
 */
export const gatherMessage = (state: GatherState, now: number, windowMs: number): Gathered => {
  const open = state.pending.find((mail) => !mail.claimed)
  if (open !== undefined) return { _tag: "Join", id: open.id }
  const sentTimes = [
    ...(state.lastSentAt === null ? [] : [new Date(state.lastSentAt).getTime()]),
    ...(state.pending.length > 0 ? [now] : [])
  ].filter((t) => !Number.isNaN(t))
  const last = sentTimes.length === 0 ? undefined : Math.max(...sentTimes)
  const dueAt = last === undefined || now - last >= windowMs ? now : last + windowMs
  return { _tag: "New", dueAt: new Date(dueAt).toISOString() }
}

/** One message as a message mail holds it. */
export const MailedMessage = Schema.Struct({ body: Schema.String, createdAt: Schema.String })
export type MailedMessage = typeof MailedMessage.Type

/** A message mail with one more message, kept in the order they were written. */
export const withMessage = <C extends { readonly messages: ReadonlyArray<MailedMessage> }>(
  content: C,
  message: MailedMessage
): C => ({ ...content, messages: [...content.messages, message] })

const Link = { url: Schema.String, expiresAt: Schema.String }
const Offer = {
  reference: Schema.String,
  title: Schema.String,
  where: Schema.String,
  /** When the offer lapses (ISO 8601). */
  respondBy: Schema.String,
  url: Schema.String
}
const TaskNamed = { reference: Schema.String, title: Schema.String, url: Schema.String }

/** A mail's content, as the outbox keeps it until it is sent. */
export const MailContent = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("invitation"), name: Schema.String, ...Link }),
  Schema.Struct({ kind: Schema.Literal("password_reset"), ...Link }),
  Schema.Struct({ kind: Schema.Literal("sign_up_confirmation"), name: Schema.String, ...Link }),
  Schema.Struct({ kind: Schema.Literal("sign_up_approved"), name: Schema.String, url: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("address_has_account"), ...Link }),
  Schema.Struct({ kind: Schema.Literal("offer"), ...Offer }),
  Schema.Struct({ kind: Schema.Literal("offer_reminder"), ...Offer }),
  Schema.Struct({ kind: Schema.Literal("revision_requested"), ...TaskNamed, reason: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("result_accepted"), ...TaskNamed }),
  Schema.Struct({ kind: Schema.Literal("result_rejected"), ...TaskNamed, reason: Schema.NullOr(Schema.String) }),
  Schema.Struct({ kind: Schema.Literal("message"), ...TaskNamed, messages: Schema.Array(MailedMessage) })
])
export type MailContent = typeof MailContent.Type
export type MailKind = MailContent["kind"]

/** The domain a `Message-ID` is made under: MAIL_FROM's (`Name <a@b>` or `a@b`). */
export const messageIdDomainOf = (from: string): string => {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from
  return address.slice(address.lastIndexOf("@") + 1).trim() || "localhost"
}

/** A notification a task's move causes: for whom, what, and when it is due (null: at once). */
export interface WorkMail {
  readonly participantSlug: string
  readonly content: MailContent
  readonly dueAt: string | null
}

/** What a task's mails need of it (a StoredTask has it all). */
export interface MailedTask {
  readonly reference: string
  readonly state: string
  readonly participantSlug: string | null
  readonly offerExpiresAt: string | null
  readonly brief: { readonly action: string; readonly location: string | null }
  readonly history: ReadonlyArray<{
    readonly from: string | null
    readonly to: string
    readonly actor: string
    readonly reason?: string | undefined
  }>
}

/**
 * How long before an offer lapses its reminder goes: a quarter of the time given to answer, at
 * most two hours (so 22 hours into the default day).
 */
export const reminderLeadMs = (offerTimeoutMs: number): number => Math.min(2 * 3600_000, offerTimeoutMs / 4)

/** A task as mails name it: its action, on one line, at most 80 characters. */
export const titleOf = (task: Pick<MailedTask, "brief">) => {
  const action = task.brief.action.replace(/\s+/g, " ").trim()
  return action.length > 80 ? `${action.slice(0, 79)}…` : action
}

const afterPrefix = (reason: string | undefined, prefix: string): string | null => {
  if (reason === undefined) return null
  const rest = reason.startsWith(prefix) ? reason.slice(prefix.length) : reason
  return rest.trim() === "" ? null : rest.trim()
}

/**
 * The notifications of the states a write made the task enter (`entered`, in order, each the task
 * as it entered that state): an offer (and its reminder, due `reminderLeadMs` before it lapses), a
 * revision request, a result accepted or rejected. `taskUrl` is the task's console page.
 */
export const workMailsOf = (
  entered: ReadonlyArray<MailedTask>,
  offerTimeoutMs: number,
  taskUrl: (reference: string) => string
): Array<WorkMail> =>
  entered.flatMap((task): Array<WorkMail> => {
    const move = task.history[task.history.length - 1]
    const slug = task.participantSlug
    if (move === undefined || slug === null) return []
    const named = { reference: task.reference, title: titleOf(task), url: taskUrl(task.reference) }
    if (move.to === "awaiting_participant" && task.offerExpiresAt !== null) {
      const offer = { ...named, where: task.brief.location ?? "not tied to a place", respondBy: task.offerExpiresAt }
      const remindAt = new Date(new Date(task.offerExpiresAt).getTime() - reminderLeadMs(offerTimeoutMs)).toISOString()
      return [
        { participantSlug: slug, content: { kind: "offer", ...offer }, dueAt: null },
        { participantSlug: slug, content: { kind: "offer_reminder", ...offer }, dueAt: remindAt }
      ]
    }
    if (move.from === "submitted" && move.to === "in_flight" && move.actor === "agent") {
      const reason = afterPrefix(move.reason, "revision requested: ") ?? "(no reason given)"
      return [{ participantSlug: slug, content: { kind: "revision_requested", ...named, reason }, dueAt: null }]
    }
    if (move.from === "submitted" && move.to === "settled") {
      return [{ participantSlug: slug, content: { kind: "result_accepted", ...named }, dueAt: null }]
    }
    if (move.from === "submitted" && move.to === "declined") {
      const reason = afterPrefix(move.reason, "result_rejected: ")
      return [
        {
          participantSlug: slug,
          content: { kind: "result_rejected", ...named, reason: reason === "result_rejected" ? null : reason },
          dueAt: null
        }
      ]
    }
    return []
  })

/**
 * Whether a reminder of the offer in `content` is still worth sending: the task still awaits the
 * same participant's answer to the same offer.
 */
export const reminderStillDue = (
  content: { readonly respondBy: string },
  participantSlug: string,
  task: Pick<MailedTask, "state" | "participantSlug" | "offerExpiresAt"> | undefined
): boolean =>
  task !== undefined &&
  task.state === "awaiting_participant" &&
  task.participantSlug === participantSlug &&
  task.offerExpiresAt === content.respondBy

/**
 * Whether a message mail is still worth sending when it falls due: its participant still reads the
 * task's conversation (one who declined, or whose offer lapsed, no longer does; one whose task
 * ended with them still does).
 */
export const messageMailStillDue = (participantSlug: string, task: ConversationFacts | undefined): boolean =>
  task !== undefined && typeof threadsToRead(task, { _tag: "Participant", slug: participantSlug }) === "string"
