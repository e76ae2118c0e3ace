// Every refusal the domain and the operations make, as the edge maps it: the status its class
// declares (`httpApiStatus`) is the status the contract gives its code, the body the envelope
// carries is the error's own words, and /capabilities (operations/discovery.ts) lists its code
// with that status.
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type EnvelopedRefusal, errorCodes, statusOf, toEnvelope } from "../../src/api/envelope.ts"
import { AppConfig } from "../../src/config/app_config.ts"
import {
  ArtifactNotFound,
  ArtifactRejected,
  ArtifactsUnusable,
  ArtifactTooLarge,
  DraftRejected,
  IdempotencyKeyMismatch,
  IdempotencyKeyReused,
  IdempotencyKeyTooShort,
  InvalidTransition,
  NotPermitted,
  ParticipantNotFound,
  ResultRejected,
  StorageUnavailable,
  TaskNotFound,
  TooManyStagedFiles,
  Unauthenticated,
  UploadNotAllowed
} from "../../src/domain/errors.ts"
import { validateDraft } from "../../src/domain/task_draft/validate.ts"
import { capabilities } from "../../src/operations/discovery.ts"
import {
  AwaitingApproval,
  LinkedParticipantMissing,
  RequestInvalid,
  SignInRequired,
  TaskNotCreated
} from "../../src/operations/errors.ts"
import { testConfig } from "../support/settings.ts"

const docsUrl = "https://docs.example/marketplace"

/** One of each refusal, and the status and code the contract answers it with. */
const refusals: ReadonlyArray<readonly [EnvelopedRefusal, number, string]> = [
  [new TaskNotFound({ reference: "tsk_x" }), 404, "task_not_found"],
  [new ParticipantNotFound({ slug: "nobody" }), 404, "participant_not_found"],
  [new DraftRejected({ validation: validateDraft({}) }), 422, "preflight_failed"],
  [new IdempotencyKeyMismatch({ header: "a", body: "b" }), 400, "idempotency_key_mismatch"],
  [new IdempotencyKeyTooShort({ source: "header", length: 3 }), 400, "invalid_request"],
  [new IdempotencyKeyReused({ key: "k", reference: "tsk_x" }), 422, "idempotency_key_reused"],
  [new StorageUnavailable({ cause: undefined }), 503, "storage_unavailable"],
  [
    new InvalidTransition({ reference: "tsk_x", from: "open", to: "settled", actor: "agent" }),
    409,
    "invalid_transition"
  ],
  [new ResultRejected({ reference: "tsk_x", failures: [] }), 422, "result_invalid"],
  [new Unauthenticated({ reason: "no token" }), 401, "unauthorized"],
  [new NotPermitted({ reason: "not yours" }), 403, "forbidden"],
  [new ArtifactRejected({ reason: "empty" }), 400, "invalid_request"],
  [new ArtifactTooLarge({ limit: 1024 }), 413, "payload_too_large"],
  [new TooManyStagedFiles({ limit: 10 }), 422, "artifact_invalid"],
  [new ArtifactNotFound({ reference: "tsk_x", id: "art_x" }), 404, "artifact_not_found"],
  [new ArtifactsUnusable({ reference: "tsk_x", problems: [] }), 422, "artifact_invalid"],
  [new UploadNotAllowed({ reference: "tsk_x", state: "submitted" }), 409, "invalid_transition"],
  [new RequestInvalid({ message: "m", hint: "h" }), 400, "invalid_request"],
  [new TaskNotCreated({ cause: undefined }), 503, "task_not_created"],
  [new SignInRequired({ metadataPath: "/.well-known/oauth-protected-resource" }), 401, "unauthorized"],
  [new AwaitingApproval({ slug: "ada" }), 403, "forbidden"],
  [new LinkedParticipantMissing({ slug: "ada" }), 403, "forbidden"]
]

describe("refusals at the edge", () => {
  it("each class's status annotation is its code's status in the contract", () => {
    for (const [refusal, status, code] of refusals) {
      assert.strictEqual(refusal.code, code, refusal._tag)
      assert.strictEqual(statusOf(refusal), status, refusal._tag)
      assert.strictEqual(errorCodes[refusal.code].status, status, refusal._tag)
    }
  })

  it("the envelope carries the error's own words and the documentation of its code", () => {
    for (const [refusal, status, code] of refusals) {
      const { error } = toEnvelope(docsUrl)(refusal)
      assert.deepStrictEqual(error, {
        code,
        message: refusal.message,
        status,
        ...(refusal.hint === undefined ? {} : { hint: refusal.hint }),
        ...(refusal.details === undefined ? {} : { details: refusal.details }),
        documentation_url: `${docsUrl}#error-${code}`
      })
    }
  })

  it.effect("/capabilities lists every refusal's code with its status", () =>
    Effect.gen(function* () {
      const listed = capabilities(yield* AppConfig).errors
      for (const [refusal, status, code] of refusals) assert.strictEqual(listed[code]?.status, status, refusal._tag)
    }).pipe(Effect.provide(testConfig()))
  )
})
