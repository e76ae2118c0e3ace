/**
 * The participant's walk in the fuzzer's stateful phase (scripts/fuzz_stateful.ts): each
 * participant signed in (scripts/fuzz_participants.ts) walks the tasks offered to them along the
 * participant's operations, found by operationId in the document (myTasks, acceptTask, declineTask,
 * startTask, uploadArtifact, submitTask; bodies from the operations' request schemas and the task's
 * result_schema), with their own token, the other participant's, a garbage one or none; races two
 * moves that rule each other out; and reads and writes a task's conversation and files.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { pointer } from "./fuzz_document.ts"
import type { SignedInParticipant } from "./fuzz_participants.ts"
import type { Run, Task } from "./fuzz_run.ts"
import { schemaValue } from "./fuzz_values.ts"

/** The participants' rounds (none when nobody signed in: `participantOps` is then empty). */
export const participantWalk = (run: Run) => {
  const { random, pick, figures, fail, validator, operation, send, signedIn, tasks, known } = run
  const { observe, moved, refresh, withBearer } = run
  // The participant's side: their operations, as the document names them.
  const participantIds = ["myTasks", "acceptTask", "declineTask", "startTask", "uploadArtifact", "submitTask"]
  const participantOps = signedIn.length > 0 ? participantIds.map((id) => ({ id, ...operation(id) })) : []
  /** The JSON schema of an operation's request body, if it declares one. */
  const requestSchemaOf = (id: string): ValidateFunction | undefined => {
    const { route, method, operation: described } = operation(id)
    const content = (described as { requestBody?: { content?: Record<string, { schema?: unknown }> } }).requestBody
      ?.content?.["application/json"]
    return content?.schema === undefined
      ? undefined
      : validator(pointer("paths", route, method, "requestBody", "content", "application/json", "schema"))
  }
  // An upload's name and bytes as the document describes them.
  const uploads = (() => {
    if (participantOps.length === 0) return { name: () => true, minBytes: 0 }
    const { route, method, operation: described } = operation("uploadArtifact")
    const { parameters = [], requestBody } = described as {
      parameters?: ReadonlyArray<{ name: string; in: string }>
      requestBody?: { content?: Record<string, { schema?: { minLength?: number } }> }
    }
    const at = parameters.findIndex((p) => p.name === "name" && p.in === "query")
    const name = validator(pointer("paths", route, method, "parameters", String(at), "schema"))
    const body = Object.values(requestBody?.content ?? {})[0]?.schema
    return { name: (value: string) => name(value), minBytes: body?.minLength ?? 0 }
  })()
  // What each move leaves the task in, when taken: the lifecycle as /capabilities states it.
  const leadsTo: Record<string, ReadonlyArray<string>> = {
    acceptTask: ["accepted"],
    startTask: ["in_flight"],
    submitTask: ["submitted"],
    declineTask: ["declined", "matching", "awaiting_participant"]
  }
  const resultAjv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  addFormats.default(resultAjv)
  const spoilFields = (fields: unknown): unknown => {
    const roll = random()
    if (roll < 0.2) return pick(["fields", 7, ["x"], null])
    const out = { ...(typeof fields === "object" && fields !== null ? fields : {}) } as Record<string, unknown>
    const names = Object.keys(out)
    if (roll < 0.5 && names.length > 0) delete out[pick(names)]
    else if (roll < 0.8 && names.length > 0) out[pick(names)] = pick([{ nested: true }, "text", -1, 1.5, null])
    else out.unexpected = "member"
    return out
  }
  const summaries = ["Photographed the sign; it is legible.", " Done \u00a0", "é ✓ 写真", "s".repeat(4000)]
  const artifactsFor = (task: Task, by: string): { artifacts: Array<unknown>; ownFiles: boolean } => {
    const artifacts: Array<unknown> = []
    let ownFiles = true
    const mine = task.uploads.filter((upload) => upload.by === by)
    for (let i = Math.floor(random() * 3); i > 0; i--) {
      const roll = random()
      if (roll < 0.4 && mine.length > 0) {
        // Each file once (submitTask's description): the same one twice is refused.
        const id = pick(mine).id
        if (artifacts.some((a) => (a as { id?: string }).id === id)) ownFiles = false
        artifacts.push({ kind: "file", id, description: "evidence" })
      } else if (roll < 0.6) artifacts.push({ kind: "url", value: "https://example.com/photo.jpg" })
      else if (roll < 0.8) artifacts.push({ kind: "text", value: "The sign reads OPEN." })
      else {
        // A file this participant did not upload to this task, or that does not exist.
        const elsewhere = [...known.values()].flatMap((t) => (t === task ? [] : t.uploads))
        const other = task.uploads.find((upload) => upload.by !== by) ?? elsewhere[0]
        artifacts.push({ kind: "file", id: other?.id ?? "art_doesnotexist" })
        ownFiles = false
      }
    }
    return { artifacts, ownFiles }
  }
  const fileNames = ["photo.jpg", "notes.txt", "ü ✓ 写真.png", "../../etc/passwd", "a\u0001b.txt", "x".repeat(300), ""]
  const fileBytes = (): Uint8Array<ArrayBuffer> =>
    pick([
      new TextEncoder().encode("The sign reads OPEN."),
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
      new Uint8Array(0),
      new Uint8Array(2048).map((_, i) => (i * 31) & 0xff)
    ])

  // Mostly the move a task's state calls for; sometimes any move, which the lifecycle must refuse.
  const next: Record<string, ReadonlyArray<string>> = {
    awaiting_participant: ["acceptTask", "acceptTask", "declineTask"],
    accepted: ["startTask", "startTask", "uploadArtifact", "declineTask"],
    in_flight: ["submitTask", "submitTask", "uploadArtifact"]
  }
  /** One participant's round: read their tasks, or make a move on one, with their token or another. */
  const participantRound = async () => {
    const me = pick(signedIn)
    const others = signedIn.filter((p) => p.slug !== me.slug)
    const roll = random()
    const kind = roll < 0.75 ? "own" : roll < 0.88 && others.length > 0 ? "other" : roll < 0.94 ? "none" : "garbage"
    const owner = kind === "own" ? me : kind === "other" ? pick(others) : undefined
    const token =
      owner !== undefined
        ? await owner.token()
        : kind === "garbage"
          ? // …or an agent's task token: an agent cannot act as a participant.
            pick(["eyJhbGciOiJub25lIn0.e30.", "tt_x", "x".repeat(600), pick(tasks).token])
          : undefined
    const headers = withBearer(token === undefined ? undefined : `Bearer ${token}`)
    const holder = owner?.slug ?? "nobody"
    const theirs = [...known.values()].filter((t) => t.participant === me.slug)
    // Mostly a task waiting for them: an ended one only shows that every move on it is refused.
    const waiting = theirs.filter((t) => t.state in next)
    // With nothing to do, they read their list (offers appear there), as a participant would.
    if (waiting.length === 0 || random() < 0.15) {
      if (random() < 0.2) {
        // Who the token says they are: the participant it was got for, or a refusal without one.
        const answer = await send("me", {}, { headers })
        const slug = (answer.json as { participant?: { slug?: string } } | undefined)?.participant?.slug
        if ((owner !== undefined) !== (answer.status === 200))
          fail(`me answered ${answer.status} to ${holder}'s token: ${answer.line}`)
        if (answer.status === 200 && slug !== owner?.slug)
          fail(`me answered ${slug} to ${holder}'s token: ${answer.line}`)
        figures.participantStatuses[`me ${answer.status}`] =
          (figures.participantStatuses[`me ${answer.status}`] ?? 0) + 1
        return
      }
      const answer = await send("myTasks", {}, { headers })
      figures.participantStatuses[`myTasks ${answer.status}`] =
        (figures.participantStatuses[`myTasks ${answer.status}`] ?? 0) + 1
      if ((owner !== undefined) !== (answer.status === 200))
        fail(`myTasks answered ${answer.status} to ${holder}'s token: ${answer.line}`)
      if (answer.status === 200) {
        const caller = owner?.slug
        for (const listed of (answer.json as { data: ReadonlyArray<{ reference: string; participant_slug: string }> })
          .data) {
          if (caller !== undefined && listed.participant_slug !== caller)
            fail(`myTasks of ${caller} lists a task of ${listed.participant_slug}: ${listed.reference}`)
          const task = known.get(listed.reference)
          if (task !== undefined) observe(task, listed)
        }
      }
      return
    }
    const task = pick(random() < 0.85 ? waiting : theirs)
    if (random() < 0.25) return await asideRound(task, me)
    if (random() < 0.08 && task.state in next) return await race(task, me)
    const id =
      next[task.state] !== undefined && random() < 0.85
        ? pick(next[task.state] as ReadonlyArray<string>)
        : pick(participantIds.slice(1))
    const reference = random() < 0.97 ? task.reference : pick([`${task.reference}x`, "tsk_", "%00"])
    const path = { reference }
    let valid = true
    let expectTaken = kind === "own" && reference === task.reference
    let answer: Awaited<ReturnType<typeof send>>
    if (id === "uploadArtifact") {
      const name = pick(fileNames)
      const bytes = fileBytes()
      const query = random() < 0.9 ? `?${new URLSearchParams({ name })}` : ""
      // Valid by the document: the name by its parameter's schema, the bytes by the body's minLength.
      valid = query !== "" && uploads.name(name) === true && bytes.length >= uploads.minBytes
      expectTaken &&= valid && (task.state === "accepted" || task.state === "in_flight")
      answer = await send(id, path, { query, headers, bytes })
      if (answer.status === 201) {
        const file = answer.json as { id: string; uploader: string; reference: string }
        task.uploads.push({ id: file.id, by: me.slug, size: bytes.length })
        if (file.uploader !== me.slug || file.reference !== task.reference)
          fail(`an upload by ${me.slug} to ${task.reference} answered as another's: ${answer.line}`)
      }
    } else {
      let body: unknown
      let fieldsValid = true
      let ownFiles = true
      if (id === "declineTask") {
        body = pick([
          {},
          { reason: "Out of my area" },
          { reason: null },
          { reason: "r".repeat(4001) },
          { reason: 7 },
          []
        ])
      } else if (id === "submitTask") {
        const resultSchema = task.resultSchema
        let fields: unknown = schemaValue(run, resultSchema ?? { type: "object" })
        if (random() < 0.3) fields = spoilFields(fields)
        const made = artifactsFor(task, me.slug)
        ownFiles = made.ownFiles
        const submission: Record<string, unknown> = { summary: pick(summaries) }
        if (random() < 0.15) submission.summary = pick(["", "   ", 42, "s".repeat(4001)])
        if (random() < 0.05) delete submission.summary
        if (resultSchema !== undefined && resultSchema !== null) submission.fields = fields
        else if (random() < 0.5) submission.fields = fields
        if (made.artifacts.length > 0 || random() < 0.1) submission.artifacts = made.artifacts
        if (random() < 0.05) submission.artifacts = [{ kind: "photo", value: "x" }]
        if (random() < 0.05) submission.note = "an unknown member"
        body = submission
        if (resultSchema !== undefined && resultSchema !== null && typeof resultSchema === "object") {
          try {
            fieldsValid = resultAjv.validate(resultSchema as object, submission.fields ?? {}) === true
          } catch {
            fieldsValid = false
          }
        }
      }
      const schema = requestSchemaOf(id)
      if (schema !== undefined) valid = body !== undefined && schema(body) === true
      const state = task.state
      const allowed = id === "declineTask" ? state === "awaiting_participant" : next[state]?.includes(id) === true
      expectTaken &&= valid && fieldsValid && ownFiles && allowed
      answer = await send(id, path, body === undefined ? { headers } : { body, headers })
      if (answer.status === 200 && id === "submitTask")
        for (const artifact of (body as { artifacts?: ReadonlyArray<{ kind?: string; id?: string }> }).artifacts ?? [])
          if (artifact.kind === "file" && artifact.id !== undefined) task.attached.add(artifact.id)
      if (answer.status === 200 && !fieldsValid)
        fail(`a result whose fields the task's result_schema refuses was taken: ${answer.line}`)
      if (answer.status === 200 && !ownFiles)
        fail(`a result naming a file its participant did not upload to the task was taken: ${answer.line}`)
      if (answer.status === 200 && !(leadsTo[id] ?? []).includes((answer.json as { state: string }).state))
        fail(`${id} left the task ${(answer.json as { state: string }).state}: ${answer.line}`)
      const code = (answer.json as { error?: { code?: string } } | undefined)?.error?.code
      if (kind === "own" && valid && fieldsValid && answer.status === 422 && code === "result_invalid")
        fail(`fields the task's result_schema takes refused as result_invalid: ${answer.line}`)
      if (kind === "own" && valid && ownFiles && answer.status === 422 && code === "artifact_invalid")
        fail(`files the participant uploaded to the task refused as artifact_invalid: ${answer.line}`)
    }
    figures.participantStatuses[`${id} ${answer.status}`] =
      (figures.participantStatuses[`${id} ${answer.status}`] ?? 0) + 1
    const took = answer.status >= 200 && answer.status < 300
    if (!valid && took) fail(`a request invalid by the document taken: ${answer.line}`)
    if (valid && kind === "own" && answer.status === 400)
      fail(`a request valid by the document refused as malformed: ${answer.line}`)
    if (kind !== "own" && took) fail(`${id} on ${me.slug}'s task taken from ${holder}: ${answer.line}`)
    if ((kind === "none" || kind === "garbage") && answer.status !== 401)
      fail(`${id} without a valid token answered ${answer.status}: ${answer.line}`)
    if (kind === "own" && (answer.status === 401 || answer.status === 403) && reference === task.reference)
      fail(`${id} refused ${me.slug} on their own task: ${answer.line}`)
    if (expectTaken && !took && answer.status !== 409 && answer.status !== 422)
      fail(`${id} by the holder in state ${task.state} answered ${answer.status}: ${answer.line}`)
    if (took && answer.status === 200) {
      observe(task, answer.json)
      moved(id, answer.json)
      // A move changes the task, so the ETag the agent holds from before it no longer matches.
      if (task.etag !== undefined && random() < 0.3) {
        const read = await send("getTask", { reference: task.reference }, { headers: { "if-none-match": task.etag } })
        if (read.status === 304) fail(`a read with the ETag from before ${id} answered 304: ${read.line}`)
        if (read.status === 200) {
          observe(task, read.json)
          task.etag = read.headers.get("etag") ?? undefined
        }
      }
    } else if (took) moved(id, undefined)
    else if (answer.status === 409) await refresh(task)
  }

  /**
   * Two moves on one task at once, each valid on its own and each ruling the other out (the
   * participant's two answers to an offer, the agent's cancel against the participant's start, two
   * results): of two concurrent moves at most one is taken (docs/lifecycle.md), the other refused as
   * out of turn, and a read afterwards shows the winner's state.
   */
  const race = async (task: Task, me: SignedInParticipant) => {
    const token = { authorization: `Bearer ${await me.token()}` }
    const agent = { authorization: `Bearer ${task.token}` }
    const result = { summary: "Done.", fields: schemaValue(run, task.resultSchema ?? { type: "object" }) }
    const moves: Record<string, ReadonlyArray<readonly [string, () => Promise<Awaited<ReturnType<typeof send>>>]>> = {
      // (Not accept against cancel: cancel is allowed after an accept too, so both may be taken.)
      awaiting_participant: [
        ["acceptTask", () => send("acceptTask", { reference: task.reference }, { headers: token })],
        ["declineTask", () => send("declineTask", { reference: task.reference }, { body: {}, headers: token })]
      ],
      accepted: [
        ["startTask", () => send("startTask", { reference: task.reference }, { headers: token })],
        ["cancelTask", () => send("cancelTask", { reference: task.reference }, { body: {}, headers: agent })]
      ],
      in_flight: [
        ["submitTask", () => send("submitTask", { reference: task.reference }, { body: result, headers: token })],
        ["submitTask", () => send("submitTask", { reference: task.reference }, { body: result, headers: token })]
      ]
    }
    const pair = moves[task.state]
    if (pair === undefined) return
    const answers = await Promise.all(pair.map(([, move]) => move()))
    const taken = answers.filter((answer) => answer.status === 200)
    const names = pair.map(([id]) => id).join(" and ")
    figures.participantStatuses[`race ${taken.length} of 2`] =
      (figures.participantStatuses[`race ${taken.length} of 2`] ?? 0) + 1
    if (taken.length > 1)
      fail(`${names} at once on one task were both taken: ${answers.map((a) => a.line).join(" | ")}`)
    for (const answer of answers)
      if (answer.status !== 200 && answer.status !== 409 && answer.status !== 422)
        fail(`${names} at once answered ${answer.status}: ${answer.line}`)
    const winner = taken[0]
    const read = await send("getTask", { reference: task.reference }, {})
    if (read.status === 200) observe(task, read.json)
    if (winner !== undefined) {
      const [id] = pair[answers.indexOf(winner)] as readonly [string, unknown]
      moved(id, winner.json)
      const said = (winner.json as { state: string }).state
      // The winner's state, or one a timer or the simulated side may have moved it on to since.
      if (read.status === 200 && task.state !== said && !(said === "submitted" && task.state === "settled"))
        fail(`${names} at once: the winner answered ${said}, a read after shows ${task.state}: ${winner.line}`)
    }
  }

  /**
   * What is not a move, on a participant's task: its conversation (postMessage, listMessages) and
   * its files (downloadArtifact), by the participant, another one, the agent (its task token), a
   * garbage token or none. Who may do what is the operations' descriptions in the document.
   */
  const asideRound = async (task: Task, me: SignedInParticipant) => {
    const others = signedIn.filter((p) => p.slug !== me.slug)
    const id = pick(
      task.uploads.length > 0 ? ["postMessage", "listMessages", "downloadArtifact"] : ["postMessage", "listMessages"]
    )
    const roll = random()
    const kind =
      roll < 0.55
        ? "own"
        : roll < 0.7 && others.length > 0
          ? "other"
          : roll < 0.85
            ? "agent"
            : roll < 0.93
              ? "none"
              : "garbage"
    const authorization =
      kind === "own"
        ? `Bearer ${await me.token()}`
        : kind === "other"
          ? `Bearer ${await pick(others).token()}`
          : kind === "agent"
            ? `Bearer ${task.token}`
            : kind === "garbage"
              ? "Bearer tt_x"
              : undefined
    const headers = withBearer(authorization)
    const ended = ["settled", "declined", "cancelled"].includes(task.state)
    // A participant who declined or let the offer lapse no longer reads or writes the thread.
    const gone = task.outcome === "declined:participant_declined" || task.outcome === "declined:accept_timeout"
    // A 403 to the participant as last seen on the task: the task may have gone on to another since
    // (an offer lapsed under the clock, then offered elsewhere), which a read tells.
    const movedOn = async (status: number) => {
      if (kind !== "own" || status !== 403) return false
      await refresh(task)
      return task.participant !== me.slug
    }
    let answer: Awaited<ReturnType<typeof send>>
    if (id === "downloadArtifact") {
      const upload = pick(task.uploads)
      answer = await send(id, { reference: task.reference, id: upload.id }, { headers })
      const mayRead = (kind === "own" && upload.by === me.slug) || (kind === "agent" && task.attached.has(upload.id))
      if (mayRead && answer.status !== 200)
        fail(
          `${id} of a file ${kind === "own" ? "its uploader" : "the agent"} may read answered ${answer.status}: ${answer.line}`
        )
      if (!mayRead && answer.status === 200)
        fail(`${id} answered 200 to ${kind === "own" ? "another uploader" : kind}: ${answer.line}`)
      if (answer.status === 200 && answer.bytes.length !== upload.size)
        fail(`${id} answered ${answer.bytes.length} bytes of a ${upload.size}-byte file: ${answer.line}`)
    } else if (id === "listMessages") {
      answer = await send(id, { reference: task.reference }, { headers })
      const mayRead = kind === "agent" || (kind === "own" && !gone)
      if (mayRead && answer.status !== 200 && !(await movedOn(answer.status)))
        fail(`${id} by ${kind} answered ${answer.status}: ${answer.line}`)
      if (!mayRead && answer.status === 200 && kind !== "own") fail(`${id} answered 200 to ${kind}: ${answer.line}`)
    } else {
      const body = pick<unknown>([
        { body: "Which entrance?" },
        { body: " The left one \u00a0" },
        { body: "m".repeat(4000) },
        { body: "m".repeat(4001) },
        { body: "   " },
        { body: 7 },
        {},
        { body: "é ✓ 写真", extra: 1 }
      ])
      const valid = requestSchemaOf(id)?.(body) === true
      answer = await send(id, { reference: task.reference }, { body, headers })
      const mayWrite = (kind === "agent" || (kind === "own" && !gone)) && !ended && task.participant !== null
      if (!valid && answer.status === 201) fail(`a message invalid by the document taken: ${answer.line}`)
      if (valid && mayWrite && answer.status !== 201 && answer.status !== 409 && !(await movedOn(answer.status)))
        fail(`${id} by ${kind} answered ${answer.status}: ${answer.line}`)
      if ((kind === "other" || kind === "none" || kind === "garbage") && answer.status === 201)
        fail(`${id} taken from ${kind}: ${answer.line}`)
      if (answer.status === 201) moved(id, undefined)
    }
    if ((kind === "none" || kind === "garbage") && answer.status !== 401)
      fail(`${id} without a valid token answered ${answer.status}: ${answer.line}`)
    figures.participantStatuses[`${id} ${answer.status}`] =
      (figures.participantStatuses[`${id} ${answer.status}`] ?? 0) + 1
  }
  return { participantOps, participantRound }
}
