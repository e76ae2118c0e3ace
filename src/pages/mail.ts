/**
 * Mails as they are sent: a mail's content (domain/mail.ts, `MailContent`) in words, as a subject
 * and the same text as plain text and HTML, with the one-click unsubscribe a notification ends
 * with. The page kit's escaping makes the HTML; the rules of what is mailed stay in the domain.
 */
import type { MailContent } from "../domain/mail.ts"
import { escapeHtml } from "./html.ts"

/** A mail as it is sent: its subject, and the same words as plain text and HTML. */
export interface RenderedMail {
  readonly subject: string
  readonly text: string
  readonly html: string
}

/** A paragraph, a quoted message (its lines kept), or a link to follow with its label. */
type Block =
  | { readonly p: string }
  | { readonly quote: string; readonly by: string }
  | { readonly label: string; readonly url: string }

const when = (iso: string) => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`
}

/** "in 23 hours", "in 12 minutes": the time left between `now` and `iso`. */
export const timeLeft = (iso: string, now: number): string => {
  const ms = new Date(iso).getTime() - now
  if (!(ms > 0)) return "now"
  if (ms < 60_000) return "in less than a minute"
  const minutes = Math.round(ms / 60_000)
  if (minutes < 120) return `in ${minutes} minute${minutes === 1 ? "" : "s"}`
  const hours = Math.round(minutes / 60)
  if (hours < 48) return `in ${hours} hours`
  return `in ${Math.round(hours / 24)} days`
}

const contentOf = (mail: MailContent, now: number): { readonly subject: string; readonly blocks: Array<Block> } => {
  switch (mail.kind) {
    case "invitation":
      return {
        subject: "You are invited to the task marketplace",
        blocks: [
          { p: `Hello ${mail.name},` },
          {
            p: "You have been invited to take tasks on the task marketplace. Choose a password to sign in; the link works once, until it expires."
          },
          { label: "Choose your password", url: mail.url },
          { p: `The link expires ${when(mail.expiresAt)}.` }
        ]
      }
    case "password_reset":
      return {
        subject: "Choose a new password",
        blocks: [
          { p: "A new password was asked for your task marketplace account. Follow the link to choose one." },
          { label: "Choose a new password", url: mail.url },
          { p: `The link works once and expires ${when(mail.expiresAt)}. If you did not ask for it, ignore this mail.` }
        ]
      }
    case "sign_up_confirmation":
      return {
        subject: "Confirm your address",
        blocks: [
          { p: `Hello ${mail.name},` },
          {
            p: "Thank you for signing up to the task marketplace. Confirm that this address is yours; your profile is listed once the operator approves it."
          },
          { label: "Confirm my address", url: mail.url },
          { p: `The link expires ${when(mail.expiresAt)}. If you did not sign up, ignore this mail.` }
        ]
      }
    case "sign_up_approved":
      return {
        subject: "Your profile is approved",
        blocks: [
          { p: `Hello ${mail.name},` },
          { p: "The operator approved your profile: it is listed, and tasks can now be offered to you." },
          { label: "Open the console", url: mail.url }
        ]
      }
    case "address_has_account":
      return {
        subject: "You already have an account",
        blocks: [
          {
            p: "Someone signed up to the task marketplace with this address, which already has an account, so nothing was made. If it was you and you forgot your password, choose a new one:"
          },
          { label: "Choose a new password", url: mail.url },
          { p: `The link works once and expires ${when(mail.expiresAt)}. If it was not you, ignore this mail.` }
        ]
      }
    case "offer":
    case "offer_reminder":
      return {
        subject: mail.kind === "offer" ? `New offer: ${mail.title}` : `Reminder: the offer "${mail.title}" lapses soon`,
        blocks: [
          {
            p:
              mail.kind === "offer"
                ? `A task is offered to you: ${mail.title}.`
                : `The task offered to you, ${mail.title}, is still waiting for your answer.`
          },
          { p: `Where: ${mail.where}.` },
          {
            p: `Answer by ${when(mail.respondBy)} (${timeLeft(mail.respondBy, now)}); after that it is offered to someone else.`
          },
          { label: "See the offer", url: mail.url }
        ]
      }
    case "revision_requested":
      return {
        subject: `Revision requested: ${mail.title}`,
        blocks: [
          { p: `The agent asks for a revision of your result for ${mail.title}.` },
          { p: `Its reason: ${mail.reason}` },
          { label: "Open the task", url: mail.url }
        ]
      }
    case "result_accepted":
      return {
        subject: `Result accepted: ${mail.title}`,
        blocks: [
          { p: `Your result for ${mail.title} was accepted. Thank you.` },
          { label: "Open the task", url: mail.url }
        ]
      }
    case "result_rejected":
      return {
        subject: `Result rejected: ${mail.title}`,
        blocks: [
          { p: `Your result for ${mail.title} was rejected.` },
          ...(mail.reason === null ? [] : [{ p: `The reason given: ${mail.reason}` }]),
          { label: "Open the task", url: mail.url }
        ]
      }
    case "message": {
      const many = mail.messages.length > 1
      return {
        subject: many ? `New messages: ${mail.title}` : `New message: ${mail.title}`,
        blocks: [
          {
            p: many
              ? `The agent of the task "${mail.title}" wrote ${mail.messages.length} messages:`
              : `The agent of the task "${mail.title}" wrote:`
          },
          ...mail.messages.map((message) => ({ quote: message.body, by: `The agent, ${when(message.createdAt)}` })),
          { p: "Answer on the task's page; the agent reads it there." },
          { label: "Open the task", url: mail.url }
        ]
      }
    }
  }
}

/**
 * The mail as sent at `now` (the time left on an offer is counted from the sending): `unsubscribe`
 * is the one-click address a notification ends with (account mails have none).
 */
export const renderMail = (mail: MailContent, now: number, unsubscribe: string | undefined): RenderedMail => {
  const { subject, blocks } = contentOf(mail, now)
  const footer: Array<Block> =
    unsubscribe === undefined
      ? []
      : [
          { p: "You receive this mail because of your notification settings." },
          { label: "Unsubscribe", url: unsubscribe }
        ]
  const all = [...blocks, ...footer]
  const text = `${all
    .map((block) =>
      "p" in block
        ? block.p
        : "quote" in block
          ? `${block.by}:\n${block.quote
              .split("\n")
              .map((line) => `> ${line}`)
              .join("\n")}`
          : `${block.label}: ${block.url}`
    )
    .join("\n\n")}\n`
  // Laid out at the phone's own width, not a desktop's shrunk to fit, and a long unbroken word (an
  // address pasted into a message) wraps instead of running off the screen.
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="font-family:sans-serif;line-height:1.5;overflow-wrap:anywhere">${all
    .map((block) =>
      "p" in block
        ? `<p>${escapeHtml(block.p)}</p>`
        : "quote" in block
          ? `<p style="margin-bottom:0;color:#555">${escapeHtml(block.by)}:</p><blockquote style="margin:0 0 1em;padding-left:1em;border-left:3px solid #ccc;white-space:pre-wrap">${escapeHtml(block.quote)}</blockquote>`
          : `<p><a href="${escapeHtml(block.url)}">${escapeHtml(block.label)}</a></p>`
    )
    .join("")}</body></html>`
  return { subject, text, html }
}
