/** The result form's fields as HTML controls, with what the person typed and the problem beside each. */
import { type Html, html } from "../html.ts"
import type { FormField, FormValues } from "./fields.ts"

const hintId = (field: FormField) => `${field.id}-hint`
const errorId = (field: FormField) => `${field.id}-error`

const describedBy = (field: FormField, problem: string | undefined) => {
  const ids = [field.hint !== undefined && hintId(field), problem !== undefined && errorId(field)].filter(
    (id): id is string => typeof id === "string"
  )
  return ids.length === 0 ? undefined : html` aria-describedby="${ids.join(" ")}"`
}

const invalid = (problem: string | undefined) => problem !== undefined && html` aria-invalid="true"`

const requiredMark = (field: FormField) => field.enforced && html` <span class="req">(required)</span>`

const hintOf = (field: FormField) =>
  field.hint !== undefined &&
  html`<p class="hint prose" id="${hintId(field)}">${field.hint}</p>
`

const errorOf = (field: FormField, problem: string | undefined) =>
  problem !== undefined &&
  html`<p class="field-error" id="${errorId(field)}"><span class="visually-hidden">Error: </span>${problem}</p>
`

const attribute = (name: string, value: string | number | undefined) => value !== undefined && html` ${name}="${value}"`

const flag = (name: string, on: boolean) => on && html` ${name}`

/** A control with its label, hint and error, in that order (the error just above the control). */
const labelled = (field: FormField, problem: string | undefined, control: Html) => html`<div class="field">
<label for="${field.id}">${field.label}${requiredMark(field)}</label>
${hintOf(field)}${errorOf(field, problem)}${control}
</div>
`

/** Radio buttons or checkboxes in a fieldset, its legend the field's label. */
const group = (
  field: FormField,
  problem: string | undefined,
  choices: ReadonlyArray<Html>
) => html`<fieldset class="field choices" id="${field.id}"${describedBy(field, problem)}>
<legend>${field.label}${requiredMark(field)}</legend>
${hintOf(field)}${errorOf(field, problem)}${choices}</fieldset>
`

/** A text area's text: after a line break, which the HTML parser drops, so a leading one of the text stays. */
const textareaText = (text: string) => html`
${text}`

const choiceRow = (id: string, input: Html, label: string | Html) =>
  html`<div class="choice">${input}<label for="${id}">${label}</label></div>
`

const renderField = (
  field: FormField,
  values: FormValues,
  problems: ReadonlyMap<string, string>
): Html | ReadonlyArray<Html> => {
  const problem = problems.get(field.name)
  const given = values(field.name)
  const first = given[0] ?? ""
  const aria = html`${describedBy(field, problem)}${invalid(problem)}`
  switch (field.kind) {
    case "text": {
      const common = html`id="${field.id}" name="${field.name}"${flag("required", field.enforced)}${attribute("minlength", field.minLength)}${attribute("maxlength", field.maxLength)}`
      // The browser's date-time and time controls step by the minute unless told that seconds count.
      const step = /\d{2}:\d{2}:\d{2}/.test(first) ? attribute("step", 1) : undefined
      return labelled(
        field,
        problem,
        field.multiline
          ? html`<textarea ${common} rows="5"${aria}>${textareaText(first)}</textarea>`
          : html`<input ${common} type="${field.input}"${attribute("pattern", field.pattern)}${step}${
              field.input === "email" || field.input === "url"
                ? html` autocapitalize="none" spellcheck="false"`
                : undefined
            } autocomplete="off"${aria} value="${first}">`
      )
    }
    case "number": {
      // A phone's digits-only keyboard has no minus key: only for values that cannot be negative.
      const nonNegative = field.min !== undefined && field.min >= 0
      const mode = nonNegative ? (field.integer ? "numeric" : "decimal") : undefined
      return labelled(
        field,
        problem,
        html`<input id="${field.id}" name="${field.name}" type="number" step="${field.step}"${attribute("min", field.min)}${attribute("max", field.max)}${attribute("inputmode", mode)}${flag("required", field.enforced)} autocomplete="off"${aria} value="${first}">`
      )
    }
    case "boolean":
      return html`<div class="field">
${choiceRow(
  field.id,
  html`<input type="checkbox" id="${field.id}" name="${field.name}" value="true"${flag("checked", first === "true")}${flag("required", field.enforced)}${aria}>`,
  html`${field.label}${requiredMark(field)}`
)}${hintOf(field)}${errorOf(field, problem)}</div>
`
    case "choice": {
      if (field.control === "select") {
        const options = field.options.map(
          (option) =>
            html`<option value="${option.value}"${flag("selected", given.includes(option.value))}>${option.label}</option>`
        )
        return labelled(
          field,
          problem,
          html`<select id="${field.id}" name="${field.name}"${flag("required", field.enforced)}${aria}>
<option value="">${field.enforced ? "Choose…" : "No answer"}</option>
${options}</select>`
        )
      }
      const radio = (id: string, value: string, label: string, checked: boolean) =>
        choiceRow(
          id,
          html`<input type="radio" id="${id}" name="${field.name}" value="${value}"${flag("checked", checked)}${flag("required", field.enforced)}${invalid(problem)}>`,
          label
        )
      const chosen = field.options.some((option) => given.includes(option.value))
      return group(field, problem, [
        ...field.options.map((option, i) =>
          radio(`${field.id}-${i}`, option.value, option.label, given.includes(option.value))
        ),
        // An optional choice can be taken back: without script, a chosen radio button cannot be unchosen.
        ...(field.enforced ? [] : [radio(`${field.id}-none`, "", "No answer", !chosen)])
      ])
    }
    case "choices":
      return group(
        field,
        problem,
        field.options.map((option, i) =>
          choiceRow(
            `${field.id}-${i}`,
            html`<input type="checkbox" id="${field.id}-${i}" name="${field.name}" value="${option.value}"${flag("checked", given.includes(option.value))}${invalid(problem)}>`,
            option.label
          )
        )
      )
    case "list":
      return labelled(
        field,
        problem,
        html`<textarea id="${field.id}" name="${field.name}" rows="4"${flag("required", field.enforced && (field.minItems ?? 0) > 0)} autocomplete="off"${aria}>${textareaText(first)}</textarea>`
      )
    case "group":
      return html`<fieldset class="group" id="${field.id}"${describedBy(field, problem)}>
<legend>${field.label}${requiredMark(field)}</legend>
${hintOf(field)}${errorOf(field, problem)}${field.fields.map((inner) => renderField(inner, values, problems))}</fieldset>
`
    case "json":
      return labelled(
        field,
        problem,
        html`<textarea class="code" id="${field.id}" name="${field.name}" rows="6" spellcheck="false" autocapitalize="none" autocomplete="off"${flag("required", field.enforced)}${aria}>${textareaText(first)}</textarea>`
      )
  }
}

/**
 * The fields as HTML controls, with the values the person typed (`values`, by control name) and the
 * problem to show beside each (`problems`, by control name: from `readFormFields`, or a service
 * failure led there by `controlForPointer`). Each is labelled, hinted (`aria-describedby`) and
 * marked invalid where it has a problem; the caller puts them inside its form.
 */
export const renderFormFields = (
  fields: ReadonlyArray<FormField>,
  values: FormValues,
  problems: ReadonlyMap<string, string>
): Html => html`${fields.map((field) => renderField(field, values, problems))}`
