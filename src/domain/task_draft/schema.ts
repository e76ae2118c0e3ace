/**
 * The draft as Schemas: `TaskDraft`, the request body of task submission, which decodes a body into
 * the draft as the service reads it (the rule set: `validate.ts` runs it and words its failures),
 * and `NormalizedDraft`, preflight's `task` member.
 *
 * Every rule about one member is a check on that member's wire string, so the OpenAPI document
 * derived from `TaskDraft` states what decoding enforces: each check carries the JSON Schema
 * fragment that says it (a pattern where the rule reads the trimmed value), and each failure
 * carries its issue code and message. Strings are trimmed; blank or null counts as missing.
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import { ResultSchema, resultSchemaProblem } from "../result_schema.ts"
import { webhookUrlPattern, webhookUrlProblem } from "../webhooks.ts"
import { isEmail } from "./email.ts"
import { ExecutionMode, executionModes, isExecutionMode } from "./execution_mode.ts"
import { type DraftField, type DraftMember, fieldOf, participantSlugPattern, SLUG_MAX } from "./fields.ts"
import { IDEMPOTENCY_KEY_MIN } from "./idempotency.ts"
import type { IssueCode } from "./issues.ts"
import { exceeds, show } from "./text.ts"

// ---------------------------------------------------------------------------------------------
// Failures: each carries the issue code and the message preflight shows
// ---------------------------------------------------------------------------------------------

/** The annotation of a draft failure that holds its issue code. */
export const draftCodeKey = "draftIssueCode"

/** A failure of a draft rule, as the issue list words it. */
const failure = (code: IssueCode, message: string) => new SchemaIssue.InvalidValue({ message, [draftCodeKey]: code })

/** The message of a missing required member. */
export const requiredMessage = (f: DraftField): string => `${f.name} is required: ${f.description}.`

// ---------------------------------------------------------------------------------------------
// Checks on a member's wire string; each reads the trimmed value and states itself as JSON Schema
// ---------------------------------------------------------------------------------------------

/** A rule on the wire string: aborts the member's other checks when it fails (one issue per member). */
const rule = (
  run: (raw: string) => SchemaIssue.Issue | undefined,
  jsonSchema: Record<string, unknown>
): SchemaAST.Filter<string> =>
  // The JSON Schema compiler asks for a fresh fragment each time it documents the check.
  Schema.makeFilter<string>((raw) => run(raw), { toJsonSchema: () => structuredClone(jsonSchema) }, true)

/** A required member: not blank (a blank one is missing). */
const nonBlank = (f: DraftField) =>
  rule((raw) => (raw.trim() === "" ? failure("required", requiredMessage(f)) : undefined), { pattern: "\\S" })

/** At most `f.maxLength` code points once trimmed: `^\s*[\s\S]{0,n}\s*$` says exactly that. */
const trimmedLength = (f: DraftField) =>
  rule(
    (raw) => {
      const length = exceeds(raw.trim(), f.maxLength)
      return length === undefined
        ? undefined
        : failure(
            "too_long",
            `${f.name} is too long: at most ${f.maxLength} characters (Unicode code points) after trimming; got ${length}.`
          )
    },
    { pattern: `^\\s*[\\s\\S]{0,${f.maxLength}}\\s*$` }
  )

/** No U+0000: PostgreSQL text and jsonb cannot store it, so it would fail at submission. */
const noNul = (f: DraftField) =>
  rule(
    (raw) =>
      raw.includes("\u0000") ? failure("invalid", `${f.name} must not contain the NUL character (U+0000).`) : undefined,
    { pattern: "^[^\\u0000]*$" }
  )

/** A rule on the trimmed value, when there is one (blank is missing, judged by requirement alone). */
const onTrimmed = (
  run: (value: string) => SchemaIssue.Issue | undefined,
  jsonSchema: Record<string, unknown>
): SchemaAST.Filter<string> =>
  rule((raw) => {
    const value = raw.trim()
    return value === "" ? undefined : run(value)
  }, jsonSchema)

/** `core` as the whole trimmed value, or blank. */
const blankOr = (core: string) => `^\\s*(?:${core})?\\s*$`

/**
 * One of the words, in any letter case, with blanks around it: what the rule accepts for an
 * execution mode (it trims and lower-cases), as a pattern JSON Schema carries.
 */
const anyCaseOneOf = (words: ReadonlyArray<string>) =>
  words.map((w) => [...w].map((c) => `[${c}${c.toUpperCase()}]`).join("")).join("|")

const executionModeRule = onTrimmed(
  (value) =>
    isExecutionMode(value.toLowerCase())
      ? undefined
      : failure("invalid", `execution_mode must be one of digital, physical, hybrid; got ${show(value)}.`),
  { pattern: blankOr(anyCaseOneOf(executionModes)) }
)

const participantSlugRule = onTrimmed(
  (value) => {
    if (value.length <= SLUG_MAX && participantSlugPattern.test(value)) return undefined
    const kebab = value
      .toLowerCase()
      .replace(/[\s_]+/g, "-")
      .replace(/^-+|-+$/g, "")
    const hint = kebab.length <= SLUG_MAX && participantSlugPattern.test(kebab) ? `; did you mean ${show(kebab)}?` : "."
    return failure(
      "invalid",
      `participant_slug must be a slug (lower-case letters and digits in hyphen-separated groups, at most ${SLUG_MAX} characters, e.g. "jane-doe"); got ${show(value)}${hint}`
    )
  },
  {
    allOf: [
      { pattern: blankOr(participantSlugPattern.source.slice(1, -1)) },
      { pattern: `^\\s*[\\s\\S]{0,${SLUG_MAX}}\\s*$` }
    ]
  }
)

// isEmail as a pattern: one @ after a non-empty local part, a dotted domain of non-empty labels
// whose last has two characters or more, none of whitespace and <>()[]\,;:"
const emailChar = '[^\\s<>()[\\]\\\\,;:"@]'
const labelChar = '[^\\s<>()[\\]\\\\,;:"@.]'
const contactEmailRule = onTrimmed(
  (value) =>
    isEmail(value)
      ? undefined
      : failure("invalid", `contact_email must be an email address such as "ops@example.com"; got ${show(value)}.`),
  { pattern: blankOr(`${emailChar}+@(?:${labelChar}+\\.)+${labelChar}{2,}`) }
)

/** webhook_url under a webhook policy (WEBHOOK_ALLOW_PRIVATE): the document states the default one. */
const webhookUrlRule = (allowPrivate: boolean) =>
  onTrimmed(
    (value) => {
      const problem = webhookUrlProblem(value, allowPrivate)
      return problem === undefined ? undefined : failure("invalid", problem)
    },
    { pattern: blankOr(webhookUrlPattern(false)) }
  )

/**
 * The idempotency key's minimum, stated here and enforced by the submission (services/tasks.ts),
 * which refuses a short key wherever it came from with one answer (400 invalid_request): a short
 * key is not a draft issue, so this check never fails.
 */
const idempotencyKeyMinimum = rule(() => undefined, {
  pattern: blankOr(`\\S[\\s\\S]{${IDEMPOTENCY_KEY_MIN - 2},}\\S`)
})

// ---------------------------------------------------------------------------------------------
// Members
// ---------------------------------------------------------------------------------------------

const requirementText = (f: DraftField): string => {
  switch (f.requirement) {
    case "required":
      return "Required (not blank)."
    case "conditionally_required":
      return `Required (not blank) when execution_mode is ${(f.when?.execution_mode ?? []).join(" or ")}.`
    case "recommended":
      // timing's published note already says so.
      return f.description.includes("warns when absent")
        ? "Recommended; null or blank counts as absent."
        : "Recommended: preflight warns when absent; null or blank counts as absent."
    case "optional":
      return "Optional; null or blank counts as absent."
  }
}

const documentedDescription = (f: DraftField): string =>
  `${f.description[0]!.toUpperCase()}${f.description.slice(1)}. ${requirementText(f)} At most ${f.maxLength} characters (Unicode code points) after trimming; surrounding blanks are trimmed.`

interface MemberDocs {
  readonly examples?: ReadonlyArray<string>
}

const trim = SchemaGetter.transform((s: string) => s.trim())

/** A required text member: a string that is not blank, decoded trimmed. */
const requiredText = (name: DraftMember, docs: MemberDocs, ...checks: ReadonlyArray<SchemaAST.Check<string>>) => {
  const f = fieldOf(name)
  return Schema.String.annotate({ description: documentedDescription(f), ...docs })
    .check(nonBlank(f), trimmedLength(f), noNul(f), ...checks)
    .pipe(Schema.decodeTo(Schema.String, { decode: trim, encode: SchemaGetter.passthrough() }))
}

/** The present, non-blank trimmed value of an optional member; null and blank are absent. */
const presentTrimmed = SchemaGetter.transformOptional((o: Option.Option<string | null>) =>
  Option.flatMap(o, (value) => {
    if (value === null) return Option.none()
    const trimmed = value.trim()
    return trimmed === "" ? Option.none() : Option.some(trimmed)
  })
)

/** An optional text member: a string or null, decoded trimmed; null and blank are absent. */
const optionalText = (name: DraftMember, docs: MemberDocs, ...checks: ReadonlyArray<SchemaAST.Check<string>>) => {
  const f = fieldOf(name)
  return Schema.optionalKey(
    Schema.NullOr(Schema.String.check(trimmedLength(f), noNul(f), ...checks)).annotate({
      description: documentedDescription(f),
      ...docs
    })
  ).pipe(
    Schema.decodeTo(Schema.optionalKey(Schema.String), {
      decode: presentTrimmed,
      encode: SchemaGetter.passthrough({ strict: false })
    })
  )
}

/**
 * result_schema: a JSON Schema object or null; what Ajv makes of it is checked here too. The object
 * is kept as written (not copied member by member, as decoding a record would).
 */
const resultSchemaMember = Schema.optionalKey(
  Schema.NullOr(Schema.ObjectKeyword)
    .annotate({
      description: `${ResultSchema.ast.annotations?.description ?? ""} Optional; null counts as absent.`
    })
    .check(
      Schema.makeFilter(
        (value) => {
          if (value === null) return undefined
          const problem = resultSchemaProblem(value)
          return problem === undefined
            ? undefined
            : failure(problem.kind === "too_large" ? "too_long" : "invalid", problem.message)
        },
        { toJsonSchema: () => ({ type: ["object", "null"] }) },
        true
      )
    )
).pipe(
  Schema.decodeTo(Schema.optionalKey(Schema.Unknown), {
    decode: SchemaGetter.transformOptional((o: Option.Option<object | null>) =>
      Option.filter(o, (value) => value !== null)
    ),
    encode: SchemaGetter.passthrough({ strict: false })
  })
)

/** The members of a draft, wire to decoded, under a webhook policy. */
const draftMembersSchema = (allowPrivateWebhooks: boolean) => ({
  action: requiredText("action", { examples: ["Photograph the storefront at 12 Main St from across the street"] }),
  execution_mode: Schema.String.annotate({
    description: documentedDescription(fieldOf("execution_mode")),
    examples: ["physical"]
  })
    .check(
      nonBlank(fieldOf("execution_mode")),
      trimmedLength(fieldOf("execution_mode")),
      noNul(fieldOf("execution_mode")),
      executionModeRule
    )
    .pipe(
      Schema.decodeTo(Schema.Literals(executionModes), {
        decode: SchemaGetter.transform((s: string) => s.trim().toLowerCase() as ExecutionMode),
        encode: SchemaGetter.passthrough({ strict: false })
      })
    ),
  location: optionalText("location", { examples: ["12 Main St, Springfield"] }),
  timing: optionalText("timing", { examples: ["by 2030-12-01T17:00:00Z"] }),
  expected_result: requiredText("expected_result", {}),
  acceptance_test: requiredText("acceptance_test", {}),
  result_schema: resultSchemaMember,
  constraints: optionalText("constraints", {}),
  participant_slug: optionalText("participant_slug", { examples: ["jane-doe"] }, participantSlugRule),
  principal: optionalText("principal", {}),
  agent: optionalText("agent", {}),
  contact_email: optionalText("contact_email", { examples: ["ops@example.com"] }, contactEmailRule),
  budget: optionalText("budget", { examples: ["USD 250"] }),
  webhook_url: optionalText(
    "webhook_url",
    { examples: ["https://agent.example.com/hooks/tasks"] },
    webhookUrlRule(allowPrivateWebhooks)
  ),
  idempotency_key: optionalText("idempotency_key", {}, idempotencyKeyMinimum)
})

/** The members a cross-member rule reads, as decoded. */
interface Placement {
  readonly execution_mode?: ExecutionMode | undefined
  readonly location?: string | undefined
}

/** location is required when the (valid) execution mode is physical or hybrid. */
export const locationRule = Schema.makeFilter<Placement>(
  (draft) => {
    const f = fieldOf("location")
    const mode = draft.execution_mode
    if (mode === undefined || draft.location !== undefined || !f.when?.execution_mode.includes(mode)) return undefined
    return {
      path: ["location"],
      issue: failure("required", `location is required when execution_mode is ${mode}: ${f.description}.`)
    }
  },
  {
    toJsonSchema: () => ({
      if: {
        properties: { execution_mode: { pattern: `^\\s*(?:${anyCaseOneOf(["physical", "hybrid"])})\\s*$` } },
        required: ["execution_mode"]
      },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword
      then: { required: ["location"], properties: { location: { type: "string", pattern: "\\S" } } }
    })
  }
)

/** The draft under a webhook policy (WEBHOOK_ALLOW_PRIVATE); `TaskDraft` is the default one. */
export const taskDraftSchema = (allowPrivateWebhooks: boolean) =>
  Schema.Struct(draftMembersSchema(allowPrivateWebhooks))
    .annotate({
      description:
        "A task draft. Strings are trimmed; null, empty or whitespace-only counts as missing. execution_mode is read in any letter case. Unknown members are accepted and ignored, each with an `unrecognized` warning."
    })
    .check(locationRule)
    .annotate({ identifier: "TaskDraft" })

/** The members of a draft alone, each optional: what decodes the members that passed when others failed. */
export const draftMembersOnly = (allowPrivateWebhooks: boolean) =>
  Schema.Struct(
    Object.fromEntries(
      Object.entries(draftMembersSchema(allowPrivateWebhooks)).map(([name, member]) => [
        name,
        Schema.optionalKey(member as Schema.Codec<unknown, unknown>)
      ])
    ) as { readonly [K in DraftMember]: Schema.optionalKey<Schema.Codec<unknown, unknown>> }
  )

/** The request body of task submission (and what preflight judges), with the default webhook policy. */
export const TaskDraft = taskDraftSchema(false)
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
