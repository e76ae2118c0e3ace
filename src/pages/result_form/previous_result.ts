/** A previous result as the result form's values, to fill the form in again for a revision. */
import type { FormField, FormValues } from "./fields.ts"
import { isObject, type JsonObject } from "./schema_fields.ts"

/** Whole minutes without their `:00` seconds, as the browser's controls show them unless told to step by the second. */
const minutes = (text: string) => text.replace(/(\d{2}:\d{2}):00$/, "$1")

/** A date-time with a zone, as the browser's local date-time control shows it in UTC. */
const utcDateTime = (text: string): string | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}T/i.test(text) || Number.isNaN(Date.parse(text))) return undefined
  return minutes(new Date(text).toISOString().slice(0, 19))
}

const valueText = (field: FormField, value: unknown): ReadonlyArray<string> => {
  switch (field.kind) {
    case "text": {
      if (typeof value !== "string") return []
      if (field.format === "date-time") return [utcDateTime(value) ?? value]
      if (field.format === "time") return [minutes(value.replace(/(?:z|[+-]00:?00)$/i, ""))]
      if (field.input === "datetime-local" || field.input === "time") return [minutes(value)]
      return [value]
    }
    case "number":
      return typeof value === "number" ? [String(value)] : []
    case "boolean":
      return value === true ? ["true"] : []
    case "choice":
      return field.options.filter((o) => o.member === value).map((o) => o.value)
    case "choices":
      return Array.isArray(value) ? field.options.filter((o) => value.includes(o.member)).map((o) => o.value) : []
    case "list":
      return Array.isArray(value) ? [value.map(String).join("\n")] : []
    case "group":
      return []
    case "json":
      return value === undefined ? [] : [JSON.stringify(value, null, 2)]
  }
}

/**
 * A result's `fields` as the form's values (to fill the form in again for a revision): the
 * inverse of `readFormFields` for what the controls can show.
 */
export const formValuesOf = (
  fields: ReadonlyArray<FormField>,
  result: Readonly<Record<string, unknown>>
): FormValues => {
  const values = new Map<string, ReadonlyArray<string>>()
  const fill = (level: ReadonlyArray<FormField>, object: JsonObject) => {
    const listed = new Set(level.map((field) => field.path.at(-1)))
    for (const field of level) {
      if (field.kind === "json" && (field.holds === "members" || field.path.length === 0)) {
        const others =
          field.holds === "members"
            ? Object.fromEntries(Object.entries(object).filter(([key]) => !listed.has(key)))
            : object
        if (Object.keys(others).length > 0) values.set(field.name, [JSON.stringify(others, null, 2)])
        continue
      }
      const key = field.path.at(-1)
      if (key === undefined || !Object.hasOwn(object, key)) continue
      const value = object[key]
      if (field.kind === "group") {
        if (isObject(value)) fill(field.fields, value)
      } else {
        values.set(field.name, valueText(field, value))
      }
    }
  }
  fill(fields, result)
  return (name) => values.get(name) ?? []
}
