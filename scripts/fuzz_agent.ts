/**
 * The agent's walk in the fuzzer's stateful phase (scripts/fuzz_stateful.ts): drafts
 * (scripts/fuzz_drafts.ts) sent to preflight and POST /tasks, whose answers must agree with the
 * document's verdict (a valid draft never refused as malformed, an invalid one never taken), with
 * idempotency keys replayed and reused; then, from each 201, the response's `links` followed
 * (reference, ETag as If-None-Match, the task token as the bearer) to getTask, cancelTask,
 * reviewTask and listDeliveries, with valid and invalid inputs and right, wrong or no tokens.
 */

import { ajvSays, pointer } from "./fuzz_document.ts"
import type { Drafts } from "./fuzz_drafts.ts"
import type { Run, Task } from "./fuzz_run.ts"

/** The agent's two moves: create a task, or follow one of its links. */
export const agentWalk = (run: Run, drafts: Drafts) => {
  const { random, pick, figures, fail, validator, operation, send, signedIn, tasks, known } = run
  const { observe, moved, refresh, withBearer } = run
  const { draft, draftIsValid, idempotencyKeyIsValid, nextUnique } = drafts
  const created = operation("createTask")
  // The 201's links, as the document states them: which operation, and each parameter's runtime
  // expression ($response.body#/… or $response.header.…), resolved against each 201.
  interface Link {
    readonly operationId: string
    readonly parameters?: Record<string, string>
  }
  const linked = (created.operation.responses?.["201"] as { links?: Record<string, Link> } | undefined)?.links ?? {}
  const followed = new Set(["getTask", "cancelTask", "reviewTask", "listDeliveries"])
  const links = Object.keys(linked).filter((name) => followed.has(linked[name]?.operationId ?? ""))
  if (links.length === 0) throw new Error("the createTask 201 has no links this phase follows")
  const resolve = (expression: string, json: unknown, headers: Headers): string | undefined => {
    if (expression.startsWith("$response.header.")) return headers.get(expression.slice(17)) ?? undefined
    if (!expression.startsWith("$response.body#")) return undefined
    let at: unknown = json
    for (const part of expression
      .slice(16)
      .split("/")
      .filter((p) => p !== ""))
      at = (at as Record<string, unknown> | undefined)?.[part.replaceAll("~1", "/").replaceAll("~0", "~")]
    return typeof at === "string" ? at : undefined
  }

  const bearer = async (task: Task) => {
    const roll = random()
    if (roll < 0.8) return { authorization: `Bearer ${task.token}`, right: true }
    const other = tasks.find((t) => t.reference !== task.reference)
    if (roll < 0.9 && other !== undefined) return { authorization: `Bearer ${other.token}`, right: false }
    // A participant's access token: a participant cannot act as the agent.
    if (roll < 0.94 && signedIn.length > 0)
      return { authorization: `Bearer ${await pick(signedIn).token()}`, right: false }
    return { authorization: roll < 0.97 ? "Bearer tt_wrong" : undefined, right: false }
  }

  const createOne = async () => {
    const { body } = draft()
    const valid = draftIsValid(body)
    if (valid) figures.drafts.valid++
    else figures.drafts.invalid++
    const shown = JSON.stringify(body).slice(0, 200)
    const preflight = await send("preflight", {}, { body })
    if (valid && preflight.status === 400)
      fail(`a draft valid by the document refused as malformed by preflight: ${shown}`)
    const verdict = (preflight.json as { valid?: boolean } | undefined)?.valid
    if (!valid && preflight.status === 200 && verdict === true)
      fail(`a draft invalid by the document (${ajvSays(draftIsValid)}) called valid by preflight: ${shown}`)
    // The idempotency-key header, now and then, valid or not by its parameter's schema; a body
    // naming another key (idempotency_key) is a mismatch (400), not a malformed request.
    const keyRoll = random()
    const key =
      keyRoll < 0.12
        ? `fuzz-${nextUnique()}-${Math.floor(random() * 1e9)}-${Date.now()}`
        : keyRoll < 0.15
          ? pick(["short", "k".repeat(256), "", " ".repeat(20)])
          : undefined
    // A header's value is what HTTP carries: without the blanks around it (RFC 9110, 5.5).
    const keyValid = key === undefined || idempotencyKeyIsValid(key.replace(/^[ \t]+|[ \t]+$/g, ""))
    const bodyKey = (body as { idempotency_key?: unknown } | null)?.idempotency_key
    const mismatch =
      key !== undefined && typeof bodyKey === "string" && bodyKey.trim() !== "" && bodyKey.trim() !== key.trim()
    const headers = key === undefined ? {} : { "idempotency-key": key }
    const answer = await send("createTask", {}, { body, headers })
    if (!keyValid && answer.status === 201)
      fail(`an idempotency-key header invalid by the document (${JSON.stringify(key)}) taken: ${answer.line}`)
    if (valid && keyValid && !mismatch && answer.status === 400)
      fail(`a draft valid by the document refused as malformed: ${answer.line}`)
    if (valid && answer.status === 422) {
      const details = (answer.json as { error?: { details?: ReadonlyArray<{ field: string; code: string }> } })?.error
        ?.details
      for (const detail of details ?? [{ field: "-", code: "none named" }]) {
        const named = `${detail.field}:${detail.code}`
        figures.validButRefused[named] = (figures.validButRefused[named] ?? 0) + 1
      }
    }
    if (!valid && answer.status === 201)
      fail(`a draft invalid by the document (${ajvSays(draftIsValid)}) was taken: ${answer.line}`)
    if (answer.status === 201 && preflight.status === 200 && verdict === false)
      fail(`preflight refused a draft POST /tasks took: ${shown}`)
    if (answer.status !== 201) return
    const created = answer.json as { reference: string; task_token: string; state: string }
    figures.tasksCreated++
    // Replayed with its key (the header's, or the body's idempotency_key): the same task again,
    // said to be a replay; with the same key and another draft, refused.
    const keyed = key !== undefined || (typeof bodyKey === "string" && bodyKey.trim() !== "")
    if (keyed && random() < 0.3) {
      const again = await send("createTask", {}, { body, headers })
      const replayed = again.json as { reference?: string } | undefined
      if (again.status !== 201 || replayed?.reference !== created.reference)
        fail(`a replay with the same idempotency key did not answer the same task: ${again.line}`)
      else if (again.headers.get("idempotent-replayed") !== "true")
        fail(`a replay with the same idempotency key is not said to be one: ${again.line}`)
      else moved("createTask replayed", undefined)
    } else if (keyed && random() < 0.2) {
      const other = { ...(body as Record<string, unknown>), action: "Another task under the same key" }
      const again = await send("createTask", {}, { body: other, headers })
      if (again.status === 201) fail(`another draft under a used idempotency key was taken: ${again.line}`)
    }
    const paths: Record<string, Record<string, string>> = {}
    let etag: string | undefined
    for (const name of links) {
      paths[name] = {}
      for (const [parameter, expression] of Object.entries(linked[name]?.parameters ?? {})) {
        const value = resolve(expression, answer.json, answer.headers)
        if (value === undefined)
          fail(`the ${name} link's ${parameter} (${expression}) names nothing in: ${answer.line}`)
        else if (parameter === "header.if-none-match") etag = value
        else (paths[name] as Record<string, string>)[parameter.replace(/^path\./, "")] = value
      }
    }
    const task: Task = {
      reference: created.reference,
      token: created.task_token,
      etag,
      state: created.state,
      participant: null,
      resultSchema: undefined,
      deadline: undefined,
      uploads: [],
      attached: new Set(),
      seen: new Set(),
      outcome: undefined,
      paths
    }
    observe(task, answer.json)
    tasks.push(task)
    known.set(task.reference, task)
    if (tasks.length > 40) tasks.shift()
  }

  const reasons = (): unknown =>
    pick([undefined, null, "", "Not needed any more", "r".repeat(4000), "r".repeat(4001), 7, { why: 1 }])
  const follow = async (task: Task) => {
    // A submitted result is what a review is for: most reads of one are followed by one.
    const reviews = links.find((name) => linked[name]?.operationId === "reviewTask")
    const link = task.state === "submitted" && reviews !== undefined && random() < 0.6 ? reviews : pick(links)
    const id = linked[link]?.operationId as string
    const path = task.paths[link] ?? {}
    if (id === "getTask") {
      const wait = pick([undefined, "0", "0.05", "-1", "61", "soon"])
      const conditional = random() < 0.7 && task.etag !== undefined
      const answer = await send("getTask", random() < 0.95 ? path : { ...path, reference: `${path.reference}x` }, {
        query: wait === undefined ? "" : `?wait=${wait}`,
        headers: conditional ? { "if-none-match": task.etag as string } : {}
      })
      const waitValid = wait === undefined || (Number(wait) >= 0 && Number(wait) <= 60)
      if (waitValid && answer.status === 400) fail(`a valid wait refused: ${answer.line}`)
      if (!waitValid && (answer.status === 200 || answer.status === 304)) fail(`an invalid wait taken: ${answer.line}`)
      if (answer.status === 200) {
        observe(task, answer.json)
        task.etag = answer.headers.get("etag") ?? undefined
        if (task.etag === undefined) fail(`a 200 of getTask without its ETag: ${answer.line}`)
      }
      return
    }
    const credential = await bearer(task)
    if (id === "listDeliveries") {
      const answer = await send("listDeliveries", path, { headers: withBearer(credential.authorization) })
      if (credential.right !== (answer.status === 200))
        fail(`deliveries answered ${answer.status} to a ${credential.right ? "right" : "wrong"} token: ${answer.line}`)
      return
    }
    const body: Record<string, unknown> = {}
    if (id === "reviewTask") {
      const decision = pick(["accept", "revise", "reject", "ACCEPT", "maybe", undefined])
      if (decision !== undefined) body.decision = decision
    }
    const reason = reasons()
    if (reason !== undefined) body.reason = reason
    if (random() < 0.1) body.extra = "ignored"
    const schemaPath = pointer("components", "schemas", id === "cancelTask" ? "CancelRequest" : "ReviewRequest")
    const valid = validator(schemaPath)(body)
    const answer = await send(id, path, { body, headers: withBearer(credential.authorization) })
    if (credential.right && valid && answer.status === 400)
      fail(`a body valid by the document refused as malformed: ${answer.line}`)
    if (!valid && answer.status === 200) fail(`a body invalid by the document taken: ${answer.line}`)
    if (!credential.right && answer.status === 200)
      fail(`taken with a ${credential.authorization ?? "missing"} token: ${answer.line}`)
    if (answer.status === 200) {
      observe(task, answer.json)
      moved(id, answer.json)
    } else if (answer.status === 409) await refresh(task)
  }
  return { createOne, follow }
}
