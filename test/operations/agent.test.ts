// The agent's operations over the real services and a temporary database, with no transport: the
// seam REST and MCP share. Each refusal is checked by its tag and by what the edge's one mapping
// makes of it (status, code, message, hint), the words REST and MCP answer with; with the store
// swapped for one whose storage is gone, the 503s a client retries on.
import { randomUUID } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { StorageUnavailable } from "../../src/domain/errors.ts"
import { describeAllowed } from "../../src/domain/lifecycle.ts"
import { AgentOperations } from "../../src/operations/agent.ts"
import { TaskStore } from "../../src/services/task_store.ts"
import { backend, statementsOf } from "../support/database.ts"
import { OperationsLayer, operationsOn, refusalOf } from "../support/operations.ts"
import { validDraft } from "../support/server.ts"
import { nextReference } from "../support/tasks.ts"

const key = () => `key-${randomUUID()}`

/** A submission of `draft` under `headerKey`, as REST sends it. */
const submit = (draft: Record<string, unknown>, headerKey: string | undefined = key()) =>
  Effect.flatMap(AgentOperations, (operations) => operations.submit({ body: draft, headerKey, userAgent: "tests/1" }))

layer(OperationsLayer, { excludeTestServices: true, timeout: "60 seconds" })("AgentOperations", (it) => {
  describe("submit", () => {
    it.effect("records a task once per key: the same draft again is a replay of the same task", () =>
      Effect.gen(function* () {
        const idempotencyKey = key()
        const first = yield* submit(validDraft(), idempotencyKey)
        assert.isFalse(first.replayed)
        const again = yield* submit(validDraft(), idempotencyKey)
        assert.isTrue(again.replayed)
        assert.strictEqual(again.task.reference, first.task.reference)
        assert.strictEqual(again.task.task_token, first.task.task_token)
      })
    )

    it.effect("refuses a key used for another draft: IdempotencyKeyReused, 422 idempotency_key_reused", () =>
      Effect.gen(function* () {
        const idempotencyKey = key()
        yield* submit(validDraft(), idempotencyKey)
        const { body } = yield* refusalOf(
          submit(validDraft({ action: "Photograph another storefront on Torstraße" }), idempotencyKey),
          "IdempotencyKeyReused",
          422,
          "idempotency_key_reused"
        )
        assert.strictEqual(body.message, "This idempotency key was already used to submit a different draft.")
      })
    )

    it.effect("refuses a key too short to be a secret, naming where it came from: 400 invalid_request", () =>
      Effect.gen(function* () {
        const operations = yield* AgentOperations
        const header = yield* refusalOf(submit(validDraft(), "short"), "IdempotencyKeyTooShort", 400, "invalid_request")
        assert.match(header.body.message, /^The Idempotency-Key header is too short \(5 characters\)/)
        assert.deepStrictEqual(
          header.body.details?.map((d) => d.field),
          ["idempotency-key"]
        )
        // MCP sends the key as an argument: the refusal names the argument.
        const argument = yield* refusalOf(
          operations.submit({ body: validDraft(), headerKey: "short", headerKeyIs: "argument", userAgent: undefined }),
          "IdempotencyKeyTooShort",
          400,
          "invalid_request"
        )
        assert.match(argument.body.message, /^The idempotency_key argument is too short/)
        const member = yield* refusalOf(
          submit(validDraft({ idempotency_key: "short" }), undefined),
          "IdempotencyKeyTooShort",
          400,
          "invalid_request"
        )
        assert.deepStrictEqual(
          member.body.details?.map((d) => d.field),
          ["idempotency_key"]
        )
      })
    )

    it.effect("refuses different keys in the header and the body: 400 idempotency_key_mismatch", () =>
      refusalOf(
        submit(validDraft({ idempotency_key: key() }), key()),
        "IdempotencyKeyMismatch",
        400,
        "idempotency_key_mismatch"
      )
    )

    it.effect("refuses an incomplete draft with each issue in details: 422 preflight_failed", () =>
      Effect.gen(function* () {
        const { body } = yield* refusalOf(
          submit(validDraft({ action: undefined })),
          "DraftRejected",
          422,
          "preflight_failed"
        )
        assert.include(
          (body.details ?? []).map((d) => d.field),
          "action"
        )
      })
    )
  })

  describe("read and preflight", () => {
    it.effect("reads a submitted task at its version; an unknown reference is 404 task_not_found", () =>
      Effect.gen(function* () {
        const operations = yield* AgentOperations
        const { task } = yield* submit(validDraft())
        const read = yield* operations.read(task.reference)
        assert.strictEqual(read.task.reference, task.reference)
        assert.strictEqual(yield* operations.versionOf(task.reference), read.version)
        const { body } = yield* refusalOf(operations.read("tsk_nothing"), "TaskNotFound", 404, "task_not_found")
        assert.strictEqual(body.message, 'No task has the reference "tsk_nothing".')
        yield* refusalOf(operations.versionOf("tsk_nothing"), "TaskNotFound", 404, "task_not_found")
      })
    )

    it.effect(
      "a read of a task unchanged since reads no row (on SQLite no statement at all), and every change shows",
      () =>
        Effect.gen(function* () {
          const operations = yield* AgentOperations
          const { task } = yield* submit(validDraft())
          const first = yield* operations.read(task.reference)
          const again = yield* statementsOf(operations.read(task.reference))
          assert.deepStrictEqual(again.result, first)
          // The version only, or nothing when SQLite's commit marks say nothing was committed since.
          assert.deepStrictEqual(
            again.statements.map(([statement]) => statement.replace(/\s+/g, " ").trim()),
            backend === "sqlite" ? [] : ["SELECT version FROM tasks WHERE reference = $1"]
          )
          yield* operations.cancel(task.reference, task.task_token, "no longer needed")
          const after = yield* operations.read(task.reference)
          assert.strictEqual(after.task.state, "cancelled")
          assert.isAbove(after.version, first.version)
        })
    )

    it.effect("preflight judges a draft without storing it", () =>
      Effect.gen(function* () {
        const operations = yield* AgentOperations
        const valid = yield* operations.preflight(validDraft())
        assert.isTrue(valid.valid)
        const invalid = yield* operations.preflight(validDraft({ action: undefined }))
        assert.isFalse(invalid.valid)
        assert.strictEqual(invalid.state, "preflight_failed")
      })
    )

    it.effect("a participant that is not listed, or a cursor not issued here, is refused", () =>
      Effect.gen(function* () {
        const operations = yield* AgentOperations
        const { body } = yield* refusalOf(
          operations.getParticipant("nobody-here"),
          "ParticipantNotFound",
          404,
          "participant_not_found"
        )
        assert.strictEqual(body.message, 'No participant has the slug "nobody-here".')
        yield* refusalOf(
          operations.listParticipants({ cursor: "bm90LW91cnM" }),
          "RequestInvalid",
          400,
          "invalid_request"
        )
      })
    )
  })

  describe("the agent's moves", () => {
    it.effect("a wrong token is 401 before anything else; review out of turn is 409 with the allowed moves", () =>
      Effect.gen(function* () {
        const operations = yield* AgentOperations
        const { task } = yield* submit(validDraft())
        yield* refusalOf(operations.checkAgent(task.reference, "tt_wrong"), "Unauthenticated", 401, "unauthorized")
        yield* refusalOf(
          operations.review(task.reference, "tt_wrong", { decision: "accept" }),
          "Unauthenticated",
          401,
          "unauthorized"
        )
        yield* refusalOf(
          operations.cancel("tsk_nothing", task.task_token, undefined),
          "TaskNotFound",
          404,
          "task_not_found"
        )
        const { body } = yield* refusalOf(
          operations.review(task.reference, task.task_token, { decision: "accept" }),
          "InvalidTransition",
          409,
          "invalid_transition"
        )
        assert.strictEqual(body.message, `The task is ${task.state}: the agent cannot move it to settled.`)
        assert.strictEqual(
          body.hint,
          `From ${task.state} the lifecycle allows: ${describeAllowed(task.state)}. Read the task for its current state.`
        )
      })
    )

    it.effect("cancels with the task's token; a second cancel is 409", () =>
      Effect.gen(function* () {
        const operations = yield* AgentOperations
        const { task } = yield* submit(validDraft())
        const cancelled = yield* operations.cancel(task.reference, task.task_token, "no longer needed")
        assert.strictEqual(cancelled.state, "cancelled")
        yield* refusalOf(
          operations.cancel(task.reference, task.task_token, undefined),
          "InvalidTransition",
          409,
          "invalid_transition"
        )
      })
    )
  })
})

/** The real store, with storage gone for every read and write of a task. */
const StoreDown = Layer.effect(
  TaskStore,
  Effect.gen(function* () {
    const store = yield* TaskStore
    const down = () => Effect.fail(new StorageUnavailable({ cause: new Error("connection refused") }))
    return TaskStore.of({
      ...store,
      insert: down,
      findByReference: down,
      findByIdempotencyKey: down,
      versionOf: down,
      update: down
    })
  })
).pipe(Layer.provide(TaskStore.layer))

layer(operationsOn(StoreDown), { excludeTestServices: true, timeout: "60 seconds" })(
  "AgentOperations without storage",
  (it) => {
    it.effect(
      "a submission is 503 task_not_created (a retry with the same key is safe); a read 503 storage_unavailable",
      () =>
        Effect.gen(function* () {
          const operations = yield* AgentOperations
          const { body } = yield* refusalOf(submit(validDraft()), "TaskNotCreated", 503, "task_not_created")
          assert.strictEqual(body.message, "The task could not be recorded: storage is unavailable.")
          assert.strictEqual(
            body.hint,
            "Retry in 2 seconds with the same idempotency key; the retry cannot create a second task."
          )
          const read = yield* refusalOf(
            operations.read(nextReference()),
            "StorageUnavailable",
            503,
            "storage_unavailable"
          )
          assert.strictEqual(read.body.hint, "Retry in 2 seconds.")
        })
    )
  }
)
