/**
 * The draft's wire shapes as Schemas: the request body (`TaskDraft`) and the normalised draft
 * (`NormalizedDraft`), both derived from the field table. They document; they never decode (the
 * rule set in `validate.ts` reads bodies).
 */
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import { ResultSchema } from "../result_schema.ts"
import { ExecutionMode, executionModes } from "./execution_mode.ts"
import { type DraftField, type DraftMember, fieldOf } from "./fields.ts"
import { IDEMPOTENCY_KEY_MIN } from "./idempotency.ts"

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
