/**
 * The draft rule set: the one pure check shared by preflight and task submission (`validateDraft`),
 * and the marks that rules needing more than the draft add to its answer (`withUnknownParticipant`,
 * `withWarning`).
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
 * - The deadline is read from timing (`timing.ts`, which says how); a deadline not after the
 *   caller's `now` (the service's clock) is a `deadline_passed` issue: the dispatcher would decline
 *   the task at once, by the same rule (`deadlinePassed`).
 * - Budget: a warning when no amount or currency is recognisable (`currency.ts`, which says how).
 * - A body member `deadline` equal to the derived deadline is accepted silently, so echoing the
 *   preflight `task` back as a submission is warning-free; otherwise it is `unrecognized`.
 * - At most 20 `unrecognized` warnings are listed individually; the rest are summarised in one.
 */
import { type ResultSchema, resultSchemaProblem } from "../result_schema.ts"
import { webhookUrlProblem } from "../webhooks.ts"
import { budgetAmbiguity } from "./currency.ts"
import { isEmail } from "./email.ts"
import { type ExecutionMode, isExecutionMode } from "./execution_mode.ts"
import {
  type DraftField,
  type DraftMember,
  draftFields,
  draftMembers,
  participantSlugPattern,
  SLUG_MAX
} from "./fields.ts"
import { issue, type TaskIssue } from "./issues.ts"
import { NormalizedDraft } from "./schema.ts"
import { suggest } from "./suggestions.ts"
import { exceeds, jsonType, show, showKey } from "./text.ts"
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

const knownMembers: ReadonlySet<string> = new Set(draftMembers)

const MAX_UNRECOGNIZED_WARNINGS = 20

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

/** Checks a draft body against every rule of the draft; never throws. */
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
