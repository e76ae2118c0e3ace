/**
 * Draft issues and warnings: their codes as data, their severity and their wire shape, shared by
 * the rule set (`validate.ts`), the directory's warnings (`feasibility.ts`), /capabilities and the
 * error envelope.
 */
import * as Schema from "effect/Schema"

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

/** An issue or a warning, on the wire. */
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

/** One issue or warning about `field`. */
export const issue = (field: string, code: IssueCode, message: string): TaskIssue => ({ field, code, message })
