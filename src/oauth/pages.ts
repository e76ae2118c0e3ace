/**
 * The pages of the embedded authorization server (`<base>/oauth`) that participants see: signing
 * in, approving an app or AI assistant, choosing a password from an invitation or reset link,
 * signing out, and every error they can meet on the way. Rendering only: each function takes plain
 * data and returns the markup with the status to send it with; the caller sends it with
 * `pageHeaders` (src/pages/layout.ts), naming the client's redirect origin where a form leads there.
 *
 * The forms post (no JavaScript anywhere):
 * - sign-in: `csrf`, `email`, `password`;
 * - sign-up (`PARTICIPANT_SIGNUP=open`): `csrf`, `email`, `password`, `confirm`, `name`, `discipline`,
 *   `location`, `task_type`, `tags` (separated by commas), `capabilities` (one a line), `returns`;
 * - consent: `csrf`, `decision` = `allow` | `deny`;
 * - choose password: `token`, `username` (the email, for password managers), `password`, `confirm`;
 * - sign-out: oidc-provider's own form (`xsrf`), plus `logout=yes` when the person signs out.
 */

import { minimumPasswordLength } from "../domain/login.ts"
import { profileLimits } from "../domain/participant.ts"
import { type Html, html, rawHtml, webUrlOf } from "../pages/html.ts"
import { page, productName, sourceHash } from "../pages/layout.ts"
import type { RenderedPage } from "../pages/respond.ts"

export { pageResponse, type RenderedPage } from "../pages/respond.ts"

/** What a participant is told each scope lets an app do. */
export const scopeDescriptions: Readonly<Record<string, string>> = {
  openid: "Confirm who you are",
  email: "See your email address",
  profile: "See your name and profile",
  offline_access: "Stay connected while you are away, until you sign out"
}

/** What a participant is told each resource (RFC 8707 resource indicator) lets an app do, by kind. */
export const resourceDescriptions = {
  api: `Use the ${productName} API as you: see your offers and tasks, accept, decline, start and hand in work`,
  mcp: "Let your AI assistant act on your tasks through MCP"
} as const

const alertId = "form-error"

/** The error above a form, announced when the page opens and named by the fields it concerns. */
const formAlert = (error: string | undefined) =>
  error !== undefined && html`<div class="alert" role="alert" id="${alertId}">${error}</div>`

/** The ids an input's aria-describedby names (its own description first, then the error). */
const describedBy = (...ids: ReadonlyArray<string | false | undefined>) => {
  const named = ids.filter((id): id is string => typeof id === "string")
  return named.length === 0 ? undefined : html` aria-describedby="${named.join(" ")}"`
}

// ---------------------------------------------------------------------------------------------
// Sign in

export interface SignInPageInput {
  /** Where the form posts (our own interaction endpoint). */
  readonly action: string
  readonly csrfToken: string
  readonly clientName: string
  /** The email typed before, kept when the page comes back with an error. */
  readonly email?: string | undefined
  /** Why the last attempt failed ("That email and password do not match.", "Too many attempts. …"). */
  readonly error?: string | undefined
  /** Said above the form when the page follows something done (a sign-up sent). */
  readonly notice?: string | undefined
  /** The sign-up page of this sign-in, when people may create an account (PARTICIPANT_SIGNUP=open). */
  readonly signUpUrl?: string | undefined
}

/**
 * The sign-in form: 200, or 422 with an error (a caller refusing a throttled attempt may send 429
 * with Retry-After instead).
 */
export const signInPage = ({
  action,
  csrfToken,
  clientName,
  email,
  error,
  notice,
  signUpUrl
}: SignInPageInput): RenderedPage => ({
  status: error === undefined ? 200 : 422,
  html: page({
    title: "Sign in",
    body: html`<h1>Sign in</h1>
<p class="lead">to continue to <strong>${clientName}</strong></p>
${notice !== undefined && html`<p class="notice" role="status">${notice}</p>`}
${formAlert(error)}
<form method="post" action="${action}">
<input type="hidden" name="csrf" value="${csrfToken}">
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${email ?? ""}"${describedBy(error !== undefined && alertId)}>
</div>
<div class="field">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy(error !== undefined && alertId)}${(error !== undefined || notice !== undefined) && html` autofocus`}>
</div>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
<hr>
${
  signUpUrl !== undefined &&
  html`<p>New to ${productName}? <a href="${signUpUrl}">Create an account</a></p>
`
}<p class="small">Forgot your password? Ask the marketplace operator for a new link.</p>`
  })
})

// ---------------------------------------------------------------------------------------------
// Sign up (PARTICIPANT_SIGNUP=open)

/** The fields of the sign-up form, in the order they appear. */
export const signUpFields = [
  "email",
  "password",
  "confirm",
  "name",
  "discipline",
  "location",
  "task_type",
  "tags",
  "capabilities",
  "returns"
] as const
export type SignUpField = (typeof signUpFields)[number]

/** What the person typed, kept when the page comes back with problems (never the passwords). */
export type SignUpValues = Readonly<Partial<Record<Exclude<SignUpField, "password" | "confirm">, string>>>

export interface SignUpPageInput {
  /** Where the form posts (our own interaction endpoint). */
  readonly action: string
  readonly csrfToken: string
  readonly clientName: string
  /** The sign-in page of the same interaction. */
  readonly signInUrl: string
  readonly values?: SignUpValues | undefined
  /** The first problem of each field, shown beside it and listed above the form. */
  readonly problems?: Readonly<Partial<Record<SignUpField, string>>> | undefined
  /** A problem of the whole form (too many sign-ups from here). */
  readonly error?: string | undefined
}

/** Task types as a person reads them, in the select's order. */
export const taskTypeChoices = [
  { value: "digital", label: "Online (digital)" },
  { value: "physical", label: "On site (physical)" },
  { value: "hybrid", label: "Both (hybrid)" }
] as const

interface FieldSpec {
  readonly id: SignUpField
  readonly label: string
  readonly hint?: string
  readonly optional?: boolean
}

/**
 * The sign-up form: 200, or 422 with problems (a caller refusing a throttled attempt may send 429
 * with Retry-After instead). Each field's problem sits between its label and its input, which
 * names it (aria-describedby) and is marked invalid; above the form, one alert lists them all,
 * each linked to its field.
 */
export const signUpPage = (input: SignUpPageInput): RenderedPage => {
  const { action, csrfToken, clientName, signInUrl, values = {}, problems = {}, error } = input
  const listed = signUpFields.flatMap((id) => {
    const problem = problems[id]
    return problem === undefined ? [] : [{ id, problem }]
  })
  const failed = error !== undefined || listed.length > 0
  const firstInvalid = listed[0]?.id
  /** The label, hint and problem of a field, and the attributes its input carries. */
  const parts = ({ id, label, hint, optional }: FieldSpec) => {
    const problem = problems[id]
    const hintId = hint === undefined ? undefined : `${id}-hint`
    const errorId = problem === undefined ? undefined : `${id}-error`
    return {
      head: html`<label for="${id}">${label}${optional === true && html` <span class="optional">(optional)</span>`}</label>
${
  hint !== undefined &&
  html`<p class="hint" id="${hintId}">${hint}</p>
`
}${
  problem !== undefined &&
  html`<p class="field-error" id="${errorId}">${problem}</p>
`
}`,
      attributes: html`${describedBy(hintId, errorId)}${problem !== undefined && html` aria-invalid="true"`}${id === firstInvalid && html` autofocus`}`
    }
  }
  const text = (spec: FieldSpec, attributes: Html) => {
    const { head, attributes: common } = parts(spec)
    const value = spec.id === "password" || spec.id === "confirm" ? undefined : values[spec.id]
    return html`<div class="field">
${head}<input id="${spec.id}" name="${spec.id}"${attributes}${value !== undefined && html` value="${value}"`}${common}>
</div>`
  }
  const area = (spec: FieldSpec, maxLength: number) => {
    const { head, attributes } = parts(spec)
    return html`<div class="field">
${head}<textarea id="${spec.id}" name="${spec.id}" rows="3" maxlength="${maxLength}" autocomplete="off"${attributes}>${values[spec.id as keyof SignUpValues] ?? ""}</textarea>
</div>`
  }
  const taskType = parts({
    id: "task_type",
    label: "How you work",
    hint: "Digital: done online, from anywhere. Physical: on site, in the place you name above. Hybrid: both."
  })
  return {
    status: failed ? 422 : 200,
    html: page({
      title: "Create an account",
      body: html`<h1>Create an account</h1>
<p class="lead">to continue to <strong>${clientName}</strong></p>
${
  listed.length > 0
    ? html`<div class="alert" role="alert" id="${alertId}">${error ?? "Check the fields below:"}
<ul>${listed.map(({ id, problem }) => html`<li><a href="#${id}">${problem}</a></li>`)}</ul></div>`
    : formAlert(error)
}
<p>Agents hire people through ${productName}. The marketplace operator looks at every new profile: until they approve yours, you receive no offers.</p>
<form method="post" action="${action}">
<input type="hidden" name="csrf" value="${csrfToken}">
<h2>Your account</h2>
${text({ id: "email", label: "Email" }, html` type="email" autocomplete="username" autocapitalize="none" spellcheck="false" required`)}
${text({ id: "password", label: "Password", hint: `At least ${minimumPasswordLength} characters.` }, html` type="password" autocomplete="new-password" minlength="${minimumPasswordLength}" required`)}
${text({ id: "confirm", label: "Confirm password" }, html` type="password" autocomplete="new-password" minlength="${minimumPasswordLength}" required`)}
<h2>Your profile</h2>
<p class="hint">Agents see this when they choose whom to hire. You can change it later.</p>
${text({ id: "name", label: "Name" }, html` type="text" autocomplete="name" autocapitalize="words" maxlength="${profileLimits.name}" required`)}
${text({ id: "discipline", label: "What you do", hint: "Your trade or skill, e.g. Photography, Translation, Courier." }, html` type="text" autocomplete="organization-title" maxlength="${profileLimits.discipline}" required`)}
${text({ id: "location", label: "Where you are", hint: "City and country, e.g. Lagos, Nigeria." }, html` type="text" autocomplete="address-level2" maxlength="${profileLimits.location}" required`)}
<div class="field">
${taskType.head}<select id="task_type" name="task_type" required${taskType.attributes}>
<option value=""${values.task_type === undefined || values.task_type === "" ? html` selected` : ""}>Choose one</option>
${taskTypeChoices.map(
  ({ value, label }) => html`<option value="${value}"${values.task_type === value && html` selected`}>${label}</option>
`
)}</select>
</div>
${text({ id: "tags", label: "Tags", hint: "Words agents might search for, separated by commas, e.g. portrait, events, drone.", optional: true }, html` type="text" autocomplete="off" autocapitalize="none"`)}
${area({ id: "capabilities", label: "What you can do", hint: "One thing a line, e.g. Product photos with a light box.", optional: true }, profileLimits.capabilities * (profileLimits.capability + 1))}
${area({ id: "returns", label: "What you hand back", hint: "The evidence an agent gets from you, e.g. edited photos and a short report.", optional: true }, profileLimits.returns)}
<div class="actions"><button type="submit" class="primary">Create account</button></div>
</form>
<hr>
<p>Already have an account? <a href="${signInUrl}">Sign in</a></p>`
    })
  }
}

// ---------------------------------------------------------------------------------------------
// Consent

export interface ConsentPageInput {
  /** Where the form posts (our own interaction endpoint). */
  readonly action: string
  readonly csrfToken: string
  readonly clientName: string
  /** The client's homepage from its registration; linked only when it is an http(s) URL. */
  readonly clientUri?: string | undefined
  /** Where the app's answer goes: the redirect URI of this request. */
  readonly redirectUri: string
  /** The scopes asked for (described by `scopeDescriptions`; one unknown there is named as it is). */
  readonly scopes: ReadonlyArray<string>
  /** The resources asked for, each with what it lets the app do (`resourceDescriptions`). */
  readonly resources: ReadonlyArray<{ readonly url: string; readonly description: string }>
  readonly accountEmail: string
  /** Where the person can sign out (the end-session endpoint), linked when given. */
  readonly signOutUrl?: string | undefined
}

const loopbackHosts = new Set(["127.0.0.1", "[::1]", "localhost"])

/**
 * Where a redirect URI sends the person, in words: its host for a web address, "this device" for a
 * loopback one (an app or assistant running on the person's own machine, RFC 8252), the app that
 * opens a custom scheme, or the URI itself when it is none of these.
 */
const destinationOf = (redirectUri: string): Html => {
  if (!URL.canParse(redirectUri)) return html`<strong>${redirectUri}</strong>`
  const url = new URL(redirectUri)
  if (url.protocol === "https:" || url.protocol === "http:") {
    return loopbackHosts.has(url.hostname)
      ? html`<strong>an app on this device</strong> (${url.host})`
      : html`<strong>${url.host}</strong>`
  }
  return html`<strong>the app that opens ${url.protocol.slice(0, -1)} links</strong>`
}

/** Approving an app (an AI assistant, a client) to act as the signed-in participant: 200. */
export const consentPage = (input: ConsentPageInput): RenderedPage => {
  const { action, csrfToken, clientName, redirectUri, scopes, resources, accountEmail } = input
  const homepage = webUrlOf(input.clientUri)
  const signOutUrl = webUrlOf(input.signOutUrl)
  const abilities = [
    ...[...new Set(scopes)].map(
      (scope) =>
        html`<li>${Object.hasOwn(scopeDescriptions, scope) ? scopeDescriptions[scope] : html`Use the permission “${scope}”`}</li>`
    ),
    ...resources.map(
      (resource) => html`<li>${resource.description}<br><span class="small mono">${resource.url}</span></li>`
    )
  ]
  return {
    status: 200,
    html: page({
      title: `Allow ${clientName}?`,
      body: html`<h1>Allow ${clientName}?</h1>
<p class="lead"><strong>${clientName}</strong>${homepage !== undefined && html` (<a href="${homepage}" rel="noopener noreferrer">${new URL(homepage).host}</a>)`} wants to use your ${productName} account.</p>
<p class="signed-in">Signed in as <strong>${accountEmail}</strong></p>
${
  abilities.length > 0 &&
  html`<h2>It will be able to</h2>
<ul class="list">${abilities}</ul>`
}
<div class="box">
<p>Where it will send you: ${destinationOf(redirectUri)}</p>
<p class="small mono">${redirectUri}</p>
</div>
<p class="small">Allow only an app you trust and have just asked to sign in.</p>
<form method="post" action="${action}">
<input type="hidden" name="csrf" value="${csrfToken}">
<div class="actions pair">
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
<hr>
<p class="small">${productName} remembers your choice for ${clientName}, so it will not ask again while you stay signed in. ${
        signOutUrl === undefined
          ? html`To sign out, use the sign-out option in ${clientName}, or ask the marketplace operator.`
          : html`Not you, or finished? <a href="${signOutUrl}">Sign out</a>.`
      }</p>`
    })
  }
}

// ---------------------------------------------------------------------------------------------
// Choosing a password (invitation and reset links)

export interface ChoosePasswordPageInput {
  /** Where the form posts. */
  readonly action: string
  /** The one-time link's token, posted back with the form. */
  readonly token: string
  /** The account's email: shown, and given to password managers to save the password under. */
  readonly email: string
  /** An invitation (first password) or a reset (a new one). */
  readonly purpose: "invite" | "reset"
  /** Why the last attempt was refused ("The two passwords do not match."). */
  readonly error?: string | undefined
}

/** The form to choose a password from an invitation or reset link: 200, or 422 with an error. */
export const choosePasswordPage = ({ action, token, email, purpose, error }: ChoosePasswordPageInput): RenderedPage => {
  const title = purpose === "invite" ? "Choose your password" : "Choose a new password"
  const failed = error !== undefined
  return {
    status: failed ? 422 : 200,
    html: page({
      title,
      body: html`<h1>${title}</h1>
<p class="lead">For <strong>${email}</strong>. ${
        purpose === "invite"
          ? "You will sign in with this email and password."
          : "Your old password stops working once you save this one."
      }</p>
${formAlert(error)}
<form method="post" action="${action}">
<input type="hidden" name="token" value="${token}">
<input type="text" name="username" autocomplete="username" value="${email}" readonly hidden>
<div class="field">
<label for="password">Password</label>
<p class="hint" id="password-rule">At least ${minimumPasswordLength} characters.</p>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${minimumPasswordLength}" required${describedBy("password-rule", failed && alertId)}${failed && html` aria-invalid="true" autofocus`}>
</div>
<div class="field">
<label for="confirm">Confirm password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${minimumPasswordLength}" required${describedBy("password-rule", failed && alertId)}${failed && html` aria-invalid="true"`}>
</div>
<div class="actions"><button type="submit" class="primary">Save password</button></div>
</form>`
    })
  }
}

export interface PasswordChosenPageInput {
  readonly email: string
  /** The participant console's address, where the page leads. */
  readonly consoleUrl: string
  /** The docs' authentication section, linked when given (e.g. `<base>/docs#authentication`). */
  readonly docsUrl?: string | undefined
}

/** After a password is saved: 200. */
export const passwordChosenPage = ({ email, consoleUrl, docsUrl }: PasswordChosenPageInput): RenderedPage => ({
  status: 200,
  html: page({
    title: "Your password is saved",
    body: html`<h1>Your password is saved</h1>
<p>You can now sign in as <strong>${email}</strong>: in your console, where your offers and tasks are, or from your assistant or app.</p>
${docsUrl !== undefined && html`<p class="small"><a href="${docsUrl}">How signing in works</a>.</p>`}
<div class="actions"><a class="button primary" href="${consoleUrl}">Open your console</a></div>`
  })
})

// ---------------------------------------------------------------------------------------------
// A one-time link that cannot be used

export type LinkProblem = "unknown" | "used" | "replaced" | "expired"

const linkProblems: Record<LinkProblem, { readonly status: number; readonly title: string; readonly body: Html }> = {
  unknown: {
    status: 404,
    title: "This link does not work",
    body: html`<p>We could not find this link. It may have been copied only in part.</p>
<p>Open the whole link from your message again, or ask the marketplace operator for a new one.</p>`
  },
  used: {
    status: 410,
    title: "This link has already been used",
    body: html`<p>Each link works once, and this one has been used to choose a password.</p>
<p>If you chose your password, sign in with it. If you did not, ask the marketplace operator for a new link.</p>`
  },
  replaced: {
    status: 410,
    title: "A newer link replaced this one",
    body: html`<p>You were sent a newer link to choose your password, and only the newest one works.</p>
<p>Open the link from your most recent message, or ask the marketplace operator for a new one.</p>`
  },
  expired: {
    status: 410,
    title: "This link has expired",
    body: html`<p>Links to choose a password stop working after a while, to keep your account safe.</p>
<p>Ask the marketplace operator for a new link.</p>`
  }
}

export interface LinkProblemPageInput {
  readonly reason: LinkProblem
  /** The participant console's address: a person whose password is chosen signs in there. */
  readonly consoleUrl: string
}

/** An invitation or reset link that is unknown (404), already used, replaced or expired (410). */
export const linkProblemPage = ({ reason, consoleUrl }: LinkProblemPageInput): RenderedPage => {
  const problem = linkProblems[reason]
  return {
    status: problem.status,
    html: page({
      title: problem.title,
      body: html`<h1>${problem.title}</h1>
${problem.body}
<div class="actions"><a class="button${reason === "used" ? " primary" : ""}" href="${consoleUrl}">Go to your console</a></div>`
    })
  }
}

// ---------------------------------------------------------------------------------------------
// Signing out

/** The id of oidc-provider's sign-out form (its `logoutSource` hands over the form with this id). */
export const logoutFormId = "op.logoutForm"

export interface SignOutPageInput {
  /**
   * oidc-provider's hidden form (`<form id="op.logoutForm" method="post" action="…"><input
   * type="hidden" name="xsrf" value="…"/></form>`), inserted as it is: trusted library markup.
   */
  readonly formHtml: string
  /** The app that asked to sign the person out, when known. */
  readonly clientName?: string | undefined
}

/**
 * Sends oidc-provider's sign-out form at once, as if its Sign out button was pressed: the page a
 * person gets who chose "Sign out" in the console (`signingOutPage`).
 */
export const signOutScript = `document.getElementById(${JSON.stringify(logoutFormId)}).requestSubmit(document.getElementById("sign-out"))`
/** The Content-Security-Policy hash of `signOutScript`, the one inline script of `signingOutPage`. */
export const signOutScriptHash = sourceHash(signOutScript)

/**
 * Signing out a person who already chose to, in the console (a first-party client whose own
 * sign-out is a checked form): no second question. The form is sent by `signOutScript`; without
 * scripts, its one button (no "Stay signed in") does it: 200.
 */
export const signingOutPage = ({ formHtml }: { readonly formHtml: string }): RenderedPage => ({
  status: 200,
  html: page({
    title: "Signing out",
    body: html`<h1>Signing out</h1>
<p class="lead">Signing you out of ${productName} on this device. If nothing happens, press Sign out.</p>
${rawHtml(formHtml)}
<div class="actions">
<button type="submit" form="${logoutFormId}" name="logout" value="yes" class="primary" id="sign-out">Sign out</button>
</div>
<script>${rawHtml(signOutScript)}</script>`
  })
})

/** The question before signing out, its buttons attached to oidc-provider's form: 200. */
export const signOutPage = ({ formHtml, clientName }: SignOutPageInput): RenderedPage => ({
  status: 200,
  html: page({
    title: "Sign out",
    body: html`<h1>Sign out</h1>
<p class="lead">${clientName === undefined ? "" : html`<strong>${clientName}</strong> asked to sign you out. `}Sign out of ${productName} on this device?</p>
${rawHtml(formHtml)}
<div class="actions pair">
<button type="submit" form="${logoutFormId}" name="logout" value="yes" class="primary">Sign out</button>
<button type="submit" form="${logoutFormId}">Stay signed in</button>
</div>`
  })
})

/** After signing out: 200. */
export const signedOutPage = ({ clientName }: { readonly clientName?: string | undefined } = {}): RenderedPage => ({
  status: 200,
  html: page({
    title: "You are signed out",
    body: html`<h1>You are signed out</h1>
<p>You are no longer signed in to ${productName} on this device.</p>
<p class="small">${clientName === undefined ? "You can close this page." : html`You can close this page and go back to <strong>${clientName}</strong>.`}</p>`
  })
})

// ---------------------------------------------------------------------------------------------
// Errors

export interface ErrorPageInput {
  readonly status: number
  readonly title: string
  /** What happened, in a sentence or two. Never a stack trace or an internal message. */
  readonly message: string
  /** What the person can do now. */
  readonly hint?: string | undefined
}

/** The words of every error a person can meet here; pass one to `errorPage`, overriding what fits. */
export const errorPages = {
  signInExpired: {
    status: 400,
    title: "This sign-in has expired",
    message: "Signing in has to be finished within a short time, and this attempt ran out or was already finished.",
    hint: "Go back to your assistant or app and start signing in again."
  },
  unknownClient: {
    status: 400,
    title: "This app is not known here",
    message: `The app that sent you here is not registered with ${productName}, so it cannot sign you in. Nothing was shared.`,
    hint: "Tell the app's developer, or ask the marketplace operator."
  },
  unregisteredRedirect: {
    status: 400,
    title: "This app's return address is not allowed",
    message:
      "The app asked to send you back to an address it has not registered, so we stopped here. Nothing was shared.",
    hint: "Start again from your assistant or app. If this happens again, tell the app's developer."
  },
  invalidRequest: {
    status: 400,
    title: "This sign-in request cannot be used",
    message: `The app sent a request ${productName} cannot handle. Nothing was shared.`,
    hint: "Start again from your assistant or app. If this happens again, tell the app's developer."
  },
  notFound: {
    status: 404,
    title: "Page not found",
    message: "There is nothing at this address.",
    hint: "Check the link, or start again from your assistant or app."
  },
  tooManyRequests: {
    status: 429,
    title: "Too many requests",
    message: "There were too many requests from here in a short time.",
    hint: "Wait a few minutes, then try again."
  },
  serverError: {
    status: 500,
    title: "Something went wrong on our side",
    message: `${productName} could not finish this. It is not caused by anything you did.`,
    hint: "Try again in a few minutes. If it keeps happening, tell the marketplace operator."
  }
} as const satisfies Record<string, ErrorPageInput>

/** An error, in words for a person, with its status code in small print: sent with that status. */
export const errorPage = ({ status, title, message, hint }: ErrorPageInput): RenderedPage => ({
  status,
  html: page({
    title,
    body: html`<h1>${title}</h1>
<p>${message}</p>
${hint !== undefined && html`<p>${hint}</p>`}
<p class="small status">Error ${status}</p>`
  })
})
