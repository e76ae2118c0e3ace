/**
 * Tasks, transport-free: preflight, idempotent submission, reading, and the search assessment.
 * The HTTP handlers (and, later, the MCP tools) are thin adapters over this service.
 */
import { hash } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppConfig } from "../config/app_config.ts"
import { type DirectorySearch, searchDirectory } from "../domain/directory_search.ts"
import {
  DraftRejected,
  IdempotencyKeyMismatch,
  IdempotencyKeyReused,
  IdempotencyKeyTooShort,
  type StorageUnavailable,
  TaskNotFound
} from "../domain/errors.ts"
import { type Infeasibility, infeasibilityOf, warningOf } from "../domain/feasibility.ts"
import { eligibilityCounts, rankTop } from "../domain/matching.ts"
import { type TaskProfile, taskTextOf } from "../domain/matching_rules.ts"
import type { ParticipantRecord } from "../domain/participant.ts"
import { asRecorded, lateRetryKey, retryVerdict } from "../domain/replay.ts"
import type { Brief, CreatedTask, Task } from "../domain/task.ts"
import type { ExecutionMode } from "../domain/task_draft/execution_mode.ts"
import { isIdempotencyKeyTooShort } from "../domain/task_draft/idempotency.ts"
import type { NormalizedDraft } from "../domain/task_draft/schema.ts"
import {
  type DraftValidation,
  validateDraft,
  withUnknownParticipant,
  withWarning
} from "../domain/task_draft/validate.ts"
import type { StoredTask } from "../domain/task_record.ts"
import { versionedCache } from "../read_cache.ts"
import { hotFn } from "../tracing.ts"
import { Ids } from "./ids.ts"
import { ParticipantDirectory } from "./participant_directory.ts"
import { SandboxClock } from "./sandbox_clock.ts"
import { TaskEvents } from "./task_events.ts"
import { TaskStore } from "./task_store.ts"
import { TaskTokens } from "./task_tokens.ts"
import { taskViewFor } from "./task_view.ts"
import { type StoredEvent, WebhookOutbox } from "./webhook_outbox.ts"

export interface Feasibility {
  readonly eligible_participants: number
  readonly sample: ReadonlyArray<string>
}

export interface PreflightOutcome {
  /** The draft rules' verdict, with the doomed-draft warning (`infeasibility`) among its warnings. */
  readonly validation: DraftValidation
  readonly feasibility: Feasibility
  /** Why nobody can take the task as drafted, when nobody can (and the mode is known). */
  readonly infeasibility: Infeasibility | undefined
}

export interface SubmitInput {
  readonly body: Readonly<Record<string, unknown>>
  /** The key sent beside the draft, when sent: REST's `idempotency-key` header, MCP's `idempotency_key` argument. */
  readonly headerKey: string | undefined
  /** What a refusal of `headerKey` calls it: REST's header unless told (MCP names its argument). */
  readonly headerKeyIs?: "header" | "argument"
  /** Recorded as the acting agent when the draft names none. */
  readonly userAgent: string | undefined
}

export interface Submission {
  readonly task: CreatedTask
  /** True when the key was seen before with the same draft: the original task, nothing created. */
  readonly replayed: boolean
  readonly version: number
}

export interface SearchOutcome extends DirectorySearch {
  readonly draft: NormalizedDraft
  readonly preflight: PreflightOutcome
}

export class Tasks extends Context.Service<
  Tasks,
  {
    preflight(body: Readonly<Record<string, unknown>>): Effect.Effect<PreflightOutcome, StorageUnavailable>
    submit(
      input: SubmitInput
    ): Effect.Effect<
      Submission,
      DraftRejected | IdempotencyKeyMismatch | IdempotencyKeyReused | IdempotencyKeyTooShort | StorageUnavailable
    >
    read(
      reference: string
    ): Effect.Effect<{ readonly task: Task; readonly version: number }, TaskNotFound | StorageUnavailable>
    /** The current version of a task, without reading the rest: enough to answer a revalidation. */
    versionOf(reference: string): Effect.Effect<number, TaskNotFound | StorageUnavailable>
    search(query: string, limit: number): Effect.Effect<SearchOutcome, StorageUnavailable>
    /** The public shape of a stored task. */
    view(task: StoredTask): Task
    /** Where a task's webhook events go (null: nowhere) and each of them, in order. */
    deliveries(
      reference: string
    ): Effect.Effect<
      { readonly webhookUrl: string | null; readonly events: ReadonlyArray<StoredEvent> },
      TaskNotFound | StorageUnavailable
    >
    /** Offers and tasks of a participant, as they read. */
    forParticipant(slug: string): Effect.Effect<ReadonlyArray<Task>, StorageUnavailable>
  }
>()("task-marketplace/services/Tasks") {
  static readonly layer = Layer.effect(
    Tasks,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const directory = yield* ParticipantDirectory
      const store = yield* TaskStore
      const tokens = yield* TaskTokens
      const ids = yield* Ids
      const events = yield* TaskEvents
      const time = yield* SandboxClock
      const outbox = yield* WebhookOutbox

      /**
       * The shared rule set at the service's current instant (a deadline already passed is an
       * issue), plus the one rule that needs the directory: participant_slug must exist. Gives the
       * named participant too, for the feasibility assessment.
       */
      const validate = Effect.fnUntraced(function* (body: Readonly<Record<string, unknown>>) {
        const validation = validateDraft(body, {
          now: new Date(yield* time.now).toISOString(),
          allowPrivateWebhooks: config.webhooks.allowPrivate
        })
        const slug = validation.task.participant_slug
        if (slug === undefined) return { validation, named: undefined }
        const named = yield* directory.findBySlug(slug)
        return { validation: named === undefined ? withUnknownParticipant(validation) : validation, named }
      })

      /**
       * Who could take the task, from one ranking; when nobody can, why (worked out from counts
       * only then), added to the validation's warnings.
       */
      const assess = Effect.fnUntraced(function* (validation: DraftValidation, named: ParticipantRecord | undefined) {
        const { everyone, unavailable } = yield* directory.matching
        const task = validation.task
        const mode = task.execution_mode as ExecutionMode | undefined
        const profile: TaskProfile = {
          executionMode: mode,
          // Ranking leaves the place out of a digital task itself; a task of unknown mode is
          // still confined to the place it names.
          location: task.location,
          text: taskTextOf(task.action, task.expected_result),
          participantSlug: task.participant_slug
        }
        // Who is not taking offers gets none: they are neither counted nor sampled.
        const { eligible, best } = rankTop(profile, everyone, { limit: 5, unavailable })
        const feasibility = { eligible_participants: eligible, sample: best.map((r) => r.participant.slug) }
        const infeasibility =
          eligible === 0
            ? infeasibilityOf(profile, eligibilityCounts(profile, everyone), named, {
                named: named !== undefined && unavailable.has(named.slug),
                // Those the ranking would have found, were everyone taking offers.
                eligible: unavailable.size === 0 ? 0 : rankTop(profile, everyone, { limit: 0 }).eligible
              })
            : undefined
        return {
          validation: infeasibility === undefined ? validation : withWarning(validation, warningOf(infeasibility)),
          feasibility,
          infeasibility
        }
      })

      const preflight = hotFn("Tasks.preflight")(function* (body: Readonly<Record<string, unknown>>) {
        const { validation, named } = yield* validate(body)
        return yield* assess(validation, named)
      })

      const view = taskViewFor(config)

      // A replay answers with the same body as the original 201: the task as it was recorded,
      // whatever has happened to it since (its current state is one GET away).
      const created = (
        stored: StoredTask,
        replayed: boolean,
        token = tokens.tokenFor(stored.reference)
      ): Submission => {
        const recorded = asRecorded(stored)
        return {
          task: {
            ...view(recorded),
            task_token: token,
            ...(stored.webhookUrl === null ? {} : { webhook_secret: tokens.webhookSecretFor(stored.reference) })
          },
          replayed,
          version: recorded.version
        }
      }

      /** Refuses a key too short to be a secret (issue 33): a replay hands back the task token. */
      const checkKey = (key: string | undefined, source: "header" | "body") =>
        key !== undefined && isIdempotencyKeyTooShort(key)
          ? Effect.fail(new IdempotencyKeyTooShort({ source, length: [...key].length }))
          : Effect.void

      const submit = hotFn("Tasks.submit")(function* (input: SubmitInput) {
        // Every key sent is checked before anything is looked up by it, so a task recorded under a
        // shorter key before the rule cannot be replayed with it either.
        yield* checkKey(input.headerKey, "header")
        const { validation, named } = yield* validate(input.body)
        const bodyKey = validation.idempotencyKey
        yield* checkKey(bodyKey, "body")
        if (input.headerKey !== undefined && bodyKey !== undefined && input.headerKey !== bodyKey) {
          return yield* new IdempotencyKeyMismatch({ header: input.headerKey, body: bodyKey })
        }
        const key = input.headerKey ?? bodyKey ?? null
        const draft = validation.task
        const draftFingerprint = fingerprint(draft)
        if (!validation.valid) {
          // A retry of a recorded submission whose deadline has passed since is still that
          // submission (domain/replay.ts).
          const lateKey = lateRetryKey(validation.issues, key)
          const recorded = lateKey === undefined ? undefined : yield* store.findByIdempotencyKey(lateKey)
          const verdict = retryVerdict(recorded, draftFingerprint)
          switch (verdict._tag) {
            case "Rejected":
              return yield* new DraftRejected({ validation })
            case "Reused":
              return yield* new IdempotencyKeyReused({ key: key ?? "", reference: verdict.reference })
            case "Replay":
              return created(verdict.task, true)
          }
        }

        const { infeasibility } = yield* assess(validation, named)
        const reference = yield* ids.taskReference
        const token = tokens.tokenFor(reference)
        const now = new Date(yield* time.now).toISOString()
        const task: StoredTask = {
          reference,
          state: "open",
          executionMode: draft.execution_mode as ExecutionMode,
          participantSlug: draft.participant_slug ?? null,
          agent: draft.agent ?? agentFromUserAgent(input.userAgent),
          principal: draft.principal ?? null,
          brief: briefOf(draft),
          result: null,
          outcome: null,
          history: [{ from: null, to: "open", actor: "agent", at: now }],
          version: 1,
          tokenHash: tokens.hash(token),
          idempotencyKey: key,
          draftFingerprint,
          createdAt: now,
          updatedAt: now,
          requestedParticipant: draft.participant_slug ?? null,
          passedOver: [],
          offerExpiresAt: null,
          reviewDueAt: null,
          deadlineAt: draft.deadline ?? null,
          infeasibility: infeasibility ?? null,
          revisions: 0,
          // Due at once: the dispatcher offers the task right after the 201 (never inside it).
          nextTimerAt: now,
          webhookUrl: draft.webhook_url ?? null
        }
        // A task with a webhook has its first event (`open`) recorded with it.
        const outcome = yield* store.insert(task, task.webhookUrl === null ? undefined : outbox.record([task]))
        if (outcome._tag === "Created") {
          yield* events.dueNow
          if (task.webhookUrl !== null) yield* outbox.wake
          return created(outcome.task, false, token)
        }
        const verdict = retryVerdict(outcome.task, draftFingerprint)
        if (verdict._tag === "Replay") return created(verdict.task, true)
        return yield* new IdempotencyKeyReused({ key: key ?? "", reference: outcome.task.reference })
      })

      // The task as read last, at its version: a view is a function of the stored row, whose version
      // moves with every change. The version is read first (from the commit mark when nothing was
      // committed since: no statement), so a poll that finds the task unchanged reads no row.
      const views = versionedCache<string, { readonly task: Task; readonly version: number }>({ budget: keptViews })
      const read = hotFn("Tasks.read")(function* (reference: string) {
        const version = yield* store.versionOf(reference)
        if (version === undefined) return yield* new TaskNotFound({ reference })
        const kept = views.get(reference, version)
        if (kept !== undefined) return kept
        const stored = yield* store.findByReference(reference)
        if (stored === undefined) return yield* new TaskNotFound({ reference })
        const current = { task: view(stored), version: stored.version }
        views.set(reference, stored.version, current)
        return current
      })

      const versionOf = hotFn("Tasks.versionOf")(function* (reference: string) {
        const version = yield* store.versionOf(reference)
        if (version === undefined) return yield* new TaskNotFound({ reference })
        return version
      })

      const search = Effect.fn("Tasks.search")(function* (query: string, limit: number) {
        const { everyone, unavailable } = yield* directory.matching
        const found = searchDirectory(query, everyone, limit, unavailable)
        const body: Record<string, unknown> = { action: query }
        if (found.executionMode !== null) body.execution_mode = found.executionMode
        if (found.location !== null) body.location = found.location
        const preflightOutcome = yield* preflight(body)
        return { ...found, draft: preflightOutcome.validation.task, preflight: preflightOutcome }
      })

      const deliveries = Effect.fn("Tasks.deliveries")(function* (reference: string) {
        const stored = yield* store.findByReference(reference)
        if (stored === undefined) return yield* new TaskNotFound({ reference })
        const events = stored.webhookUrl === null ? [] : yield* outbox.forTask(reference)
        return { webhookUrl: stored.webhookUrl, events }
      })

      const forParticipant = Effect.fn("Tasks.forParticipant")(function* (slug: string) {
        return (yield* store.forParticipant(slug)).map(view)
      })

      return Tasks.of({ preflight, submit, read, versionOf, search, view, deliveries, forParticipant })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = Tasks.layer.pipe(
    Layer.provide([
      Ids.layer,
      ParticipantDirectory.layer,
      SandboxClock.layerWithDependencies,
      TaskEvents.layer,
      TaskStore.layer,
      TaskTokens.layer,
      WebhookOutbox.layer
    ])
  )
}

/** How many tasks' views `read` keeps (the most recently read): a poll of a task unchanged since reads no row. */
const keptViews = 1_000

const briefOf = (draft: NormalizedDraft): Brief => ({
  action: draft.action ?? "",
  location: draft.location ?? null,
  timing: draft.timing ?? null,
  deadline: draft.deadline ?? null,
  expected_result: draft.expected_result ?? "",
  acceptance_test: draft.acceptance_test ?? "",
  constraints: draft.constraints ?? null,
  budget: draft.budget ?? null,
  contact_email: draft.contact_email ?? null,
  ...(draft.result_schema === undefined ? {} : { result_schema: draft.result_schema })
})

/** Same normalised draft ⇔ same fingerprint: the normalised task has a fixed member order. */
const fingerprint = (draft: NormalizedDraft) => hash("sha256", JSON.stringify(draft), "base64url")

const agentFromUserAgent = (userAgent: string | undefined) => {
  const value = userAgent?.trim().slice(0, 500)
  return value === undefined || value === "" ? "unknown" : value
}
