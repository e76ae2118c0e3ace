/**
 * The draft's members as data: their limits, requirements and descriptions (`draftFields`), from
 * which validation (`validate.ts`), `/capabilities` (`draftRules`) and the OpenAPI schemas
 * (`schema.ts`) are derived instead of hand-kept copies (DECISIONS §9).
 */
import { RESULT_SCHEMA_MAX_BYTES } from "../result_schema.ts"
import { WEBHOOK_URL_MAX } from "../webhooks.ts"
import type { ExecutionMode } from "./execution_mode.ts"
import { IDEMPOTENCY_KEY_MAX, idempotencyKeyRule } from "./idempotency.ts"

/** The draft's members, in the order issues, warnings and documents list them. */
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

/** How much a member is asked for: required blocks the draft, recommended only warns. */
export type DraftRequirement = "required" | "conditionally_required" | "recommended" | "optional"

/** One member of the draft as data. */
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
/** The longest participant_slug, in characters. */
export const SLUG_MAX = 64

/** The field table: every rule about a single member reads it. */
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
      "an https URL the service POSTs a signed event to each time the task changes state (Standard Webhooks); the 201 carries the webhook_secret to verify them with. Its host must be public: localhost and private, loopback, link-local and other non-public addresses are refused, here and again at every delivery by the address connected to (plain http and private addresses only when the service runs with WEBHOOK_ALLOW_PRIVATE=true, for development); no user name or password, no #fragment",
    requirement: "optional"
  },
  {
    name: "idempotency_key",
    maxLength: IDEMPOTENCY_KEY_MAX,
    description: `body counterpart of the idempotency-key header, a secret: ${idempotencyKeyRule}`,
    requirement: "optional"
  }
]

/** The field table's entry for a member. */
export const fieldOf = (name: DraftMember): DraftField => draftFields.find((f) => f.name === name)!

/** The draft's requirements and limits as /capabilities serves them. */
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

/** What a participant slug looks like: lower-case letters and digits in hyphen-separated groups. */
export const participantSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
