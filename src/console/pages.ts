/**
 * The console's pages, rendering only: each function takes plain data (tasks as the API shows
 * them, the signed-in participant's profile, what a form sent back) and returns the markup with
 * the status to send it with. Escaped by construction (src/pages/html.ts); no page needs script:
 * `/console/live.js` only spares a reload when something changes.
 *
 * The forms post (each with `csrf`, the session's token):
 * - accept, start: nothing else; decline: `reason` (optional);
 * - submit: `summary`, the result's fields (src/pages/result_form/), `files` (any number),
 *   `links` and `notes` (one artifact per line, and one text);
 * - profile: the profile's members; availability: `available` = `yes` | `no`.
 */

import { isTerminal } from "../domain/lifecycle.ts"
import { type NotificationKind, notificationKinds, notificationTitles } from "../domain/mail.ts"
import { type MessageList, messageBodyLimit } from "../domain/messages.ts"
import { revisionReasonOf } from "../domain/moves.ts"
import type { Participant } from "../domain/participant.ts"
import type { Task } from "../domain/task.ts"
import { taskTypeChoices } from "../oauth/pages.ts"
import type { TaskOnBoard } from "../operations/participant.ts"
import { type Html, html, webUrlOf } from "../pages/html.ts"
import { page } from "../pages/layout.ts"
import type { RenderedPage } from "../pages/respond.ts"
import { formFieldsOf } from "../pages/result_form/schema_fields.ts"
import { describeResultFields, showResultFields } from "../pages/result_form/show.ts"
import { madeOnce } from "../read_cache.ts"

/** Where the console's pages live, under the service's base path. */
export interface ConsolePaths {
  readonly home: string
  readonly profile: string
  readonly signOut: string
  readonly task: (reference: string) => string
  readonly file: (reference: string, id: string) => string
}

export const consolePathsOf = (basePath: string): ConsolePaths => {
  const home = `${basePath}/console`
  return {
    home,
    profile: `${home}/profile`,
    signOut: `${home}/sign-out`,
    task: (reference) => `${home}/tasks/${encodeURIComponent(reference)}`,
    file: (reference, id) => `${home}/tasks/${encodeURIComponent(reference)}/files/${encodeURIComponent(id)}`
  }
}

/** The frame of every signed-in page: the navigation, and the live script. */
interface Frame {
  readonly paths: ConsolePaths
  readonly csrf: string
  readonly name: string
  readonly current: "tasks" | "profile" | "task"
}

const navigation = ({ paths, csrf, name, current }: Frame) => html`<nav class="console" aria-label="Console">
<a href="${paths.home}"${current === "tasks" ? html` aria-current="page"` : ""}>Tasks</a>
<a href="${paths.profile}"${current === "profile" ? html` aria-current="page"` : ""}>Profile</a>
<form method="post" action="${paths.signOut}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" aria-label="Sign out ${name}">Sign out</button></form>
</nav>`

const framed = (frame: Frame, title: string, body: Html, status = 200): RenderedPage => ({
  status,
  html: page({
    title,
    wide: true,
    nav: navigation(frame),
    scripts: [`${frame.paths.home}/live.js`],
    body
  })
})

// ---------------------------------------------------------------------------------------------
// Times

// Made on the first page that shows a time: the first date format of a process loads ICU's data
// (~30 ms), which start-up need not pay (docs/performance.md).
const dateFormat = madeOnce(
  () =>
    new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short"
    })
)

/** An instant as a person reads it (UTC, which the live script turns into their own time). */
const when = (iso: string) => html`<time datetime="${iso}">${dateFormat().format(new Date(iso))}</time>`

/** How long until `iso` from `now`, in words: "3 hours", "12 minutes", "less than a minute". */
const timeLeft = (iso: string, now: number): string => {
  const ms = Date.parse(iso) - now
  if (ms <= 60_000) return "less than a minute"
  const minutes = Math.floor(ms / 60_000)
  if (minutes < 60) return minutes === 1 ? "1 minute" : `${minutes} minutes`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return hours === 1 ? "1 hour" : `${hours} hours`
  const days = Math.floor(hours / 24)
  return `${days} days`
}

// ---------------------------------------------------------------------------------------------
// What a task is at, in the participant's words

const latestReview = (task: Task) =>
  [...task.history].reverse().find((entry) => entry.from === "submitted" && entry.to === "in_flight")

/** Whether the agent sent the result back (the task is in flight again after a submission). */
const revisionRequested = (task: Task) => task.state === "in_flight" && task.history.at(-1)?.from === "submitted"

const stateLabels: Record<string, string> = {
  open: "Posted by the agent",
  matching: "Looking for a participant",
  awaiting_participant: "Offer",
  accepted: "Accepted",
  in_flight: "In progress",
  submitted: "Awaiting review",
  settled: "Settled",
  declined: "Declined",
  cancelled: "Cancelled"
}

const outcomeLabels: Record<string, string> = {
  accepted: "Result accepted",
  auto_accepted: "Accepted (review window passed)",
  participant_declined: "You declined",
  no_match: "Nobody could take it",
  accept_timeout: "Offer lapsed",
  deadline_passed: "Deadline passed",
  result_rejected: "Result rejected",
  cancelled_by_agent: "Cancelled by the agent",
  cancelled_by_operator: "Cancelled by the operator"
}

const badgeOf = (task: Task) => {
  if (revisionRequested(task)) return html`<span class="badge attention">Revision requested</span>`
  const label =
    task.outcome !== null
      ? (outcomeLabels[task.outcome.reason] ?? stateLabels[task.state])
      : (stateLabels[task.state] ?? task.state)
  return html`<span class="badge${task.state === "awaiting_participant" ? " attention" : ""}">${label}</span>`
}

const facts = (task: Task) => {
  const parts = [task.brief.location, task.brief.timing, task.brief.budget].filter(
    (part): part is string => part !== null && part !== ""
  )
  return parts.length === 0 ? undefined : parts.join(" · ")
}

// ---------------------------------------------------------------------------------------------
// Tasks (the home page)

export interface HomeInput {
  readonly frame: Omit<Frame, "current">
  readonly board: ReadonlyArray<TaskOnBoard>
  /** False while the person's sign-up awaits the operator's approval. */
  readonly listed: boolean
  readonly now: number
  /** A line to show at the top (a move just made). */
  readonly notice?: string | undefined
}

const card = (paths: ConsolePaths, now: number, { task, offerExpiresAt, reviewDueAt }: TaskOnBoard) => {
  const review = revisionRequested(task) ? latestReview(task) : undefined
  return html`<li class="card">
<h3><a href="${paths.task(task.reference)}">${task.brief.action}</a></h3>
<p>${badgeOf(task)} <span class="small">${task.execution_mode} · for ${task.principal ?? task.agent}</span></p>
${facts(task) !== undefined && html`<p class="small">${facts(task)}</p>`}
${offerExpiresAt !== null && html`<p><strong>Answer within ${timeLeft(offerExpiresAt, now)}</strong> <span class="small">(by ${when(offerExpiresAt)})</span></p>`}
${review?.reason !== undefined && html`<p><strong>The agent asks:</strong> ${revisionReasonOf(review.reason)}</p>`}
${reviewDueAt !== null && html`<p class="small">Submitted; accepted automatically by ${when(reviewDueAt)} unless the agent reviews it first.</p>`}
${task.outcome !== null && html`<p class="small">${task.outcome.message} (${when(task.outcome.decided_at)})</p>`}
</li>`
}

const section = (
  id: string,
  title: string,
  items: ReadonlyArray<Html>,
  empty: string
) => html`<section aria-labelledby="${id}">
<h2 id="${id}">${title} <span class="small">(${items.length})</span></h2>
${items.length === 0 ? html`<p class="small">${empty}</p>` : html`<ul class="cards">${items}</ul>`}
</section>`

export const homePage = ({ frame, board, listed, now, notice }: HomeInput): RenderedPage => {
  const of = (test: (entry: TaskOnBoard) => boolean) => board.filter(test).map((entry) => card(frame.paths, now, entry))
  const offers = of(({ task }) => task.state === "awaiting_participant")
  const working = of(({ task }) => task.state === "accepted" || task.state === "in_flight")
  const submitted = of(({ task }) => task.state === "submitted")
  const history = of(({ task }) => task.state === "settled" || task.state === "declined" || task.state === "cancelled")
  return framed(
    { ...frame, current: "tasks" },
    "Your tasks",
    html`<h1>Your tasks</h1>
<p class="lead">Offers to answer, work in progress, results awaiting review, and what is done.</p>
${notice !== undefined && html`<p class="notice" role="status">${notice}</p>`}
${!listed && html`<p class="notice">Welcome! Your profile awaits the operator's approval: until then agents cannot find you and you receive no offers. Meanwhile, complete your <a href="${frame.paths.profile}">profile</a>.</p>`}
<div id="board" data-live="board">
${section("offers", "Offers", offers, "No offers right now. New ones appear here.")}
${section("working", "In progress", working, "Nothing in progress.")}
${section("submitted", "Awaiting review", submitted, "No result awaiting review.")}
${section("history", "History", history, "Nothing finished yet.")}
</div>`
  )
}

// ---------------------------------------------------------------------------------------------
// One task

export interface ResultFormInput {
  /** The controls of the result's fields (generated from the task's result_schema). */
  readonly fields: Html
  readonly summary?: string | undefined
  readonly links?: string | undefined
  readonly notes?: string | undefined
  /** Problems to show above the form (the service's refusal, files to choose again). */
  readonly problems?: ReadonlyArray<string> | undefined
  /** The problem with each of summary, links, notes, files. */
  readonly fieldProblems?: ReadonlyMap<string, string> | undefined
}

export interface TaskPageInput {
  readonly frame: Omit<Frame, "current">
  readonly entry: TaskOnBoard
  readonly now: number
  readonly notice?: string | undefined
  /** A refusal of the last move, shown at the top. */
  readonly error?: string | undefined
  /** The result form (while the task is in progress). */
  readonly resultForm?: ResultFormInput | undefined
  readonly maxFiles: number
  readonly maxFileBytes: number
  readonly status?: number
  /** The person's conversation with the task's agent (domain/messages.ts); undefined when it cannot be read. */
  readonly messages?: MessageList | undefined
  /** What the person typed in the message box, when it is shown again with a refusal. */
  readonly draftMessage?: string | undefined
}

const briefTerms = (task: Task) => {
  const b = task.brief
  const rows: Array<[string, string | null]> = [
    ["Action", b.action],
    ["Location", b.location],
    ["Timing", b.timing],
    ["Deadline", b.deadline],
    ["Expected result", b.expected_result],
    ["Acceptance test", b.acceptance_test],
    ["Constraints", b.constraints],
    ["Budget", b.budget],
    ["Principal", task.principal],
    ["Agent", task.agent],
    ["Execution mode", task.execution_mode]
  ]
  return html`<dl class="brief">${rows
    .filter((row): row is [string, string] => row[1] !== null && row[1] !== "")
    .map(([term, value]) => html`<dt>${term}</dt><dd>${term === "Deadline" ? when(value) : value}</dd>`)}</dl>`
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MB`

const fileSize = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1048576 ? `${Math.round(bytes / 102.4) / 10} KB` : megabytes(bytes)

/** A result as the participant sent it: summary, fields, evidence (their own files downloadable). */
const resultView = (paths: ConsolePaths, task: Task) => {
  const result = task.result
  if (result === null) return undefined
  return html`<section aria-labelledby="result">
<h2 id="result">Your result</h2>
<p class="small">Submitted ${when(result.submitted_at)}</p>
<p>${result.summary}</p>
${showResultFields(formFieldsOf(task.brief.result_schema ?? undefined), result.fields)}
${
  result.artifacts.length > 0 &&
  html`<ul>${result.artifacts.map((artifact) => {
    const file = artifact as typeof artifact & { id?: string; size?: number; content_type?: string }
    if (artifact.kind === "file" && typeof file.id === "string") {
      return html`<li><a href="${paths.file(task.reference, file.id)}">${artifact.value}</a> <span class="small">${file.content_type ?? ""}${file.size !== undefined && `, ${fileSize(file.size)}`}</span></li>`
    }
    const url = artifact.kind === "url" ? webUrlOf(artifact.value) : undefined
    return url !== undefined
      ? html`<li><a href="${url}" rel="noopener noreferrer">${artifact.value}</a></li>`
      : html`<li>${artifact.value}</li>`
  })}</ul>`
}
</section>`
}

/** The conversation with the task's agent: the messages, oldest first, and a box to write while the task is on. */
const conversationView = (input: TaskPageInput) => {
  const { frame, entry, messages } = input
  if (messages === undefined) return undefined
  const open = !isTerminal(entry.task.state)
  return html`<section aria-labelledby="messages" id="conversation">
<h2 id="messages">Messages</h2>
${
  messages.count === 0
    ? html`<p class="small">${open ? "No messages yet. Ask the agent anything unclear about the task." : "No messages were written."}</p>`
    : html`<ol class="messages">${messages.data.map(
        (message) =>
          html`<li class="${message.from === "participant" ? "mine" : "theirs"}"><p class="small"><strong>${message.from === "participant" ? "You" : "The agent"}</strong>, ${when(message.created_at)}</p><p class="body">${message.body}</p></li>`
      )}</ol>`
}
${
  open &&
  html`<form method="post" action="${frame.paths.task(entry.task.reference)}/messages">${hidden(frame.csrf)}
<div class="field">
<label for="message-body">Write to the agent</label>
<textarea id="message-body" name="body" required maxlength="${messageBodyLimit}">${input.draftMessage ?? ""}</textarea>
</div>
<div class="actions"><button type="submit">Send message</button></div>
</form>`
}
</section>`
}

const historyView = (task: Task) => html`<section aria-labelledby="history">
<h2 id="history">History</h2>
<ol class="history">${task.history.map(
  (entry) =>
    html`<li>${when(entry.at)}: ${stateLabels[entry.to] ?? entry.to} <span class="small">(${entry.actor})</span>${entry.reason !== undefined && html` — ${entry.reason}`}</li>`
)}</ol>
</section>`

const hidden = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`

const problemOf = (problems: ReadonlyMap<string, string> | undefined, name: string) => {
  const problem = problems?.get(name)
  return problem === undefined
    ? { attributes: undefined, message: undefined }
    : {
        attributes: html` aria-invalid="true" aria-describedby="${name}-problem"`,
        message: html`<p class="field-error" id="${name}-problem">${problem}</p>`
      }
}

const resultFormView = (input: TaskPageInput, form: ResultFormInput) => {
  const { frame, entry } = input
  const action = `${frame.paths.task(entry.task.reference)}/submit`
  const summary = problemOf(form.fieldProblems, "summary")
  const files = problemOf(form.fieldProblems, "files")
  const links = problemOf(form.fieldProblems, "links")
  return html`<section aria-labelledby="deliver">
<h2 id="deliver">Hand in your result</h2>
${(form.problems ?? []).length > 0 && html`<div class="alert" role="alert"><p>The result was not submitted:</p><ul>${(form.problems ?? []).map((problem) => html`<li>${problem}</li>`)}</ul></div>`}
<form method="post" action="${action}" enctype="multipart/form-data">
${hidden(frame.csrf)}
<div class="field">
<label for="summary">Summary (required)</label>
<p class="hint" id="summary-hint">What you did and found, in a few sentences.</p>
${summary.message}
<textarea id="summary" name="summary" required maxlength="4000" aria-describedby="summary-hint"${summary.attributes}>${form.summary ?? ""}</textarea>
</div>
${form.fields}
<div class="field">
<label for="files">Files</label>
<p class="hint" id="files-hint">Photos, documents or other evidence: up to ${input.maxFiles} files, ${megabytes(input.maxFileBytes)} each.</p>
${files.message}
<input id="files" name="files" type="file" multiple aria-describedby="files-hint"${files.attributes}>
</div>
<div class="field">
<label for="links">Links</label>
<p class="hint" id="links-hint">One address per line (https://…).</p>
${links.message}
<textarea id="links" name="links" aria-describedby="links-hint"${links.attributes}>${form.links ?? ""}</textarea>
</div>
<div class="field">
<label for="notes">Notes</label>
<p class="hint" id="notes-hint">Anything else the agent should read.</p>
<textarea id="notes" name="notes" maxlength="4000" aria-describedby="notes-hint">${form.notes ?? ""}</textarea>
</div>
<div class="actions"><button type="submit" class="primary">Submit result</button></div>
</form>
</section>`
}

/** Before a person accepts: what they will hand back (the result form's fields, read-only). */
const handBackView = (task: Task) => {
  const fields = describeResultFields(formFieldsOf(task.brief.result_schema ?? undefined))
  return html`<section aria-labelledby="hand-back">
<h2 id="hand-back">What you will hand back</h2>
<p>A summary of what you did, with evidence (files or links) as the brief asks${fields === undefined ? "." : ", and:"}</p>
${fields}
</section>
`
}

const movesOf = (input: TaskPageInput) => {
  const { frame, entry, now } = input
  const { task } = entry
  const path = frame.paths.task(task.reference)
  switch (task.state) {
    case "awaiting_participant":
      return html`${handBackView(task)}<section aria-labelledby="answer">
<h2 id="answer">Your answer</h2>
${entry.offerExpiresAt !== null && html`<p><strong>Answer within ${timeLeft(entry.offerExpiresAt, now)}</strong> (by ${when(entry.offerExpiresAt)}); after that the offer lapses.</p>`}
<form method="post" action="${path}/accept">${hidden(frame.csrf)}
<div class="actions"><button type="submit" class="primary">Accept</button></div>
</form>
<hr>
<form method="post" action="${path}/decline">${hidden(frame.csrf)}
<div class="field">
<label for="reason">Reason for declining (optional)</label>
<textarea id="reason" name="reason" maxlength="4000"></textarea>
</div>
<div class="actions"><button type="submit">Decline</button></div>
</form>
</section>`
    case "accepted":
      return html`<section aria-labelledby="start">
<h2 id="start">Ready?</h2>
<p>You accepted this task. Start work when you begin, so the agent knows.</p>
<form method="post" action="${path}/start">${hidden(frame.csrf)}
<div class="actions"><button type="submit" class="primary">Start work</button></div>
</form>
</section>`
    case "in_flight":
      return input.resultForm === undefined ? undefined : resultFormView(input, input.resultForm)
    case "submitted":
      return html`<p class="notice">Your result is with the agent.${entry.reviewDueAt !== null && html` It is accepted automatically by ${when(entry.reviewDueAt)} unless the agent reviews it first.`}</p>`
    default:
      return (
        task.outcome !== null &&
        html`<p class="notice"><strong>${outcomeLabels[task.outcome.reason] ?? task.outcome.reason}.</strong> ${task.outcome.message}</p>`
      )
  }
}

export const taskPage = (input: TaskPageInput): RenderedPage => {
  const { frame, entry } = input
  const { task } = entry
  const review = revisionRequested(task) ? latestReview(task) : undefined
  return framed(
    { ...frame, current: "task" },
    task.brief.action,
    html`<p class="small"><a href="${frame.paths.home}">← All tasks</a></p>
<h1>${task.brief.action}</h1>
<p>${badgeOf(task)} <span class="small mono">${task.reference}</span></p>
<div data-live="task" data-updated="${task.updated_at}" hidden></div>
${input.notice !== undefined && html`<p class="notice" role="status">${input.notice}</p>`}
${input.error !== undefined && html`<div class="alert" role="alert">${input.error}</div>`}
${review !== undefined && html`<div class="notice"><p><strong>The agent asked for a revision:</strong></p><p>${revisionReasonOf(review.reason ?? "")}</p></div>`}
<h2>The brief</h2>
${briefTerms(task)}
${movesOf(input)}
${conversationView(input)}
${resultView(frame.paths, task)}
${historyView(task)}`,
    input.status ?? 200
  )
}

// ---------------------------------------------------------------------------------------------
// Profile

export interface ProfileInput {
  readonly frame: Omit<Frame, "current">
  readonly participant: Participant
  readonly available: boolean
  readonly listed: boolean
  readonly notice?: string | undefined
  readonly problems?: ReadonlyMap<string, string> | undefined
  /** What the person typed, when the form is shown again with problems. */
  readonly values?: Readonly<Record<string, string>> | undefined
  readonly status?: number
  /** The notifications turned off; undefined when the service sends no mail (SMTP_URL unset). */
  readonly mailOff?: ReadonlyArray<NotificationKind> | undefined
}

/** The profile's mail section: one box a notification kind, ticked while it is mailed. */
const mailSection = (
  frame: Omit<Frame, "current">,
  off: ReadonlyArray<NotificationKind>
) => html`<section aria-labelledby="mail">
<h2 id="mail">Mail</h2>
<p>Which notifications are mailed to you. Mails about your account (invitations, password resets) always are.</p>
<form method="post" action="${frame.paths.profile}/mail">${hidden(frame.csrf)}
<fieldset class="choices"><legend>Mail me about</legend>
${notificationKinds.map(
  (kind) =>
    html`<div class="choice"><input type="checkbox" id="mail-${kind}" name="on" value="${kind}"${off.includes(kind) ? "" : html` checked`}><label for="mail-${kind}">${notificationTitles[kind]}</label></div>`
)}
</fieldset>
<div class="actions"><button type="submit">Save mail settings</button></div>
</form>
</section>`

export const profilePage = (input: ProfileInput): RenderedPage => {
  const { frame, participant: p, values } = input
  const value = (name: string, current: string) => values?.[name] ?? current
  const text = (name: string, label: string, current: string, hint?: string, multiline = false) => {
    const problem = problemOf(input.problems, name)
    const hintId = hint === undefined ? undefined : `${name}-hint`
    return html`<div class="field">
<label for="${name}">${label}</label>
${hint !== undefined && html`<p class="hint" id="${hintId}">${hint}</p>`}
${problem.message}
${
  multiline
    ? html`<textarea id="${name}" name="${name}"${hintId !== undefined && html` aria-describedby="${hintId}"`}${problem.attributes}>${value(name, current)}</textarea>`
    : html`<input id="${name}" name="${name}" value="${value(name, current)}"${hintId !== undefined && html` aria-describedby="${hintId}"`}${problem.attributes}>`
}
</div>`
  }
  const mode = value("task_type", p.task_type)
  return framed(
    { ...frame, current: "profile" },
    "Your profile",
    html`<h1>Your profile</h1>
<p class="lead">What agents see when they look for someone like you.</p>
${input.notice !== undefined && html`<p class="notice" role="status">${input.notice}</p>`}
${!input.listed && html`<p class="notice">Your profile awaits the operator's approval: until then it is not listed and you receive no offers.</p>`}
<section aria-labelledby="availability">
<h2 id="availability">Availability</h2>
<p>${input.available ? "You are taking offers." : "You are not taking offers: nobody is offered to you until you switch this back on."}</p>
<form method="post" action="${frame.paths.profile}/availability">${hidden(frame.csrf)}
<input type="hidden" name="available" value="${input.available ? "no" : "yes"}">
<div class="actions"><button type="submit"${input.available ? "" : html` class="primary"`}>${input.available ? "Stop taking offers" : "Take offers again"}</button></div>
</form>
</section>
${input.mailOff !== undefined && mailSection(frame, input.mailOff)}
<section aria-labelledby="details">
<h2 id="details">Details</h2>
${(input.problems?.size ?? 0) > 0 && html`<div class="alert" role="alert">Some details need a change: see the fields marked below.</div>`}
<form method="post" action="${frame.paths.profile}">${hidden(frame.csrf)}
${text("name", "Name", p.name)}
${text("discipline", "What you do", p.discipline, "Your trade or skill, e.g. Photography, Translation, Courier.")}
${text("location", "Where you are", p.location, "City and country, e.g. Lagos, Nigeria.")}
<div class="field">
<label for="task_type">How you work</label>
<select id="task_type" name="task_type">
${taskTypeChoices.map(({ value, label }) => html`<option value="${value}"${value === mode ? html` selected` : ""}>${label}</option>`)}
</select>
</div>
${text("tags", "Tags", p.tags.join(", "), "Words agents might search for, separated by commas.")}
${text("capabilities", "What you can do", p.capabilities.join("\n"), "One thing a line.", true)}
${text("returns", "What you hand back", p.returns, "The evidence an agent gets from you, e.g. edited photos and a short report.", true)}
${text("boundary", "What you will not do", p.boundary ?? "", "Optional: limits an agent should know before offering you a task.", true)}
<div class="actions"><button type="submit" class="primary">Save profile</button></div>
</form>
</section>`,
    input.status ?? 200
  )
}

// ---------------------------------------------------------------------------------------------
// Pages outside a session (or without a participant)

export const messagePage = (input: {
  readonly status: number
  readonly title: string
  readonly message: string
  readonly link?: { readonly href: string; readonly label: string } | undefined
}): RenderedPage => ({
  status: input.status,
  html: page({
    title: input.title,
    body: html`<h1>${input.title}</h1>
<p>${input.message}</p>
${input.link !== undefined && html`<p><a href="${input.link.href}">${input.link.label}</a></p>`}`
  })
})
