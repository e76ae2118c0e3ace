/** A submitted result form read back into the JSON `fields` object its schema describes. */
import type { FormField, FormValues } from "./fields.ts"
import { isObject, type JsonObject } from "./schema_fields.ts"

/** A value read from a control, and whether the person gave it. */
interface Read {
  readonly value: unknown
  readonly given: boolean
}

const absent: Read = { value: undefined, given: false }

const setMember = (target: Record<string, unknown>, key: string, value: unknown) => {
  // A key such as `__proto__` stays a member.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

const localDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/
const localTime = /^\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/

/** What the browser's date-time and time controls give, as the schema's format reads it (seconds; UTC where a zone is needed). */
const asFormat = (text: string, format: string | undefined) => {
  const withSeconds = (t: string) => (/T\d{2}:\d{2}$|^\d{2}:\d{2}$/.test(t) ? `${t}:00` : t)
  switch (format) {
    case "date-time":
      return localDateTime.test(text) ? `${withSeconds(text)}Z` : text
    case "iso-date-time":
      return localDateTime.test(text) ? withSeconds(text) : text
    case "time":
      return localTime.test(text) ? `${withSeconds(text)}Z` : text
    case "iso-time":
      return localTime.test(text) ? withSeconds(text) : text
    default:
      return text
  }
}

/** Text as the person meant it: the browser's CRLF as LF, surrounding spaces (a phone keyboard's) dropped. */
const cleanText = (text: string) => text.replace(/\r\n?/g, "\n").trim()

const parseNumber = (text: string): number | undefined => {
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(text)) return undefined
  const n = Number(text)
  return Number.isFinite(n) ? n : undefined
}

type Problems = Map<string, string>

const readField = (field: FormField, form: FormValues, problems: Problems): Read => {
  const first = form(field.name)[0]
  const text = first === undefined ? "" : cleanText(first)
  switch (field.kind) {
    case "text":
      return text === "" ? absent : { value: asFormat(text, field.format), given: true }
    case "number": {
      if (text === "") return absent
      const n = parseNumber(text)
      if (n === undefined) {
        problems.set(field.name, field.integer ? "Enter a whole number, like 12." : "Enter a number, like 12 or 3.5.")
        return absent
      }
      return { value: n, given: true }
    }
    case "boolean":
      return form(field.name).includes("true") ? { value: true, given: true } : absent
    case "choice": {
      if (text === "") return absent
      const option = field.options.find((o) => o.value === first || o.value === text)
      if (option === undefined) {
        problems.set(field.name, "Choose one of the options.")
        return absent
      }
      return { value: option.member, given: true }
    }
    case "choices": {
      const chosen = form(field.name).filter((value) => value !== "")
      const members: Array<unknown> = []
      for (const value of chosen) {
        const option = field.options.find((o) => o.value === value)
        if (option === undefined) {
          problems.set(field.name, "Choose among the options shown.")
          return absent
        }
        if (!members.includes(option.member)) members.push(option.member)
      }
      return members.length === 0 ? { value: [], given: false } : { value: members, given: true }
    }
    case "list": {
      const lines = text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
      if (field.item === "string")
        return lines.length === 0 ? { value: [], given: false } : { value: lines, given: true }
      const items: Array<number> = []
      for (const [i, line] of lines.entries()) {
        const n = parseNumber(line)
        if (n === undefined) {
          problems.set(field.name, `Line ${i + 1} (“${clip(line)}”) is not a number: write one number a line.`)
          return absent
        }
        items.push(n)
      }
      return items.length === 0 ? { value: [], given: false } : { value: items, given: true }
    }
    case "group": {
      const object: Record<string, unknown> = {}
      let given = false
      for (const inner of field.fields) {
        const read = readField(inner, form, problems)
        given ||= read.given
        merge(object, inner, read, problems)
      }
      return { value: object, given }
    }
    case "json": {
      if (text === "") return absent
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch (error) {
        problems.set(
          field.name,
          `This is not valid JSON: ${error instanceof Error ? clip(error.message, 120) : "it does not parse"}.`
        )
        return absent
      }
      if (field.holds !== "value" && !isObject(value)) {
        problems.set(field.name, 'Write a JSON object: {"name": value, …}.')
        return absent
      }
      return { value, given: true }
    }
  }
}

const clip = (text: string, max = 40) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/**
 * Puts what `field` read into its object: its member when given (or when it always has a value: a
 * required list, choices or group), the members of a `members` box alongside the listed ones.
 */
const merge = (object: Record<string, unknown>, field: FormField, read: Read, problems: Problems) => {
  if (field.kind === "json" && field.holds === "members") {
    if (!read.given) return
    const members = read.value as JsonObject
    const taken = Object.keys(members).filter((key) => field.listed.includes(key))
    if (taken.length > 0) {
      problems.set(
        field.name,
        `${taken.map((key) => `“${clip(key)}”`).join(", ")} ${taken.length === 1 ? "has its own field" : "have their own fields"} above: fill ${taken.length === 1 ? "it" : "them"} in there.`
      )
      return
    }
    for (const key of Object.keys(members)) setMember(object, key, members[key])
    return
  }
  const key = field.path.at(-1)
  if (key === undefined) {
    // The whole of `fields`, typed as one JSON object.
    if (read.given) for (const [k, value] of Object.entries(read.value as JsonObject)) setMember(object, k, value)
    return
  }
  const keep =
    read.given ||
    (read.value !== undefined &&
      field.required &&
      (field.kind === "list" || field.kind === "choices" || field.kind === "group"))
  if (keep) setMember(object, key, read.value)
}

/**
 * What a submitted form says, as the JSON `fields` object the schema describes, and problems (by
 * control name) for values that cannot even be read: a number that is not one, JSON that does not
 * parse, an option that was not offered. Empty controls are left out (a yes/no nobody answered, an
 * unchecked box); an optional object nobody filled in is left out,
 * a required one is there (`{}` at least); an empty list is `[]` when required, else left out.
 * Everything else — required members, lengths, bounds, patterns, formats — is the service's to
 * judge with the schema itself.
 */
export const readFormFields = (
  fields: ReadonlyArray<FormField>,
  form: (name: string) => ReadonlyArray<string>
): { fields: Record<string, unknown>; problems: ReadonlyMap<string, string> } => {
  const problems: Problems = new Map()
  const object: Record<string, unknown> = {}
  for (const field of fields) merge(object, field, readField(field, form, problems), problems)
  return { fields: object, problems }
}
