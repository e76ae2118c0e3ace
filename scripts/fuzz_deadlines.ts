/**
 * The deadline walk of the fuzzer's stateful phase (scripts/fuzz_stateful.ts), in a sandbox: the
 * sandbox's clock (the index's `sandbox_tools.clock`; not an operation of the document) read and
 * moved, drafts given deadlines a few hours ahead of it (scripts/fuzz_drafts.ts), and now and then
 * one task's deadline passed on purpose, in whatever state the task is, and what follows checked
 * against DECISIONS §5:
 *
 * - a task `open`, `matching` or `awaiting_participant` when its deadline passes is declined by the
 *   service with `deadline_passed` (its outcome `{state: declined, reason: deadline_passed}`, the
 *   last history entry the service's), unless a party moved it on before the deadline;
 * - once accepted (`accepted`, `in_flight`, `submitted`) a deadline changes nothing by itself;
 * - a participant's accept, or the agent's cancel, sent right after the deadline passed (before the
 *   service's timer has run) is refused with 409 `invalid_transition`, as is every later move of
 *   either party on the declined task (the holder's accept, start or decline; the agent's cancel or
 *   review).
 */
import type { Run, Task } from "./fuzz_run.ts"

/** The states in which a deadline still matters (DECISIONS §5): until a participant accepts. */
const beforeAcceptance = new Set(["open", "matching", "awaiting_participant"])

/** The sandbox's clock, as the fuzzer reads and moves it. */
export interface SandboxClock {
  /** The sandbox's time now, as last read (real time since added). */
  readonly now: () => number
  /** Moves it forward by an ISO 8601 duration; answers the status (200 when moved). */
  readonly advance: (duration: string) => Promise<number>
}

export const sandboxClockAt = async (address: string): Promise<SandboxClock> => {
  let offset = 0
  const read = (body: unknown) => {
    const now = Date.parse((body as { now?: string } | undefined)?.now ?? "")
    if (!Number.isNaN(now)) offset = now - Date.now()
  }
  read(await (await fetch(address)).json())
  return {
    now: () => Date.now() + offset,
    advance: async (duration) => {
      const response = await fetch(address, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advance: duration })
      })
      const body = await response.json().catch(() => undefined)
      if (response.status === 200) read(body)
      return response.status
    }
  }
}

interface Seen {
  readonly state: string
  readonly outcome?: { readonly state?: string; readonly reason?: string } | null
  readonly history?: ReadonlyArray<{ from: string; to: string; actor: string; reason?: string; at: string }>
}

export const deadlineWalk = (run: Run) => {
  const { random, pick, figures, fail, send, signedIn, known, observe, withBearer, clock } = run
  const count = (what: string) => {
    figures.deadlines[what] = (figures.deadlines[what] ?? 0) + 1
  }
  const read = async (task: Task, wait: string | undefined): Promise<Seen | undefined> => {
    const answer = await send(
      "getTask",
      { reference: task.reference },
      { query: wait === undefined ? "" : `?wait=${wait}` }
    )
    if (answer.status !== 200) return undefined
    observe(task, answer.json)
    return answer.json as Seen
  }
  const holderOf = (task: Task) => signedIn.find((p) => p.slug === task.participant)

  /** Every later move on a task its deadline declined: refused with 409 invalid_transition. */
  const laterMoves = async (task: Task) => {
    const holder = holderOf(task)
    const tries: Array<() => Promise<{ status: number; json: unknown; line: string }>> = [
      () =>
        send("cancelTask", { reference: task.reference }, { body: {}, headers: withBearer(`Bearer ${task.token}`) }),
      () =>
        send(
          "reviewTask",
          { reference: task.reference },
          { body: { decision: "accept" }, headers: withBearer(`Bearer ${task.token}`) }
        )
    ]
    if (holder !== undefined)
      for (const id of ["acceptTask", "startTask", "declineTask"])
        tries.push(async () =>
          send(id, { reference: task.reference }, { body: {}, headers: withBearer(`Bearer ${await holder.token()}`) })
        )
    const answer = await pick(tries)()
    const code = (answer.json as { error?: { code?: string } } | undefined)?.error?.code
    if (answer.status !== 409 || code !== "invalid_transition")
      fail(`a move on a task its deadline declined not refused as invalid_transition: ${answer.line}`)
    else count("later moves refused")
  }

  /** One task's deadline passed on purpose, and what follows checked (see the module's comment). */
  const deadlineRound = async () => {
    if (clock === undefined) return
    // Tasks not ended whose deadline is still ahead, within a day (a longer move lapses offers too).
    const ahead = [...known.values()].filter((task) => {
      const at = Date.parse(task.deadline ?? "")
      return task.outcome === undefined && at > clock.now() + 1000 && at < clock.now() + 20 * 3600_000
    })
    if (ahead.length === 0) return
    // A state first, then a task in it: the few accepted or submitted ones get their turn too,
    // half the time when there are any.
    const states = [...new Set(ahead.map((task) => task.state))]
    const held = states.filter((s) => !beforeAcceptance.has(s))
    const state = pick(held.length > 0 && random() < 0.5 ? held : states)
    // The nearest deadline in that state: the clock moves as little as it can, so that other
    // tasks' offers and deadlines are passed no sooner than needed.
    const [task] = ahead
      .filter((t) => t.state === state)
      .sort((a, b) => Date.parse(a.deadline ?? "") - Date.parse(b.deadline ?? ""))
    if (task === undefined) return
    const before = await read(task, undefined)
    if (before === undefined || task.outcome !== undefined) return
    const deadline = Date.parse(task.deadline ?? "")
    const seconds = Math.ceil((deadline - clock.now()) / 1000) + 2
    if (seconds <= 0) return
    const status = await clock.advance(`PT${seconds}S`)
    figures.requests++
    if (status !== 200) return fail(`the sandbox clock answered ${status} to PT${seconds}S`)
    count(`passed while ${before.state}`)
    // A participant's accept right after the deadline passed: too late, whether or not the
    // service's timer has declined the task yet.
    const holder = holderOf(task)
    if (before.state === "awaiting_participant" && holder !== undefined && random() < 0.6) {
      const answer = await send(
        "acceptTask",
        { reference: task.reference },
        { headers: withBearer(`Bearer ${await holder.token()}`) }
      )
      if (answer.status === 200) fail(`an offer accepted after its deadline passed: ${answer.line}`)
      else if (answer.status === 409) count("accept after the deadline refused")
    } else if (beforeAcceptance.has(before.state) && random() < 0.4) {
      // …or the agent's cancel: the service's decline (deadline_passed) is the outcome, not theirs.
      const answer = await send(
        "cancelTask",
        { reference: task.reference },
        { body: {}, headers: withBearer(`Bearer ${task.token}`) }
      )
      if (answer.status === 200) fail(`a task cancelled by its agent after its deadline passed: ${answer.line}`)
      else if (answer.status === 409) count("cancel after the deadline refused")
    }
    // The service's timer: a few seconds at most (the clock's move wakes it).
    let after = await read(task, "1")
    for (let i = 0; i < 8 && after !== undefined && beforeAcceptance.has(after.state); i++)
      after = await read(task, "1")
    if (after === undefined) return fail(`a task could not be read after its deadline passed: ${task.reference}`)
    const history = after.history ?? []
    const reason = after.outcome?.reason
    if (beforeAcceptance.has(before.state)) {
      // A party's move before the deadline (a simulated participant's accept) may have won; after
      // it, none may.
      const sinceBefore = history.slice((before.history ?? []).length)
      const late = sinceBefore.find((entry) => entry.actor !== "service" && Date.parse(entry.at) >= deadline)
      if (late !== undefined)
        fail(`${late.actor} moved ${task.reference} ${late.from}→${late.to} after its deadline passed`)
      const earlier = sinceBefore.some((entry) => entry.actor !== "service" && Date.parse(entry.at) < deadline)
      if (!earlier) {
        const last = history[history.length - 1]
        if (after.state !== "declined" || reason !== "deadline_passed" || after.outcome?.state !== "declined")
          fail(
            `a task ${before.state} when its deadline passed is ${after.state} (${reason ?? "no outcome"}), not declined with deadline_passed: ${task.reference}`
          )
        else if (last?.actor !== "service" || !last.reason?.startsWith("deadline_passed"))
          fail(`the decline of ${task.reference} past its deadline is not the service's in its history`)
        else {
          count("declined with deadline_passed")
          await laterMoves(task)
        }
      }
    } else {
      // Accepted: the deadline changes nothing by itself. The service's only move from here is a
      // result's settlement when its review window closes.
      const sinceBefore = history.slice((before.history ?? []).length)
      const byService = sinceBefore.find(
        (entry) => entry.actor === "service" && !(entry.to === "settled" && entry.reason?.startsWith("auto_accepted"))
      )
      if (reason === "deadline_passed" || byService !== undefined)
        fail(
          `a task ${before.state} when its deadline passed was moved by the service (${byService?.from}→${byService?.to} ${byService?.reason ?? reason}): ${task.reference}`
        )
      else count(`held while ${before.state}`)
    }
  }
  return { deadlineRound }
}
