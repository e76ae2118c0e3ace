/**
 * The draft rule set: the one pure check shared by preflight and task submission (`validateDraft`),
 * and the marks that rules needing more than the draft add to its answer (`withUnknownParticipant`,
 * `withWarning`).
 *
 * The body is decoded by `TaskDraft` (schema.ts), the schema the OpenAPI document publishes: its
 * failures, every one at once, become the issue list (`issuesOf`). What decoding cannot say comes
 * after it, from the decoded members: the deadline read from timing and whether it has passed at
 * the caller's `now`, the warnings (recommended members missing, ambiguous timing or budget) and
 * the unknown members (`unrecognized`, with a suggestion).
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
 * - The deadline is read from timing (`timing.ts`, which says how); a deadline not after the
 *   caller's `now` (the service's clock) is a `deadline_passed` issue: the dispatcher would decline
 *   the task at once, by the same rule (`deadlinePassed`).
 * - Budget: a warning when no amount or currency is recognisable (`currency.ts`, which says how).
 * - An idempotency_key shorter than a secret is an `invalid` issue, as the document's pattern
 *   says, so preflight names it; submission refuses it first, with 400 (IdempotencyKeyTooShort).
 * - A body member `deadline` equal to the derived deadline is accepted silently, so echoing the
 *   preflight `task` back as a submission is warning-free; otherwise it is `unrecognized`.
 * - At most 20 `unrecognized` warnings are listed individually; the rest are summarised in one.
 *
 * Only the body's own members that the draft knows are decoded (unknown ones are only named), so
 * hostile bodies (huge strings, `__proto__` keys, deep nesting) cost linear time and cannot
 * pollute prototypes.
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import { type ResultSchema, resultSchemaProblem } from "../result_schema.ts"
import { budgetAmbiguity } from "./currency.ts"
import { type DraftMember, draftFields, draftMembers, fieldOf } from "./fields.ts"
import { idempotencyKeyRule, isIdempotencyKeyTooShort } from "./idempotency.ts"
import { IssueCode, issue, type TaskIssue } from "./issues.ts"
import {
  draftCodeKey,
  draftMembersOnly,
  locationRule,
  NormalizedDraft,
  requiredMessage,
  taskDraftSchema
} from "./schema.ts"
import { suggest } from "./suggestions.ts"
import { jsonType, show, showKey } from "./text.ts"
import { deadlinePassed, laterExample, readTiming } from "./timing.ts"

/** What the rule set says about a draft: its issues and warnings and the draft as understood. */
export interface DraftValidation {
  readonly valid: boolean
  readonly issues: ReadonlyArray<TaskIssue>
  readonly warnings: ReadonlyArray<TaskIssue>
  readonly task: NormalizedDraft
  readonly idempotencyKey: string | undefined
}

/** What the caller knows beyond the body, for the rules that need it. */
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

/** The draft's members as decoded (before the deadline is read and idempotency_key set apart). */
type Decoded = {
  readonly [K in DraftMember]?: K extends "result_schema" ? ResultSchema : string
}

/**
 * The decoders of one webhook policy, made once: the draft (first failure only, the fast path a
 * valid draft takes; then every failure, with the inputs the messages quote), the members alone
 * (what passed, when others failed) and the cross-member rule on the members it reads.
 */
const decodersFor = (allowPrivateWebhooks: boolean) => {
  const draft = taskDraftSchema(allowPrivateWebhooks)
  const placement = Schema.Struct({
    execution_mode: draft.fields.execution_mode,
    location: draft.fields.location
  }).check(locationRule)
  return {
    first: SchemaParser.decodeUnknownResult(draft),
    all: SchemaParser.decodeUnknownResult(draft, { errors: "all", reportInput: true }),
    members: SchemaParser.decodeUnknownResult(draftMembersOnly(allowPrivateWebhooks)),
    placement: SchemaParser.decodeUnknownResult(placement, { errors: "all", reportInput: true })
  }
}
const strictDecoders = decodersFor(false)
const lenientDecoders = decodersFor(true)

// ---------------------------------------------------------------------------------------------
// Failures to issues
// ---------------------------------------------------------------------------------------------

/** The issue for a member of the wrong JSON type (`null` for a required member: missing). */
const wrongType = (name: DraftMember, input: unknown): TaskIssue => {
  const f = fieldOf(name)
  if (input === null && f.requirement === "required") return issue(name, "required", requiredMessage(f))
  if (name === "result_schema") return issue(name, "invalid", resultSchemaProblem(input)!.message)
  return issue(name, "invalid", `${name} must be a string; got ${jsonType(input)}.`)
}

const isIssueCode = (code: unknown): code is IssueCode => typeof code === "string" && Object.hasOwn(IssueCode, code)

/** Every failure under `node` as issues, the member named by the first step of its path. */
const collect = (node: SchemaIssue.Issue, field: DraftMember | undefined, out: Array<TaskIssue>): void => {
  switch (node._tag) {
    case "Composite":
      for (const child of node.issues) collect(child, field, out)
      return
    case "Pointer":
      collect(node.issue, field ?? (node.path[0] as DraftMember), out)
      return
    case "Filter":
    case "Encoding":
      collect(node.issue, field, out)
      return
    case "MissingKey":
      if (field !== undefined) out.push(issue(field, "required", requiredMessage(fieldOf(field))))
      return
    case "InvalidValue": {
      const code = node.annotations?.[draftCodeKey]
      const message = node.annotations?.message
      if (field !== undefined && isIssueCode(code) && typeof message === "string") out.push(issue(field, code, message))
      return
    }
    case "AnyOf":
      // A string or null: the string's own failures when it was a string, else the wrong type.
      if (node.issues.length > 0) for (const child of node.issues) collect(child, field, out)
      else if (field !== undefined) out.push(wrongType(field, node.input))
      return
    case "InvalidType":
      if (field !== undefined) out.push(wrongType(field, node.input))
      return
    default:
      // No other failure arises from the draft's schemas (no unions of objects, no unknown keys refused).
      return
  }
}

/** The issue list of a decoding failure: each failing member once, in the order of the members. */
export const issuesOf = (failure: SchemaIssue.Issue): Array<TaskIssue> => {
  const out: Array<TaskIssue> = []
  collect(failure, undefined, out)
  return out
}

// ---------------------------------------------------------------------------------------------
// The rule set
// ---------------------------------------------------------------------------------------------

const knownMembers: ReadonlySet<string> = new Set(draftMembers)

const MAX_UNRECOGNIZED_WARNINGS = 20

/** The body's own members that the draft knows (inherited and unknown ones are not read). */
const knownOwnMembers = (body: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const own: Record<string, unknown> = {}
  for (const name of draftMembers) if (Object.hasOwn(body, name)) own[name] = body[name]
  return own
}

/** Decodes the members: the draft and no issue, or the members that passed and every issue. */
const decode = (
  own: Record<string, unknown>,
  decoders: ReturnType<typeof decodersFor>
): { readonly members: Decoded; readonly issues: Array<TaskIssue> } => {
  const valid = decoders.first(own)
  if (Result.isSuccess(valid)) return { members: valid.success as Decoded, issues: [] }
  const failed = decoders.all(own)
  if (Result.isSuccess(failed)) return { members: failed.success as Decoded, issues: [] }
  const issues = issuesOf(failed.failure)
  const failing = new Set(issues.map((i) => i.field))
  // The cross-member rule runs only on a draft whose members all passed: it is run here on the
  // members it reads, so its issue is named beside the others.
  const placement = decoders.placement(own)
  if (Result.isFailure(placement) && !failing.has("execution_mode") && !failing.has("location")) {
    for (const found of issuesOf(placement.failure)) insertInPlace(issues, found)
  }
  const passed: Record<string, unknown> = {}
  for (const name of Object.keys(own)) if (!failing.has(name)) passed[name] = own[name]
  const members = decoders.members(passed)
  return { members: Result.isSuccess(members) ? (members.success as Decoded) : {}, issues }
}

/** Checks a draft body against every rule of the draft; never throws. */
export const validateDraft = (
  body: Readonly<Record<string, unknown>>,
  options: ValidateDraftOptions = {}
): DraftValidation => {
  const decoders = options.allowPrivateWebhooks === true ? lenientDecoders : strictDecoders
  const { issues, members } = decode(knownOwnMembers(body), decoders)
  const failing = new Set(issues.map((i) => i.field))
  const warnings: Array<TaskIssue> = []
  let deadline: string | undefined

  // What decoding cannot say, in the order of the members: it reads the decoded values.
  for (const field of draftFields) {
    const name = field.name
    const value = members[name]
    if (value === undefined) {
      if (field.requirement === "recommended" && !failing.has(name)) {
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
    if (name === "timing") {
      const reading = readTiming(value as string)
      deadline = reading.deadline
      if (deadline !== undefined && options.now !== undefined && deadlinePassed(deadline, options.now)) {
        insertInPlace(
          issues,
          issue(
            name,
            "deadline_passed",
            `the deadline read from timing, ${deadline}, is not in the future (it is now ${options.now}): a task with it would be declined at once with deadline_passed. Put a later date or date-time in timing, e.g. "by ${laterExample(options.now)}".`
          )
        )
      }
      for (const message of reading.warnings) warnings.push(issue(name, "ambiguous", message))
    } else if (name === "budget") {
      const ambiguity = budgetAmbiguity(value as string)
      if (ambiguity !== undefined) warnings.push(issue(name, "ambiguous", ambiguity))
    } else if (name === "idempotency_key" && isIdempotencyKeyTooShort(value as string)) {
      // The document's pattern says it; submission refuses it (400, before the draft is judged).
      const length = [...(value as string)].length
      insertInPlace(issues, issue(name, "invalid", `${name} must be ${idempotencyKeyRule}; got ${length} characters.`))
    }
  }

  // Unknown members, in the body's key order. Only the keys are inspected (and `deadline`, a
  // known output member); values of unknown members are never read.
  let unrecognized = 0
  const unknownKeys = Object.keys(body).filter((key) => !knownMembers.has(key))
  for (const key of unknownKeys) {
    if (key === "deadline") {
      const raw = body.deadline
      if (typeof raw === "string" && deadline !== undefined && raw.trim() === deadline) continue
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
    task: taskOf(members, deadline),
    idempotencyKey: members.idempotency_key
  }
}

// The schema declares the members in the order the task lists them.
const taskOrder = Object.keys(NormalizedDraft.fields) as ReadonlyArray<keyof NormalizedDraft>

/** The normalised draft: members in schema order (equal drafts serialise identically), no idempotency_key. */
const taskOf = (members: Decoded, deadline: string | undefined): NormalizedDraft => {
  const ordered: Record<string, unknown> = {}
  for (const key of taskOrder) {
    const value = key === "deadline" ? deadline : members[key]
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

/** Inserts `entry` into `list` in place, as `insertByField` places it. */
function insertInPlace(list: Array<TaskIssue>, entry: TaskIssue): void {
  const rank = issueRank(entry.field)
  const at = list.findIndex((i) => issueRank(i.field) > rank)
  if (at === -1) list.push(entry)
  else list.splice(at, 0, entry)
}
