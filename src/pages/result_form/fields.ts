/**
 * The result form's own fields, generated from a task's `result_schema` (JSON Schema 2020-12): what
 * the participant console's Work page shows between the summary and the evidence. Pure: the
 * schema in, the fields out (`formFieldsOf`, schema_fields.ts); the fields as HTML controls with
 * what the person typed and the problems beside each (`renderFormFields`, render.ts); a submitted
 * form read back into the JSON `fields` object the schema describes (`readFormFields`, read.ts); a
 * service failure's JSON Pointer led to the control it concerns (`controlForPointer`, pointer.ts);
 * a previous result as the form's values (`formValuesOf`, previous_result.ts, for a revision).
 * This module holds what they share: the fields' types and the form's values.
 *
 * The page checks what HTML can say (`required`, `min`, `max`, `step`, `minlength`, `maxlength`, a
 * `pattern` only where the browser reads it as the service does); the service checks everything
 * again with the schema itself (src/domain/result_schema.ts), and its messages come back beside the
 * controls through `controlForPointer`. What the mapping cannot express becomes a JSON text box for
 * that property, so every schema the draft rules accept can still be answered from the page
 * (docs/decisions/result-form.md).
 *
 * Control names: `fields`, then each property key after a `.` (a key's own `%`, `.` and `*`
 * percent-encoded, so a name reads one way only): `fields.address.city`. An object's box for
 * properties it does not list is `<object>.*` (`fields.*`); a whole `fields` answered as JSON is
 * `fields`. No other control of the page should have a name starting with `fields`.
 */

interface FieldBase {
  /** The control's name (the group's, for a nested object): see this module's header. */
  readonly name: string
  /** The element id of its control (of its fieldset, for a group of radios, checkboxes or fields). */
  readonly id: string
  /** The property keys from the root of `fields` to this one (empty for the whole of `fields`). */
  readonly path: ReadonlyArray<string>
  /** The schema's `title`, else the property name made readable (`photo_count` → "Photo count"). */
  readonly label: string
  /** The schema's `description` and `examples`, and what the schema asks in words; shown under the label. */
  readonly hint: string | undefined
  /** Named in its object's `required`. */
  readonly required: boolean
  /**
   * Required here and in every object around it: the page asks for it (`required`, "(required)").
   * A required member of an optional object is required only once that object is given at all; a
   * confirmation's checkbox is asked for only where only `true` will do and it is required.
   */
  readonly enforced: boolean
}

/** A text input or a text area. */
export interface TextField extends FieldBase {
  readonly kind: "text"
  readonly input: "text" | "email" | "url" | "date" | "datetime-local" | "time"
  /** A text area: prose (see `isProse`). */
  readonly multiline: boolean
  /** The schema's `format` (date-time and time get seconds and a zone added on reading). */
  readonly format: string | undefined
  readonly minLength: number | undefined
  readonly maxLength: number | undefined
  /** The browser's `pattern`: the schema's, unanchored as JSON Schema reads it; only when the browser can read it. */
  readonly pattern: string | undefined
}

/** `type=number`. */
export interface NumberField extends FieldBase {
  readonly kind: "number"
  readonly integer: boolean
  readonly min: number | undefined
  readonly max: number | undefined
  /** `1` for an integer, the schema's `multipleOf` where the browser counts it the same, else `any`. */
  readonly step: string
}

/**
 * A checkbox, for a value that can only be `true` (`const: true`, e.g. a confirmation): checked is
 * `true`, unchecked is left out, and required means checked. Any other yes/no is a choice of Yes
 * and No (`yesNo`, schema_fields.ts): an untouched control must never answer "no".
 */
export interface BooleanField extends FieldBase {
  readonly kind: "boolean"
}

/** One value of an `enum` or `const`. */
export interface ChoiceOption {
  /** What the control posts: the string itself, or the JSON text of a number, boolean or null. */
  readonly value: string
  readonly label: string
  /** The JSON value it stands for. */
  readonly member: string | number | boolean | null
}

/** One value of an `enum` or a `const`: radio buttons when there are few, else a select. */
export interface ChoiceField extends FieldBase {
  readonly kind: "choice"
  readonly options: ReadonlyArray<ChoiceOption>
  readonly control: "radio" | "select"
}

/** An array of values from an `enum` of strings: checkboxes. */
export interface ChoicesField extends FieldBase {
  readonly kind: "choices"
  readonly options: ReadonlyArray<ChoiceOption>
}

/** An array of strings or numbers: a text area, one item a line. */
export interface ListField extends FieldBase {
  readonly kind: "list"
  readonly item: "string" | "number" | "integer"
  /** The schema's `minItems`: the page refuses an empty box only when it is at least 1. */
  readonly minItems: number | undefined
}

/** A nested object: a fieldset with its own fields. */
export interface GroupField extends FieldBase {
  readonly kind: "group"
  readonly fields: ReadonlyArray<FormField>
}

/**
 * JSON typed by the person: for a value the mapping cannot express (`value`, any JSON; `object`, a
 * JSON object — at the root, the whole of `fields`), or for the members of an object that it does
 * not list (`members`: a JSON object merged into that object).
 */
export interface JsonField extends FieldBase {
  readonly kind: "json"
  readonly holds: "value" | "object" | "members"
  /** For `members`: the keys its object lists (they have their own controls, so this box refuses them). */
  readonly listed: ReadonlyArray<string>
}

export type FormField =
  | TextField
  | NumberField
  | BooleanField
  | ChoiceField
  | ChoicesField
  | ListField
  | GroupField
  | JsonField

/** The values a form holds: every value posted under a control name, in order (none: empty). */
export type FormValues = (name: string) => ReadonlyArray<string>

/** A form nobody has filled in yet. */
export const noValues: FormValues = () => []
