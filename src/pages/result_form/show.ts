/**
 * A result's `fields` as a person reads them: each under its title from the task's `result_schema`
 * (the form's labels, schema_fields.ts), each value in words — Yes and No, an option's label, a list
 * as a list, a nested object as its own terms; members the schema does not name under their names
 * made readable. Pure: the fields of the form and the values in, HTML out. Shown where the result is
 * read back (the participant console's task page).
 */
import { type Html, html } from "../html.ts"
import type { FormField } from "./fields.ts"
import { isObject, type JsonObject, readableName } from "./schema_fields.ts"

const json = (value: unknown) => html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`

/** A value no field describes: text as itself, yes/no in words, anything else as JSON. */
const plain = (value: unknown): Html | string =>
  typeof value === "string"
    ? value
    : typeof value === "number"
      ? String(value)
      : typeof value === "boolean"
        ? value
          ? "Yes"
          : "No"
        : value === null
          ? "None"
          : json(value)

const shownValue = (field: FormField, value: unknown): Html | string => {
  switch (field.kind) {
    case "boolean":
      return value === true ? "Yes" : plain(value)
    case "choice":
      return field.options.find((option) => option.member === value)?.label ?? plain(value)
    case "choices":
      return Array.isArray(value)
        ? value
            .map((member) => field.options.find((option) => option.member === member)?.label ?? String(member))
            .join(", ")
        : plain(value)
    case "list":
      return Array.isArray(value) ? html`<ul>${value.map((item) => html`<li>${plain(item)}</li>`)}</ul>` : plain(value)
    case "group":
      return isObject(value) ? terms(field.fields, value) : plain(value)
    case "text":
    case "number":
      return plain(value)
    case "json":
      return json(value)
  }
}

/** `values` as terms: the named fields in the schema's order, then the members it does not name. */
const terms = (fields: ReadonlyArray<FormField>, values: JsonObject): Html => {
  // The root's JSON box (the whole of `fields`) and the boxes for unnamed members name no member.
  const named = fields.filter((field) => field.path.length > 0 && !(field.kind === "json" && field.holds === "members"))
  const keys = new Set(named.map((field) => field.path.at(-1)))
  const rows = [
    ...named.flatMap((field) => {
      const key = field.path.at(-1)!
      return key in values ? [html`<dt>${field.label}</dt><dd>${shownValue(field, values[key])}</dd>`] : []
    }),
    ...Object.entries(values)
      .filter(([key]) => !keys.has(key))
      .map(([key, value]) => html`<dt>${readableName(key)}</dt><dd>${plain(value)}</dd>`)
  ]
  return html`<dl class="brief">${rows}</dl>`
}

/** A result's fields under their titles, in words; nothing when there are none. */
export const showResultFields = (fields: ReadonlyArray<FormField>, values: JsonObject): Html | undefined =>
  Object.keys(values).length === 0 ? undefined : terms(fields, values)

/** What kind of answer a field asks for, in words. */
const askedFor = (field: FormField): string => {
  switch (field.kind) {
    case "text":
      return field.input === "date"
        ? "A date"
        : field.input === "datetime-local"
          ? "A date and time"
          : field.input === "time"
            ? "A time"
            : field.input === "email"
              ? "An email address"
              : field.input === "url"
                ? "A web address"
                : "Text"
    case "number":
      return field.integer ? "A whole number" : "A number"
    case "boolean":
      return "A confirmation"
    case "choice":
      return `One of: ${field.options.map((option) => option.label).join(", ")}`
    case "choices":
      return `Any of: ${field.options.map((option) => option.label).join(", ")}`
    case "list":
      return field.item === "string" ? "A list" : "A list of numbers"
    case "group":
      return "Several details"
    case "json":
      return "Structured data (JSON)"
  }
}

/** The fields a person is asked for by name: not the boxes for members nobody named. */
const named = (fields: ReadonlyArray<FormField>) =>
  fields.filter((field) => !(field.kind === "json" && field.holds === "members"))

const describe = (fields: ReadonlyArray<FormField>): Html =>
  html`<ul class="asked">${named(fields).map(
    (field) =>
      html`<li><strong>${field.path.length === 0 ? "Your answer" : field.label}</strong>${field.required && " (required)"}: ${askedFor(field)}.${field.hint !== undefined && html` <span class="small">${field.hint}</span>`}${field.kind === "group" && describe(field.fields)}</li>`
  )}</ul>`

/** What a task's result asks for, read-only, before a person takes the task; nothing when it asks for no fields. */
export const describeResultFields = (fields: ReadonlyArray<FormField>): Html | undefined =>
  named(fields).length === 0 ? undefined : describe(fields)
