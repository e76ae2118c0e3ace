/**
 * Participant logins (email and password), the rules alone: what an email address and a password
 * must be, how long a one-time link lasts, how many failed sign-ins are tolerated. Pure: the
 * services (`services/logins/`, `services/passwords.ts`) apply them. docs/decisions/accounts.md says
 * why each value is what it is. It imports nothing, so the operator's command line
 * can quote the lifetimes without loading Effect.
 */
/** Longest address SMTP can deliver to (RFC 5321's path limit, less its brackets). */
export const maximumEmailLength = 254

/** Shortest password accepted, in Unicode code points. */
export const minimumPasswordLength = 12

/** Where a one-time link leads (`?token=…`): the page to choose a password, on the authorization server. */
export const choosePasswordPath = "/oauth/password"

/** Longest password accepted, in Unicode code points: memory-hard hashing of huge inputs is not offered. */
export const maximumPasswordLength = 1024

/** How long an invitation's one-time link stays usable. */
export const inviteLinkLifetimeMs = 7 * 24 * 3600_000

/** How long a reset's one-time link stays usable. */
export const resetLinkLifetimeMs = 3600_000

/** The fixed window failed sign-ins are counted over. */
export const signInWindowMs = 15 * 60_000

/** Failed sign-ins per login and window; the next attempt is refused unverified. */
export const accountFailureLimit = 5

/** Failed sign-ins per client address and window, whatever the accounts tried. */
export const addressFailureLimit = 20

/**
 * How long a browser that signed in stays trusted for its login (its device cookie): a year after
 * its last successful sign-in. A trusted browser's failures are counted apart from strangers'.
 */
export const deviceTrustMs = 365 * 24 * 3600_000

/** Failed sign-ins per trusted browser (device cookie) and window; the next attempt is refused unverified. */
export const deviceFailureLimit = 5

/** Where the device cookie is sent: the sign-in pages of the authorization server, under the base path. */
export const deviceCookiePath = "/oauth/interaction"

/** What a one-time link lets its holder do: choose a first password, or replace a forgotten one. */
export const linkPurposes = ["invite", "reset"] as const
export type LinkPurpose = (typeof linkPurposes)[number]

/** A participant's login as the services hand it out; its id is the OAuth subject (`sub`). */
export interface Login {
  readonly id: string
  /** The address as the operator gave it (trimmed); compared without case. */
  readonly email: string
  readonly participantSlug: string
  /** When a password was last chosen (ISO 8601); null while the invitation is unanswered. */
  readonly passwordChangedAt: string | null
}

/**
 * `local@domain`, the domain at least two dot-separated labels; no spaces, control characters or
 * second `@`. Deliberately loose: an address is proved by the link reaching it, not by a pattern.
 */
const plausibleEmail = /^[^\s@\p{Cc}]+@[^\s@.\p{Cc}]+(?:\.[^\s@.\p{Cc}]+)+$/u

/** The address as kept: what was given, trimmed. */
export const normalizeEmail = (email: string): string => email.trim()

/** What makes addresses the same login: case never tells two apart. */
export const emailKey = (email: string): string => normalizeEmail(email).toLowerCase()

/** Why `email` cannot be a login's address, as a sentence; undefined when it can. */
export const emailProblem = (email: string): string | undefined => {
  const trimmed = normalizeEmail(email)
  if (trimmed === "") return "Enter an email address."
  if ([...trimmed].length > maximumEmailLength) {
    return `Enter an email address of at most ${maximumEmailLength} characters.`
  }
  if (!plausibleEmail.test(trimmed)) return "Enter an email address such as name@example.com."
  return undefined
}

/**
 * Why `password` cannot be chosen, as a sentence for the person choosing it; undefined when it can.
 * Length is counted in code points, as a person counts characters (an emoji is one, not two).
 */
export const passwordProblem = (password: string): string | undefined => {
  const length = [...password].length
  if (length < minimumPasswordLength) return `Choose a password of at least ${minimumPasswordLength} characters.`
  if (length > maximumPasswordLength) return `Choose a password of at most ${maximumPasswordLength} characters.`
  return undefined
}

/**
 * The participant console (`/console`) is a first-party client of the embedded authorization
 * server: registered by the service itself (never dynamically), public (PKCE, no secret), and
 * trusted, so a person who signs in to it is not asked to approve it.
 */
export const consoleClient = {
  id: "task-marketplace-console",
  name: "Task Marketplace console",
  /** Where the console starts, and where sign-in returns (code + state) and sign-out ends. */
  path: "/console",
  callbackPath: "/console/callback",
  signedOutPath: "/console/signed-out"
} as const

/** Whether a path is the console's: its answers are pages (or its own JSON), never the API's envelope. */
export const isConsolePath = (path: string): boolean =>
  path === consoleClient.path || path.startsWith(`${consoleClient.path}/`)

/** The window sign-ups (`PARTICIPANT_SIGNUP=open`) are counted over, per client address. */
export const signUpWindowMs = 3600_000

/** Sign-up attempts per client address and window, whether they made an account or not. */
export const signUpLimit = 10
