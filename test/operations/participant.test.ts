// The participant's operations over the real services and a temporary database, with no
// transport: the seam REST, the participant's MCP tools and the console share. A task is put in
// front of a participant through the store (no dispatcher runs); each move and refusal then goes
// through the operations, the refusals checked by tag and by their envelope (status, code).
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Stream } from "effect"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { type Caller, ParticipantOperations } from "../../src/operations/participant.ts"
import { TaskStore } from "../../src/services/task_store.ts"
import { OperationsLayer, refusalOf } from "../support/operations.ts"
import { storedTask } from "../support/tasks.ts"

const ada: Caller = { subject: "subject-ada", slug: "ada-lovelace" }
const grace: Caller = { subject: "subject-grace", slug: "grace-hopper" }

/** A digital task offered to Ada (or in `state` with her as its participant). */
const offeredToAda = (state: StoredTask["state"] = "awaiting_participant") =>
  Effect.gen(function* () {
    const task = storedTask({ state, participantSlug: ada.slug, executionMode: "digital" })
    yield* (yield* TaskStore).insert(task)
    return task.reference
  })

const bytes = (text: string) => Stream.make(new TextEncoder().encode(text))

layer(OperationsLayer, { excludeTestServices: true, timeout: "60 seconds" })("ParticipantOperations", (it) => {
  describe("signing in", () => {
    it.effect("no token is 401 naming where to sign in; a token that does not verify is 401 too", () =>
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        const resource = { audience: "https://api.example/v1", metadataPath: "/.well-known/oauth-protected-resource" }
        const { body } = yield* refusalOf(operations.signIn(undefined, resource), "SignInRequired", 401, "unauthorized")
        assert.strictEqual(
          body.hint,
          "Sign in with OAuth 2.1 (see /.well-known/oauth-protected-resource) and send Authorization: Bearer <access token>."
        )
        yield* refusalOf(operations.signIn("not-a-token", resource), "Unauthenticated", 401, "unauthorized")
      })
    )

    it.effect("an account linked to a participant no longer listed is 403", () =>
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        const { body } = yield* refusalOf(operations.me(ada), "LinkedParticipantMissing", 403, "forbidden")
        assert.strictEqual(body.message, "Your account is linked to a participant that no longer exists.")
      })
    )
  })

  describe("moves", () => {
    it.effect("accept, start and submit a result, each answered as the task now reads", () =>
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        const reference = yield* offeredToAda()
        const board = yield* operations.board(ada)
        assert.deepStrictEqual(
          board.map((entry) => entry.task.reference),
          [reference]
        )
        assert.strictEqual((yield* operations.accept(ada, reference)).state, "accepted")
        assert.strictEqual((yield* operations.start(ada, reference)).state, "in_flight")
        const submitted = yield* operations.submitResult(ada, reference, { summary: "Done: three bugs found." })
        assert.strictEqual(submitted.state, "submitted")
        assert.strictEqual((yield* operations.myTasks(ada)).count, 1)
      })
    )

    it.effect("the wrong party is 403 and an unknown task 404, before anything is judged", () =>
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        const reference = yield* offeredToAda()
        const { body } = yield* refusalOf(operations.accept(grace, reference), "NotPermitted", 403, "forbidden")
        assert.strictEqual(body.hint, "Only the participant a task is offered to (or held by) can act on it.")
        yield* refusalOf(operations.checkHolder(grace, reference), "NotPermitted", 403, "forbidden")
        yield* refusalOf(operations.checkHolder(ada, "tsk_nothing"), "TaskNotFound", 404, "task_not_found")
      })
    )

    it.effect("a move out of turn is 409 invalid_transition with what the lifecycle allows", () =>
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        const reference = yield* offeredToAda()
        const early = yield* refusalOf(
          operations.submitResult(ada, reference, { summary: "Too early" }),
          "InvalidTransition",
          409,
          "invalid_transition"
        )
        assert.match(
          early.body.message,
          /^The task is awaiting_participant: the participant cannot move it to submitted\.$/
        )
        assert.match(
          early.body.hint ?? "",
          /^From awaiting_participant the lifecycle allows: .*accepted \(participant\)/
        )
        yield* operations.accept(ada, reference)
        yield* refusalOf(
          operations.decline(ada, reference, "changed my mind"),
          "InvalidTransition",
          409,
          "invalid_transition"
        )
      })
    )

    it.effect("files: uploaded only while working on the task; a result naming a file not uploaded is 422", () =>
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        const reference = yield* offeredToAda()
        const early = yield* refusalOf(
          operations.uploadFile(ada, reference, "notes.txt", bytes("notes")),
          "UploadNotAllowed",
          409,
          "invalid_transition"
        )
        assert.strictEqual(early.body.hint, "Accept the offer first, then upload the files the result will name.")
        yield* operations.accept(ada, reference)
        const file = yield* operations.uploadFile(ada, reference, "notes.txt", bytes("three bugs"))
        assert.strictEqual(file.size, 10)
        yield* refusalOf(
          operations.uploadFile(ada, reference, "", bytes("x")),
          "ArtifactRejected",
          400,
          "invalid_request"
        )
        yield* operations.start(ada, reference)
        const unusable = yield* refusalOf(
          operations.submitResult(ada, reference, {
            summary: "Done",
            artifacts: [{ kind: "file", id: "art_aaaaaaaaaaaaaaaaaaaaaaaaaa" }]
          }),
          "ArtifactsUnusable",
          422,
          "artifact_invalid"
        )
        assert.deepStrictEqual(
          unusable.body.details?.map((d) => d.field),
          ["artifacts.0.id"]
        )
      })
    )
  })
})
