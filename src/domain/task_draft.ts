/**
 * Task draft rules: the one pure rule set shared by preflight and task submission.
 *
 * The draft's members, limits and requirements are data (`draftFields`) so that validation,
 * `/capabilities` (`draftRules`) and the OpenAPI schemas (`TaskDraft`, `NormalizedDraft`) are derived
 * from a single definition instead of hand-kept copies (DECISIONS §9).
 *
 * `validateDraft` never throws and never decodes with a Schema: it inspects only the types of the
 * body's top-level members, so hostile bodies (huge strings, `__proto__` keys, deep nesting) cost
 * linear time and cannot pollute prototypes.
 *
 * Decisions where the contract is silent (to be carried into the project docs):
 * - Lengths are counted in Unicode code points (what JSON Schema `maxLength` means), on the trimmed value.
 * - JSON null counts as missing: no issue for an optional member, `required` for a required one.
 * - A member of the wrong JSON type gets one `invalid` issue (not also `required`) and is dropped.
 * - `too_long` replaces every other issue of that member; the member is dropped from `task`.
 * - A string containing U+0000 is `invalid`: PostgreSQL text/jsonb cannot store it, so accepting it
 *   here would turn into a storage failure at submission.
 * - location is required only when execution_mode is valid and physical or hybrid; with a missing or
 *   invalid mode only the mode is reported.
 * - participant_slug is not lower-cased (slugs are identifiers); a near miss gets a "did you mean".
 * - deadline: the latest valid ISO 8601 date or date-time in timing (a window ends at its latest
 *   instant); a date-time without zone is read as UTC with an `ambiguous` warning; a date alone means
 *   the end of that day UTC (23:59:59.999Z), without warning; 1–2 digit month/day, a space instead
 *   of "T", and a trailing " UTC"/" GMT" as zone are accepted, as agents commonly write them.
 * - A deadline not after the caller's `now` (the service's clock) is a `deadline_passed` issue:
 *   the dispatcher would decline the task at once, by the same rule (`deadlinePassed`).
 * - Dates in other notations (12/01/2026, 2026/12/01, 01.12.2026) yield an `ambiguous` warning: no
 *   deadline is derived from them, and d/m vs m/d order cannot be known.
 * - Budget currency: any ISO 4217 code in capitals (USD), common codes in any case (usd), a currency
 *   symbol (Unicode Sc: $ € £ ¥ ₹ …) or a currency word (dollars, euros …). Lower-case three-letter
 *   words are not all treated as codes because many are English words (all, top, try, pen, mad …).
 * - A body member `deadline` equal to the derived deadline is accepted silently, so echoing the
 *   preflight `task` back as a submission is warning-free; otherwise it is `unrecognized`.
 * - At most 20 `unrecognized` warnings are listed individually; the rest are summarised in one.
 */
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import { RESULT_SCHEMA_MAX_BYTES, ResultSchema, resultSchemaProblem } from "./result_schema.ts"
import { WEBHOOK_URL_MAX, webhookUrlProblem } from "./webhooks.ts"

// ---------------------------------------------------------------------------------------------
// Execution modes
// ---------------------------------------------------------------------------------------------

export const executionModes = ["digital", "physical", "hybrid"] as const

export const ExecutionMode = Schema.Literals(executionModes).annotate({
  identifier: "ExecutionMode",
  description: "Where the work happens: digital (online only), physical (on site), hybrid (both)."
})
export type ExecutionMode = typeof ExecutionMode.Type

const isExecutionMode = (s: string): s is ExecutionMode => (executionModes as ReadonlyArray<string>).includes(s)

// ---------------------------------------------------------------------------------------------
// Issues
// ---------------------------------------------------------------------------------------------

/**
 * The issue codes as data: code → one-line meaning (served by /capabilities and the docs). The
 * meaning starts with where the code lands: "issue" (blocks the draft) or "warning" (advice).
 */
export const IssueCode = {
  required: "issue: a required member is missing, null, empty or whitespace-only",
  invalid: "issue: a member has the wrong JSON type or a value outside its allowed form",
  not_found: "issue: participant_slug names no participant",
  too_long:
    "issue: a string is over its length limit, counted in Unicode code points after trimming (result_schema: its JSON over its size limit in bytes)",
  deadline_passed:
    "issue: the deadline read from timing is not in the future: a task with it would be declined at once (deadline_passed)",
  recommended: "warning: a recommended member (timing, principal, agent) is missing",
  unrecognized: "warning: an unknown member is ignored; a close known member name is suggested",
  ambiguous: "warning: budget without a recognisable amount or currency, or timing with a date that cannot be read",
  no_eligible_participant:
    "warning: nobody can take the task (execution mode, location): a submitted task would be declined with no_match",
  participant_ineligible:
    "warning: participant_slug names a participant who does not take the task's execution mode or is not in its location",
  participant_unavailable:
    "warning: participant_slug names a participant who is not taking offers right now: a submitted task would be declined with no_match"
} as const satisfies Record<string, string>
export type IssueCode = keyof typeof IssueCode

/** Whether a code is reported in `issues` (blocking) or in `warnings`. */
export const issueSeverity: Readonly<Record<IssueCode, "issue" | "warning">> = {
  required: "issue",
  invalid: "issue",
  not_found: "issue",
  too_long: "issue",
  deadline_passed: "issue",
  recommended: "warning",
  unrecognized: "warning",
  ambiguous: "warning",
  no_eligible_participant: "warning",
  participant_ineligible: "warning",
  participant_unavailable: "warning"
}

/** "required, invalid, … (issues); recommended, … (warnings)": derived from the table above. */
const codesBySeverity = (["issue", "warning"] as const)
  .map(
    (severity) =>
      `${Object.keys(issueSeverity)
        .filter((code) => issueSeverity[code as IssueCode] === severity)
        .join(", ")} (${severity}s)`
  )
  .join("; ")

export const TaskIssue = Schema.Struct({
  field: Schema.String.annotate({ description: "name of the draft field concerned" }),
  code: Schema.String.annotate({
    description: codesBySeverity
  }),
  message: Schema.String.annotate({ description: "human-readable explanation and how to fix it" })
}).annotate({
  identifier: "TaskIssue",
  description: "A problem (issue) or advice (warning) about one member of a task draft."
})
export type TaskIssue = typeof TaskIssue.Type

const issue = (field: string, code: IssueCode, message: string): TaskIssue => ({ field, code, message })

// ---------------------------------------------------------------------------------------------
// Draft members as data
// ---------------------------------------------------------------------------------------------

export const draftMembers = [
  "action",
  "execution_mode",
  "location",
  "timing",
  "expected_result",
  "acceptance_test",
  "result_schema",
  "constraints",
  "participant_slug",
  "principal",
  "agent",
  "contact_email",
  "budget",
  "webhook_url",
  "idempotency_key"
] as const
export type DraftMember = (typeof draftMembers)[number]

export type DraftRequirement = "required" | "conditionally_required" | "recommended" | "optional"

export interface DraftField {
  readonly name: DraftMember
  /**
   * Maximum length in Unicode code points, after trimming; for a `json_schema` member, the maximum
   * size of its JSON in UTF-8 bytes.
   */
  readonly maxLength: number
  /** What the member holds: text (the default) or a JSON Schema object (result_schema). */
  readonly kind?: "json_schema"
  /** The published Notes (extended where the published document leaves them empty). */
  readonly description: string
  readonly requirement: DraftRequirement
  /** For `conditionally_required`: the member is required when execution_mode is one of these. */
  readonly when?: { readonly execution_mode: ReadonlyArray<ExecutionMode> }
  /** For `recommended`: the advice given in the warning when the member is missing. */
  readonly advice?: string
}

const LONG_TEXT = 4000
const SHORT_TEXT = 500
export const IDEMPOTENCY_KEY_MAX = 255
/**
 * The fewest characters (code points, after trimming) of an idempotency key (issue 33). A replay
 * hands back the task token, and a task's draft can be rebuilt from GET /tasks/{reference}, so the
 * key is what keeps a draft from being enough to act as the task's agent: a secret, not a label.
 */
export const IDEMPOTENCY_KEY_MIN = 16
/** The rule as every document, description and refusal words it. */
export const idempotencyKeyRule = `at least ${IDEMPOTENCY_KEY_MIN} characters; a UUID is recommended`
/** Whether a key, as read (trimmed), is too short to be a secret; counted as the maximum is. */
export const isIdempotencyKeyTooShort = (key: string): boolean => [...key].length < IDEMPOTENCY_KEY_MIN
const SLUG_MAX = 64

export const draftFields: ReadonlyArray<DraftField> = [
  {
    name: "action",
    maxLength: LONG_TEXT,
    description: "the single bounded action the person performs",
    requirement: "required"
  },
  {
    name: "execution_mode",
    maxLength: SHORT_TEXT,
    description: "one of digital, physical, hybrid",
    requirement: "required"
  },
  {
    name: "location",
    maxLength: SHORT_TEXT,
    description: "where the person performs the task (address, site or area)",
    requirement: "conditionally_required",
    when: { execution_mode: ["physical", "hybrid"] }
  },
  {
    name: "timing",
    maxLength: SHORT_TEXT,
    description:
      "a deadline or window; preflight warns when absent. An ISO 8601 date-time in it (e.g. 2030-12-01T17:00:00Z) becomes the task's deadline",
    requirement: "recommended",
    advice: 'add a deadline or window, e.g. "by 2030-12-01T17:00:00Z"; an ISO 8601 date-time becomes the deadline'
  },
  {
    name: "expected_result",
    maxLength: LONG_TEXT,
    description: "the artifacts and structured fields the result must contain",
    requirement: "required"
  },
  {
    name: "acceptance_test",
    maxLength: LONG_TEXT,
    description: "the objective check that decides acceptance",
    requirement: "required"
  },
  {
    name: "result_schema",
    kind: "json_schema",
    maxLength: RESULT_SCHEMA_MAX_BYTES,
    description:
      "a JSON Schema (draft 2020-12) object the result's fields must satisfy; a result whose fields fail it is refused (422 result_invalid)",
    requirement: "optional"
  },
  {
    name: "constraints",
    maxLength: LONG_TEXT,
    description: "conditions and limits the person must respect (hours, tools, safety, confidentiality)",
    requirement: "optional"
  },
  {
    name: "participant_slug",
    maxLength: SHORT_TEXT,
    description:
      "slug of a participant (lower-case letters and digits in hyphen-separated groups, at most 64 characters); omit it to let the service match one",
    requirement: "optional"
  },
  {
    name: "principal",
    maxLength: SHORT_TEXT,
    description: "the responsible principal",
    requirement: "recommended",
    advice: "every task names the responsible principal"
  },
  {
    name: "agent",
    maxLength: SHORT_TEXT,
    description:
      "the acting agent (the software submitting the task); when absent the task records the request's User-Agent",
    requirement: "recommended",
    advice: "name the acting agent (the software submitting the task)"
  },
  {
    name: "contact_email",
    maxLength: SHORT_TEXT,
    description: "an email address for questions about the task",
    requirement: "optional"
  },
  {
    name: "budget",
    maxLength: SHORT_TEXT,
    description: 'free text including currency and amount, e.g. "USD 250"',
    requirement: "optional"
  },
  {
    name: "webhook_url",
    maxLength: WEBHOOK_URL_MAX,
    description:
      "an https URL the service POSTs a signed event to each time the task changes state (Standard Webhooks); the 201 carries the webhook_secret to verify them with",
    requirement: "optional"
  },
  {
    name: "idempotency_key",
    maxLength: IDEMPOTENCY_KEY_MAX,
    description: `body counterpart of the idempotency-key header, a secret: ${idempotencyKeyRule}`,
    requirement: "optional"
  }
]

const fieldOf = (name: DraftMember): DraftField => draftFields.find((f) => f.name === name)!

export interface DraftRules {
  readonly required: ReadonlyArray<DraftMember>
  readonly conditionally_required: ReadonlyArray<{
    readonly field: DraftMember
    readonly when: { readonly execution_mode: ReadonlyArray<ExecutionMode> }
  }>
  readonly recommended: ReadonlyArray<DraftMember>
  readonly optional: ReadonlyArray<DraftMember>
  readonly limits: Readonly<Record<DraftMember, number>>
}

/** Served verbatim by /capabilities; derived from `draftFields`, never kept by hand. */
export const draftRules: DraftRules = {
  required: draftFields.filter((f) => f.requirement === "required").map((f) => f.name),
  conditionally_required: draftFields.flatMap((f) =>
    f.requirement === "conditionally_required" && f.when !== undefined ? [{ field: f.name, when: f.when }] : []
  ),
  recommended: draftFields.filter((f) => f.requirement === "recommended").map((f) => f.name),
  optional: draftFields.filter((f) => f.requirement === "optional").map((f) => f.name),
  limits: Object.fromEntries(draftFields.map((f) => [f.name, f.maxLength])) as Record<DraftMember, number>
}

export const participantSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

// ---------------------------------------------------------------------------------------------
// Schemas (documentation of the wire shapes)
// ---------------------------------------------------------------------------------------------

const requirementText = (f: DraftField): string => {
  switch (f.requirement) {
    case "required":
      return "Required."
    case "conditionally_required":
      return `Required when execution_mode is ${(f.when?.execution_mode ?? []).join(" or ")}.`
    case "recommended":
      // timing's published note already says so.
      return f.description.includes("warns when absent") ? "Recommended." : "Recommended: preflight warns when absent."
    case "optional":
      return "Optional."
  }
}

const documentedDescription = (name: DraftMember): string => {
  const f = fieldOf(name)
  return `${f.description[0]!.toUpperCase()}${f.description.slice(1)}. ${requirementText(f)} At most ${f.maxLength} characters (Unicode code points) after trimming.`
}

// `isMaxCodePoints` becomes `maxLength` in the generated JSON Schema; the schema documents, it is
// not used to decode (a decode failure would bypass the issue list agents rely on).
const draftMember = (
  name: DraftMember,
  extra: { readonly format?: string; readonly examples?: ReadonlyArray<string> } = {},
  ...checks: ReadonlyArray<SchemaAST.Check<string>>
) =>
  Schema.optionalKey(
    Schema.String.annotate({ description: documentedDescription(name), ...extra }).check(
      Schema.isMaxCodePoints(fieldOf(name).maxLength),
      ...checks
    )
  )

/**
 * One of the words, in any letter case, with blanks around it: what the rule set accepts for an
 * execution mode (it trims and lower-cases), as a pattern JSON Schema carries.
 */
const anyCaseOneOf = (words: ReadonlyArray<string>) =>
  new RegExp(`^\\s*(?:${words.map((w) => [...w].map((c) => `[${c}${c.toUpperCase()}]`).join("")).join("|")})\\s*$`, "u")

/** The request body of preflight and task submission. Documents the wire shape; never used to decode. */
export const TaskDraft = Schema.Struct({
  action: draftMember("action", { examples: ["Photograph the storefront at 12 Main St from across the street"] }),
  execution_mode: draftMember(
    "execution_mode",
    { examples: ["physical"] },
    Schema.isPattern(anyCaseOneOf(executionModes))
  ),
  location: draftMember("location", { examples: ["12 Main St, Springfield"] }),
  timing: draftMember("timing", { examples: ["by 2030-12-01T17:00:00Z"] }),
  expected_result: draftMember("expected_result"),
  acceptance_test: draftMember("acceptance_test"),
  result_schema: Schema.optionalKey(ResultSchema),
  constraints: draftMember("constraints"),
  participant_slug: draftMember("participant_slug", { examples: ["jane-doe"] }),
  principal: draftMember("principal"),
  agent: draftMember("agent"),
  contact_email: draftMember("contact_email", { format: "email" }),
  budget: draftMember("budget", { examples: ["USD 250"] }),
  webhook_url: draftMember("webhook_url", { format: "uri", examples: ["https://agent.example.com/hooks/tasks"] }),
  // The minimum is documented here and enforced by the submission (services/tasks.ts), which
  // refuses a short key wherever it came from with one answer (400 invalid_request).
  idempotency_key: draftMember("idempotency_key", {}, Schema.isMinCodePoints(IDEMPOTENCY_KEY_MIN))
}).annotate({
  identifier: "TaskDraft",
  description:
    "A task draft. Strings are trimmed; empty or whitespace-only counts as missing. Unknown members are ignored with an `unrecognized` warning."
})
export type TaskDraft = typeof TaskDraft.Type

const normalisedMember = (name: DraftMember) =>
  Schema.optionalKey(Schema.String.annotate({ description: `${fieldOf(name).description} (trimmed)` }))

/** The normalised draft: preflight's `task` member. Members appear only when given and valid. */
export const NormalizedDraft = Schema.Struct({
  action: normalisedMember("action"),
  execution_mode: Schema.optionalKey(ExecutionMode),
  location: normalisedMember("location"),
  timing: normalisedMember("timing"),
  deadline: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "the instant parsed from timing when it holds an ISO 8601 date or date-time, as ISO 8601 UTC (2026-11-21T10:00:00.000Z)",
      format: "date-time"
    })
  ),
  expected_result: normalisedMember("expected_result"),
  acceptance_test: normalisedMember("acceptance_test"),
  result_schema: Schema.optionalKey(ResultSchema),
  constraints: normalisedMember("constraints"),
  participant_slug: normalisedMember("participant_slug"),
  principal: normalisedMember("principal"),
  agent: normalisedMember("agent"),
  contact_email: normalisedMember("contact_email"),
  budget: normalisedMember("budget"),
  webhook_url: normalisedMember("webhook_url")
}).annotate({
  identifier: "NormalizedDraft",
  description:
    "The draft as the service understands it: trimmed strings, execution_mode lower-cased, deadline parsed from timing, unknown members and idempotency_key dropped, invalid members omitted."
})
export type NormalizedDraft = typeof NormalizedDraft.Type

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

export interface DraftValidation {
  readonly valid: boolean
  readonly issues: ReadonlyArray<TaskIssue>
  readonly warnings: ReadonlyArray<TaskIssue>
  readonly task: NormalizedDraft
  readonly idempotencyKey: string | undefined
}

export interface ValidateDraftOptions {
  /**
   * Whether a missing `agent` will be replaced by the request's User-Agent (true for preflight and
   * submission, the default); only changes the wording of the `recommended` warning.
   */
  readonly agentFallback?: boolean
  /**
   * The service's current instant (ISO 8601 UTC, from its Clock): when given, a deadline read from
   * timing that is not after it is a `deadline_passed` issue. Pure callers (tests) may leave it out.
   */
  readonly now?: string
  /**
   * Whether webhook_url may be plain http or name a private address (WEBHOOK_ALLOW_PRIVATE, for
   * development and tests); off by default.
   */
  readonly allowPrivateWebhooks?: boolean
}

/**
 * Whether a deadline has passed at `now` (both ISO 8601 UTC as `toISOString` writes them, which
 * compare as text): the one rule for the draft check and for the dispatcher's `deadline_passed`.
 * A deadline equal to now has passed: nothing can be done by it any more.
 */
export const deadlinePassed = (deadline: string, now: string): boolean => deadline <= now

const knownMembers: ReadonlySet<string> = new Set(draftMembers)

/** Renders a user-supplied value for a message: quoted, at most `max` code points. */
export const show = (s: string, max = 60): string => {
  // Slice before Array.from so a 5 MiB value costs O(max), not O(n).
  const points = Array.from(s.length > max * 2 ? s.slice(0, max * 2) : s)
  return JSON.stringify(points.length > max ? `${points.slice(0, max).join("")}…` : points.join(""))
}

const showKey = (key: string): string => {
  const points = Array.from(key.length > 128 ? key.slice(0, 128) : key)
  return `'${points.length > 64 ? `${points.slice(0, 64).join("")}…` : points.join("")}'`
}

const jsonType = (value: unknown): string =>
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

const exceeds = (s: string, max: number): number | undefined => {
  // A string never has more code points than UTF-16 units: the common case needs no counting.
  if (s.length <= max) return undefined
  const n = codePointLength(s)
  return n > max ? n : undefined
}

// --- contact_email ---------------------------------------------------------------------------

// Deliberately simple: one @, a non-empty local part, a dotted domain with non-empty labels, no
// whitespace and none of the characters that reveal a display-name form ("Jane <jane@x.org>").
const forbiddenEmailChars = /[\s<>()[\]\\,;:"]/
const isEmail = (s: string): boolean => {
  const at = s.indexOf("@")
  if (at <= 0 || at !== s.lastIndexOf("@") || forbiddenEmailChars.test(s)) return false
  const labels = s.slice(at + 1).split(".")
  return labels.length >= 2 && labels.every((l) => l.length > 0) && labels[labels.length - 1]!.length >= 2
}

// --- budget ----------------------------------------------------------------------------------

const isoCurrencies: ReadonlySet<string> = new Set(
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : []
)
const commonCurrencyCodes: ReadonlySet<string> = new Set([
  "usd",
  "eur",
  "gbp",
  "jpy",
  "chf",
  "cad",
  "aud",
  "nzd",
  "cny",
  "inr",
  "sek",
  "nok",
  "dkk",
  "pln",
  "czk",
  "huf",
  "brl",
  "mxn",
  "zar",
  "sgd",
  "hkd",
  "krw"
])
const currencySymbol = /\p{Sc}/u
const currencyWord =
  /(?<![a-z])(?:dollars?|euros?|pounds?|sterling|yen|yuan|renminbi|rupees?|francs?|kron(?:a|e|or|er)|pesos?|reais|rand|won|r(?:o)?ubles?|lira|lire|zlot(?:y|ys|ych)|shekels?|dirhams?|baht|ringgit|rupiah|naira|dong)(?![a-z])/i

/**
 * The matches of a global regular expression in `text`, at most `limit`, in order: what
 * `text.matchAll(re)` gives, without the copy of `re` that matchAll makes on every call (~1 µs of
 * the ~3 µs a timing took to read, micro-benchmark). `re` is left as found (lastIndex 0); none of
 * these expressions matches the empty string.
 */
const matchesOf = (re: RegExp, text: string, limit: number): Array<RegExpExecArray> => {
  const found: Array<RegExpExecArray> = []
  re.lastIndex = 0
  for (let m = re.exec(text); m !== null && found.length < limit; m = re.exec(text)) found.push(m)
  re.lastIndex = 0
  return found
}

const letterTriples = /(?<![A-Za-z])[A-Za-z]{3}(?![A-Za-z])/g

const hasCurrency = (s: string): boolean => {
  if (currencySymbol.test(s) || currencyWord.test(s)) return true
  for (const [token] of matchesOf(letterTriples, s, Number.POSITIVE_INFINITY)) {
    if ((token === token.toUpperCase() && isoCurrencies.has(token)) || commonCurrencyCodes.has(token.toLowerCase())) {
      return true
    }
  }
  return false
}

const budgetAmbiguity = (s: string): string | undefined => {
  const amount = /\d/.test(s)
  const currency = hasCurrency(s)
  if (amount && currency) return undefined
  const missing = !amount && !currency ? "amount or currency" : !amount ? "amount" : "currency"
  return `budget ${show(s)} has no recognisable ${missing}; write an amount with a currency, e.g. "USD 250" or "€40".`
}

// --- timing ----------------------------------------------------------------------------------

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
const laterExample = (now: string): string => {
  const later = new Date(Date.parse(now) + 7 * 24 * 3600_000)
  later.setUTCMinutes(0, 0, 0)
  return later.toISOString().replace(".000Z", "Z")
}

interface TimingReading {
  readonly deadline: string | undefined
  readonly warnings: ReadonlyArray<string>
}

const readTiming = (timing: string): TimingReading => {
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

// --- unknown members -------------------------------------------------------------------------

const MAX_UNRECOGNIZED_WARNINGS = 20

// Names agents plausibly send for a member, keyed in normalised (snake_case, lower-case) form.
const aliases: ReadonlyArray<readonly [string, DraftMember]> = [
  ["deadline", "timing"],
  ["due", "timing"],
  ["due_date", "timing"],
  ["due_by", "timing"],
  ["schedule", "timing"],
  ["window", "timing"],
  ["mode", "execution_mode"],
  ["execution", "execution_mode"],
  ["title", "action"],
  ["task", "action"],
  ["description", "action"],
  ["instructions", "action"],
  ["result", "expected_result"],
  ["deliverable", "expected_result"],
  ["deliverables", "expected_result"],
  ["expected_output", "expected_result"],
  ["acceptance", "acceptance_test"],
  ["acceptance_criteria", "acceptance_test"],
  ["success_criteria", "acceptance_test"],
  ["address", "location"],
  ["place", "location"],
  ["slug", "participant_slug"],
  ["participant", "participant_slug"],
  ["email", "contact_email"],
  ["contact", "contact_email"],
  ["price", "budget"],
  ["reward", "budget"],
  ["payment", "budget"],
  ["compensation", "budget"],
  ["user_agent", "agent"],
  ["requester", "principal"],
  ["on_behalf_of", "principal"],
  ["restrictions", "constraints"],
  ["webhook", "webhook_url"],
  ["callback_url", "webhook_url"],
  ["callback", "webhook_url"],
  ["notify_url", "webhook_url"]
]

const suggestionCandidates: ReadonlyArray<readonly [string, DraftMember]> = [
  ...draftMembers.map((m) => [m, m] as const),
  ...aliases
]

/** Optimal string alignment distance, abandoning once every cell of a row exceeds `limit`. */
const editDistance = (a: string, b: string, limit: number): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let prevPrev: Array<number> = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prevPrev[j - 2]! + 1)
      row.push(v)
      best = Math.min(best, v)
    }
    if (best > limit) return limit + 1
    prevPrev = prev
    prev = row
  }
  return prev[b.length]!
}

const suggest = (key: string): DraftMember | undefined => {
  // Only short keys: keeps the quadratic distance computation trivially cheap.
  if (key.length > 64) return undefined
  const normalised = key
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[\s-]+/g, "_")
  let best: DraftMember | undefined
  let bestDistance = 3
  for (const [candidate, member] of suggestionCandidates) {
    if (candidate === normalised) return member
    if (normalised.length < 4) continue
    const d = editDistance(normalised, candidate, 2)
    if (d < bestDistance) {
      best = member
      bestDistance = d
    }
  }
  return best
}

// --- the rule set ----------------------------------------------------------------------------

type MutableTask = { -readonly [K in keyof NormalizedDraft]?: NormalizedDraft[K] }

/**
 * Reads one member: `undefined` when missing (absent, null, blank), the trimmed string, or the
 * single issue that disqualifies it (wrong type, too long, NUL character).
 */
const readMember = (body: Readonly<Record<string, unknown>>, field: DraftField): string | TaskIssue | undefined => {
  const raw = Object.hasOwn(body, field.name) ? body[field.name] : undefined
  if (raw === undefined || raw === null) return undefined
  if (typeof raw !== "string") {
    return issue(field.name, "invalid", `${field.name} must be a string; got ${jsonType(raw)}.`)
  }
  const value = raw.trim()
  if (value === "") return undefined
  const length = exceeds(value, field.maxLength)
  if (length !== undefined) {
    return issue(
      field.name,
      "too_long",
      `${field.name} is too long: at most ${field.maxLength} characters (Unicode code points) after trimming; got ${length}.`
    )
  }
  if (value.includes("\u0000")) {
    return issue(field.name, "invalid", `${field.name} must not contain the NUL character (U+0000).`)
  }
  return value
}

export const validateDraft = (
  body: Readonly<Record<string, unknown>>,
  options: ValidateDraftOptions = {}
): DraftValidation => {
  const issues: Array<TaskIssue> = []
  const warnings: Array<TaskIssue> = []
  const task: MutableTask = {}
  let mode: ExecutionMode | undefined
  let idempotencyKey: string | undefined

  // Fields are visited in definition order, so issues and warnings come out in that order.
  for (const field of draftFields) {
    const name = field.name
    if (field.kind === "json_schema") {
      const raw = Object.hasOwn(body, name) ? body[name] : undefined
      // null means absent, as for every member; the member is optional.
      if (raw === undefined || raw === null) continue
      const problem = resultSchemaProblem(raw)
      if (problem === undefined) task.result_schema = raw as ResultSchema
      else issues.push(issue(name, problem.kind === "too_large" ? "too_long" : "invalid", problem.message))
      continue
    }
    const read = readMember(body, field)
    if (typeof read === "object") {
      issues.push(read)
      continue
    }
    if (read === undefined) {
      if (field.requirement === "required") {
        issues.push(issue(name, "required", `${name} is required: ${field.description}.`))
      } else if (field.requirement === "conditionally_required" && mode !== undefined) {
        if (field.when?.execution_mode.includes(mode)) {
          issues.push(
            issue(name, "required", `${name} is required when execution_mode is ${mode}: ${field.description}.`)
          )
        }
      } else if (field.requirement === "recommended") {
        const fallback =
          name === "agent" && options.agentFallback !== false
            ? "; when absent the task records the request's User-Agent instead"
            : ""
        warnings.push(
          issue(name, "recommended", `${name} is recommended: ${field.advice ?? field.description}${fallback}.`)
        )
      }
      continue
    }
    switch (name) {
      case "execution_mode": {
        const lower = read.toLowerCase()
        if (!isExecutionMode(lower)) {
          issues.push(
            issue(name, "invalid", `execution_mode must be one of digital, physical, hybrid; got ${show(read)}.`)
          )
          continue
        }
        mode = lower
        task.execution_mode = lower
        continue
      }
      case "timing": {
        task.timing = read
        const reading = readTiming(read)
        if (reading.deadline !== undefined) {
          task.deadline = reading.deadline
          if (options.now !== undefined && deadlinePassed(reading.deadline, options.now)) {
            issues.push(
              issue(
                name,
                "deadline_passed",
                `the deadline read from timing, ${reading.deadline}, is not in the future (it is now ${options.now}): a task with it would be declined at once with deadline_passed. Put a later date or date-time in timing, e.g. "by ${laterExample(options.now)}".`
              )
            )
          }
        }
        for (const message of reading.warnings) warnings.push(issue(name, "ambiguous", message))
        continue
      }
      case "participant_slug": {
        if (read.length > SLUG_MAX || !participantSlugPattern.test(read)) {
          const kebab = read
            .toLowerCase()
            .replace(/[\s_]+/g, "-")
            .replace(/^-+|-+$/g, "")
          const hint =
            kebab.length <= SLUG_MAX && participantSlugPattern.test(kebab) ? `; did you mean ${show(kebab)}?` : "."
          issues.push(
            issue(
              name,
              "invalid",
              `participant_slug must be a slug (lower-case letters and digits in hyphen-separated groups, at most ${SLUG_MAX} characters, e.g. "jane-doe"); got ${show(read)}${hint}`
            )
          )
          continue
        }
        task.participant_slug = read
        continue
      }
      case "contact_email": {
        if (!isEmail(read)) {
          issues.push(
            issue(
              name,
              "invalid",
              `contact_email must be an email address such as "ops@example.com"; got ${show(read)}.`
            )
          )
          continue
        }
        task.contact_email = read
        continue
      }
      case "budget": {
        task.budget = read
        const ambiguity = budgetAmbiguity(read)
        if (ambiguity !== undefined) warnings.push(issue(name, "ambiguous", ambiguity))
        continue
      }
      case "webhook_url": {
        const problem = webhookUrlProblem(read, options.allowPrivateWebhooks === true)
        if (problem !== undefined) {
          issues.push(issue(name, "invalid", problem))
          continue
        }
        task.webhook_url = read
        continue
      }
      case "idempotency_key": {
        idempotencyKey = read
        continue
      }
      case "result_schema":
        continue // read above: it is not text
      default:
        task[name] = read
    }
  }

  // Unknown members, in the body's key order. Only the keys are inspected (and `deadline`, a
  // known output member); values of unknown members are never read.
  let unrecognized = 0
  const unknownKeys = Object.keys(body).filter((key) => !knownMembers.has(key))
  for (const key of unknownKeys) {
    if (key === "deadline") {
      const raw = body.deadline
      if (typeof raw === "string" && task.deadline !== undefined && raw.trim() === task.deadline) continue
    }
    if (unrecognized === MAX_UNRECOGNIZED_WARNINGS) {
      const rest = unknownKeys.length - unknownKeys.indexOf(key)
      warnings.push(
        issue(key, "unrecognized", `unknown member ${showKey(key)} and ${rest - 1} more unknown member(s) are ignored.`)
      )
      break
    }
    unrecognized++
    if (key === "deadline") {
      warnings.push(
        issue(
          key,
          "unrecognized",
          `member 'deadline' is ignored: the deadline is derived from timing; put the date-time in timing, e.g. "by 2030-12-01T17:00:00Z".`
        )
      )
      continue
    }
    const suggestion = suggest(key)
    warnings.push(
      issue(
        key,
        "unrecognized",
        `unknown member ${showKey(key)} is ignored${suggestion === undefined ? "." : `; did you mean '${suggestion}'?`}`
      )
    )
  }

  return {
    valid: issues.length === 0,
    issues,
    warnings,
    task: orderTask(task),
    idempotencyKey
  }
}

// The schema declares the members in the order the task lists them.
const taskOrder = Object.keys(NormalizedDraft.fields) as ReadonlyArray<keyof NormalizedDraft>

/** Rebuilds the task with members in schema order, so equal drafts serialise identically. */
const orderTask = (task: MutableTask): NormalizedDraft => {
  const ordered: Record<string, unknown> = {}
  for (const key of taskOrder) {
    const value = task[key]
    if (value !== undefined) ordered[key] = value
  }
  return ordered as NormalizedDraft
}

const issueRank = (field: string): number => {
  const i = draftMembers.indexOf(field as DraftMember)
  return i === -1 ? draftMembers.length : i
}

/** `list` with `entry` inserted before the first entry of a later field: lists stay in field order. */
const insertByField = (list: ReadonlyArray<TaskIssue>, entry: TaskIssue): ReadonlyArray<TaskIssue> => {
  const rank = issueRank(entry.field)
  const at = list.findIndex((i) => issueRank(i.field) > rank)
  return at === -1 ? [...list, entry] : [...list.slice(0, at), entry, ...list.slice(at)]
}

/** Marks a validation whose participant_slug names no participant (the caller looked it up). */
export const withUnknownParticipant = (v: DraftValidation): DraftValidation => {
  const slug = v.task.participant_slug
  if (slug === undefined) return v
  const { participant_slug: _dropped, ...task } = v.task
  const notFound = issue(
    "participant_slug",
    "not_found",
    `no participant has the slug ${show(slug)}; list participants at GET /api/public/v1/participants, or omit participant_slug to let the service match one.`
  )
  return { ...v, valid: false, issues: insertByField(v.issues, notFound), task }
}

/** Adds a warning found by a rule that needs more than the draft (the directory), in field order. */
export const withWarning = (v: DraftValidation, warning: TaskIssue): DraftValidation => ({
  ...v,
  warnings: insertByField(v.warnings, warning)
})
