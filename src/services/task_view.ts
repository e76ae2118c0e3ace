/**
 * A stored task as the API shows it: the body of GET /tasks/{reference}, which is also the `data`
 * of its webhook events. One function, so a reader and a receiver see the same thing.
 */
import { apiPrefix } from "../domain/addresses.ts"
import { nextStepOf } from "../domain/feasibility.ts"
import { isRecordedFile, type RecordedResult, type Task, type TaskResult } from "../domain/task.ts"
import type { StoredTask } from "../domain/task_record.ts"

/** The task's address under the service's public base URL. */
export const taskUrlOf = (publicBaseUrl: string, reference: string) => `${publicBaseUrl}${apiPrefix}/tasks/${reference}`

/** The public shape of stored tasks, for a service at `publicBaseUrl` (a sandbox's tasks say so). */
export const taskViewFor = ({
  publicBaseUrl,
  sandbox
}: {
  readonly publicBaseUrl: string
  readonly sandbox: boolean
}) => {
  /** The recorded result as shown: each uploaded file with the address it is downloaded at. */
  const resultView = (reference: string, result: RecordedResult): TaskResult =>
    result.artifacts.some(isRecordedFile)
      ? {
          ...result,
          artifacts: result.artifacts.map((artifact) =>
            isRecordedFile(artifact)
              ? { ...artifact, url: `${taskUrlOf(publicBaseUrl, reference)}/artifacts/${artifact.id}` }
              : artifact
          )
        }
      : result

  return (stored: StoredTask): Task => ({
    object: "task",
    reference: stored.reference,
    state: stored.state,
    execution_mode: stored.executionMode,
    participant_slug: stored.participantSlug,
    agent: stored.agent,
    principal: stored.principal,
    brief: stored.brief,
    result: stored.result === null ? null : resultView(stored.reference, stored.result),
    outcome: stored.outcome,
    history: stored.history,
    created_at: stored.createdAt,
    updated_at: stored.updatedAt,
    url: taskUrlOf(publicBaseUrl, stored.reference),
    next_step: nextStepOf(stored.state, stored.reference, stored.outcome?.reason, stored.infeasibility),
    ...(sandbox ? { sandbox: true as const } : {})
  })
}
