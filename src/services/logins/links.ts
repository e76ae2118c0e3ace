/**
 * One-time links' tokens: 256 random bits handed out once, in the link's URL; the database keeps
 * only their SHA-256, so a reader of the database cannot use a link.
 */
import { hash as oneShotHash, randomBytes } from "node:crypto"
import type { LinkUnusableReason } from "../../domain/errors.ts"
import { choosePasswordPath } from "../../domain/login.ts"
import type { LinkRow } from "./rows.ts"

/** 32 random bytes, base64url: what a link carries; the database keeps only its SHA-256. */
export const tokenPattern = /^[A-Za-z0-9_-]{43}$/
/** SHA-256 of a text, base64url: how a link's token (and an unknown address, for throttling) is kept. */
export const hashOf = (text: string) => oneShotHash("sha256", text, "base64url")
/** A new link token. */
export const newToken = () => randomBytes(32).toString("base64url")
/** The URL of the page where a link's token chooses a password. */
export const linkUrlOf = (publicBaseUrl: string, token: string) =>
  `${publicBaseUrl}${choosePasswordPath}?token=${token}`

/** Why a link cannot be used at `now`; undefined when it can. */
export const unusable = (row: LinkRow | undefined, now: string): LinkUnusableReason | undefined =>
  row === undefined
    ? "unknown"
    : row.used_at !== null
      ? "used"
      : row.replaced_at !== null
        ? "replaced"
        : row.expires_at <= now
          ? "expired"
          : undefined
