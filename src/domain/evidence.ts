/**
 * Rules for evidence, pure: what a link artifact's value must be, a participant's file name made
 * safe to keep and show, the `Content-Disposition` a download carries, and whether bytes are plain
 * UTF-8 text.
 */

/**
 * Why `value` is not a link an agent can follow, or undefined when it is one: an absolute `http`
 * or `https` URL (WHATWG parsing) with a host and without a user name or password. Anything else
 * (`javascript:`, `data:`, `ftp://`, a relative path, prose) would reach agents labelled as a URL.
 */
export const linkProblem = (value: string): string | undefined => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return "a url artifact's value must be an absolute http or https URL, e.g. https://example.com/report"
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `a url artifact's value must be an http or https URL, not ${url.protocol.slice(0, -1).slice(0, 20)}`
  }
  if (url.hostname === "") return "a url artifact's value must name a host"
  if (url.username !== "" || url.password !== "") {
    return "a url artifact's value must not carry a user name or password"
  }
  return undefined
}

/** The most characters (code points) a kept file name has. */
export const maxFileNameLength = 255

/** An extension at most this long is kept when a name is shortened. */
const maxKeptExtension = 16

/**
 * Control characters (C0, DEL, C1) and the invisible marks that reorder text (bidirectional
 * overrides, isolates, embeddings): a name showing `gpj.exe` as `exe.jpg` deceives its reader.
 */
const unsafeClass = "\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069"
const unsafeCharacters = new RegExp(`[${unsafeClass}]`, "gu")

/**
 * The names `safeFileName` keeps something of, as one pattern: the upload's `name` parameter is
 * declared by it (api/parameters.ts), so the document says which names are refused. The last
 * segment (after any `/` or `\\`) holds a character that is neither white space, a control or
 * reordering mark nor a dot; or its dots do not leave `.` or `..`: three of them, or two with white
 * space between (`. .`).
 */
export const usableFileNamePattern = new RegExp(
  `(?:[^\\s/\\\\.${unsafeClass}]|\\.[^/\\\\]*\\.[^/\\\\]*\\.|\\.[${unsafeClass}]*\\s[\\s${unsafeClass}]*\\.)[^/\\\\]*$`,
  "u"
)

/**
 * The name a file is kept and shown under: the last segment of what the participant sent (no
 * path), in Unicode's composed form, runs of white space as one space, without control characters
 * or reordering marks, trimmed, at most 255 characters (a long name loses the end of its stem, not
 * its extension). Undefined when nothing usable is left (empty, `.` or `..`).
 */
export const safeFileName = (given: string): string | undefined => {
  const segment = given.normalize("NFC").split(/[/\\]/u).pop() ?? ""
  // White space first (a tab or a line break becomes a space), then what is left unseen.
  const cleaned = segment.replace(/\s+/gu, " ").replace(unsafeCharacters, "").trim()
  if (cleaned === "" || cleaned === "." || cleaned === "..") return undefined
  const points = [...cleaned]
  if (points.length <= maxFileNameLength) return cleaned
  const dot = cleaned.lastIndexOf(".")
  const extension = dot > 0 ? [...cleaned.slice(dot)] : []
  return extension.length > 0 && extension.length <= maxKeptExtension
    ? points.slice(0, maxFileNameLength - extension.length).join("") + extension.join("")
    : points.slice(0, maxFileNameLength).join("")
}

/**
 * `Content-Disposition` for a download of `name`: always an attachment (a browser saves it rather
 * than showing it), with the name in RFC 8187's UTF-8 form and a plain ASCII fallback.
 */
export const attachmentDisposition = (name: string): string => {
  const fallback = name.replace(/[^\u0020-\u007e]|["\\%]/gu, "_")
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}

/**
 * Control characters plain text does not carry: all of C0 but tab, line feed, vertical tab, form
 * feed, carriage return and escape (terminal logs), and DEL.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const binaryControls = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/u

/** The media type kept for plain UTF-8 text. */
export const plainText = "text/plain; charset=utf-8"

/**
 * Tells, chunk by chunk, whether bytes are plain UTF-8 text: valid UTF-8 throughout (a character
 * split across chunks is fine) with no control character text does not carry. Empty is not text.
 */
export const makeTextDetector = () => {
  const decoder = new TextDecoder("utf-8", { fatal: true })
  let text = true
  let seen = false
  return {
    push(chunk: Uint8Array): void {
      if (!text || chunk.length === 0) return
      seen = true
      try {
        if (binaryControls.test(decoder.decode(chunk, { stream: true }))) text = false
      } catch {
        text = false
      }
    },
    /** Whether everything pushed was plain text (a character left unfinished at the end is not). */
    isText(): boolean {
      if (!text || !seen) return false
      try {
        decoder.decode()
        return true
      } catch {
        return false
      }
    }
  }
}
