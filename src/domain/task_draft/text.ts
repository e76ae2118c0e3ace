/** Text helpers of the draft rules: how user text is measured, scanned and quoted in messages. */

/** Renders a user-supplied value for a message: quoted, at most `max` code points. */
export const show = (s: string, max = 60): string => {
  // Slice before Array.from so a 5 MiB value costs O(max), not O(n).
  const points = Array.from(s.length > max * 2 ? s.slice(0, max * 2) : s)
  return JSON.stringify(points.length > max ? `${points.slice(0, max).join("")}…` : points.join(""))
}

/** Renders an unknown member's name for a message: single-quoted, at most 64 code points. */
export const showKey = (key: string): string => {
  const points = Array.from(key.length > 128 ? key.slice(0, 128) : key)
  return `'${points.length > 64 ? `${points.slice(0, 64).join("")}…` : points.join("")}'`
}

/** The JSON type of a value, with its article, for a message ("an array", "a number"). */
export const jsonType = (value: unknown): string =>
  Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`

/** Code points in `s`; a lone surrogate counts as one, as in `Schema.isMaxCodePoints`. */
const codePointLength = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

/** The code points in `s` when over `max`; `undefined` when within it. */
export const exceeds = (s: string, max: number): number | undefined => {
  // A string never has more code points than UTF-16 units: the common case needs no counting.
  if (s.length <= max) return undefined
  const n = codePointLength(s)
  return n > max ? n : undefined
}

/**
 * The matches of a global regular expression in `text`, at most `limit`, in order: what
 * `text.matchAll(re)` gives, without the copy of `re` that matchAll makes on every call (a third
 * of a timing's reading; docs/performance.md). `re` is left as found (lastIndex 0); none of
 * these expressions matches the empty string.
 */
export const matchesOf = (re: RegExp, text: string, limit: number): Array<RegExpExecArray> => {
  const found: Array<RegExpExecArray> = []
  re.lastIndex = 0
  for (let m = re.exec(text); m !== null && found.length < limit; m = re.exec(text)) found.push(m)
  re.lastIndex = 0
  return found
}
