/**
 * Device tokens: what a browser that has signed in to a login keeps (in a cookie) so that its later
 * sign-ins are counted apart from strangers' (sign_in.ts). Not a session.
 *
 * `d1.<login id>.<issued, epoch ms>.<device id>.<signature>`. The signature covers the login's
 * password change, so choosing a new password (a reset after a theft) distrusts every device.
 */
import { createHmac } from "node:crypto"

/** The version a device token starts with. */
export const deviceVersion = "d1"
/** A device token: its login id, issue time, device id and signature. */
export const devicePattern = /^d1\.(acct_[A-Za-z0-9_-]{1,64})\.(\d{1,16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/
/** The signature of a device token's parts and its login's password change, with `secret`. */
export const deviceSignature = (
  secret: string,
  loginId: string,
  issuedMs: string,
  deviceId: string,
  passwordChangedAt: string | null
) =>
  createHmac("sha256", secret)
    .update(`device|${loginId}|${issuedMs}|${deviceId}|${passwordChangedAt ?? ""}`)
    .digest("base64url")
