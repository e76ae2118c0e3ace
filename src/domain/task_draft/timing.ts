/**
 * The timing rule: the deadline read from a draft's free-text timing, and when a deadline has passed.
 *
 * - deadline: the latest valid ISO 8601 date or date-time in timing (a window ends at its latest
 *   instant); a date-time without zone is read as UTC with an `ambiguous` warning; a date alone means
 *   the end of that day UTC (23:59:59.999Z), without warning; 1–2 digit month/day, a space instead
 *   of "T", and a trailing " UTC"/" GMT" as zone are accepted, as agents commonly write them.
 * - Dates in other notations (12/01/2026, 2026/12/01, 01.12.2026) yield an `ambiguous` warning: no
 *   deadline is derived from them, and d/m vs m/d order cannot be known.
 */
import { matchesOf, show } from "./text.ts"

/**
 * Whether a deadline has passed at `now` (both ISO 8601 UTC as `toISOString` writes them, which
 * compare as text): the one rule for the draft check and for the dispatcher's `deadline_passed`.
 * A deadline equal to now has passed: nothing can be done by it any more.
 */
export const deadlinePassed = (deadline: string, now: string): boolean => deadline <= now

// ISO 8601 / RFC 3339 date or date-time inside free text. Every quantifier is bounded, so matching
// is linear in the (already length-limited) timing string.
const isoDateTime =
  /(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?!\d)(Z|z|[+-]\d{2}(?::?\d{2})?| ?(?:UTC|GMT)(?![A-Za-z\d+-]))?(?![\d:]))?/g
// Other notations that look like dates: d/m/y or m/d/y, y/m/d, d.m.yyyy.
const otherDate =
  /(?<![\d/.])(?:(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})|(\d{4})\/(\d{1,2})\/(\d{1,2})|(\d{1,2})\.(\d{1,2})\.(\d{4}))(?![\d/]|\.\d)/g
const MAX_DATE_TOKENS = 50

const isValidDate = (y: number, m: number, d: number): boolean => {
  if (m < 1 || m > 12 || d < 1) return false
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  return d <= days[m - 1]!
}

const utcMillis = (y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number => {
  const date = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  date.setUTCFullYear(y, mo - 1, d)
  date.setUTCHours(h, mi, s, ms)
  return date.getTime()
}

/** A date-time a week after `now`, to the hour, as an example of a deadline still ahead. */
export const laterExample = (now: string): string => {
  const later = new Date(Date.parse(now) + 7 * 24 * 3600_000)
  later.setUTCMinutes(0, 0, 0)
  return later.toISOString().replace(".000Z", "Z")
}

/** What timing says: the deadline read from it, and the warnings about dates it could not read. */
export interface TimingReading {
  readonly deadline: string | undefined
  readonly warnings: ReadonlyArray<string>
}

/** Reads the deadline and the date warnings out of a timing text. */
export const readTiming = (timing: string): TimingReading => {
  let latest: number | undefined
  let invalidToken: string | undefined
  let zonelessToken: string | undefined
  let otherToken: { readonly token: string; readonly orderAmbiguous: boolean } | undefined
  let count = 0
  for (const m of matchesOf(isoDateTime, timing, MAX_DATE_TOKENS + 1)) {
    if (++count > MAX_DATE_TOKENS) break
    const [token, ys, mos, ds, hs, mis, ss, frac, zone] = m
    const y = Number(ys)
    const mo = Number(mos)
    const d = Number(ds)
    if (!isValidDate(y, mo, d)) {
      invalidToken ??= token
      continue
    }
    if (hs === undefined || mis === undefined) {
      // A date alone: the task is due by the end of that day, in UTC.
      const end = utcMillis(y, mo, d, 23, 59, 59, 999)
      latest = latest === undefined ? end : Math.max(latest, end)
      continue
    }
    const h = Number(hs)
    const mi = Number(mis)
    const s = ss === undefined ? 0 : Number(ss)
    let offsetMinutes = 0
    let offsetValid = true
    // "Z", "UTC" and "GMT" (not followed by an offset such as "UTC+2") are offset zero.
    if (zone !== undefined && (zone[0] === "+" || zone[0] === "-")) {
      const digits = zone.slice(1).replace(":", "")
      const oh = Number(digits.slice(0, 2))
      const om = digits.length > 2 ? Number(digits.slice(2)) : 0
      offsetValid = oh <= 23 && om <= 59
      offsetMinutes = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om)
    }
    if (h > 23 || mi > 59 || s > 59 || !offsetValid) {
      invalidToken ??= token
      continue
    }
    if (zone === undefined) zonelessToken ??= token
    const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"))
    const instant = utcMillis(y, mo, d, h, mi, s, ms) - offsetMinutes * 60_000
    latest = latest === undefined ? instant : Math.max(latest, instant)
  }
  count = 0
  for (const m of matchesOf(otherDate, timing, MAX_DATE_TOKENS + 1)) {
    if (++count > MAX_DATE_TOKENS) break
    const [token, a, b, yShort, ymdY, ymdM, ymdD, dotD, dotM, dotY] = m
    let valid: boolean
    let orderAmbiguous = false
    if (a !== undefined && b !== undefined && yShort !== undefined) {
      const y = yShort.length === 2 ? 2000 + Number(yShort) : Number(yShort)
      const dayFirst = isValidDate(y, Number(b), Number(a))
      const monthFirst = isValidDate(y, Number(a), Number(b))
      valid = dayFirst || monthFirst
      orderAmbiguous = dayFirst && monthFirst && a !== b
    } else if (ymdY !== undefined) {
      valid = isValidDate(Number(ymdY), Number(ymdM), Number(ymdD))
    } else {
      valid = isValidDate(Number(dotY), Number(dotM), Number(dotD))
    }
    if (!valid) invalidToken ??= token
    else otherToken ??= { token, orderAmbiguous }
  }
  const warnings: Array<string> = []
  if (invalidToken !== undefined) {
    warnings.push(
      `timing contains ${show(invalidToken)}, which looks like a date but is not a valid one, so no deadline was derived from it; write a date-time such as "2030-12-01T17:00:00Z".`
    )
  }
  if (otherToken !== undefined) {
    warnings.push(
      `timing contains ${show(otherToken.token)}, which is not an ISO 8601 date${otherToken.orderAmbiguous ? " and whose day/month order is ambiguous" : ""}, so no deadline was derived from it; write it as YYYY-MM-DD, e.g. "2030-12-01T17:00:00Z".`
    )
  }
  if (zonelessToken !== undefined) {
    warnings.push(
      `timing contains ${show(zonelessToken)} without a time zone; it was read as UTC. Add "Z" or an offset such as "+01:00".`
    )
  }
  return { deadline: latest === undefined ? undefined : new Date(latest).toISOString(), warnings }
}
