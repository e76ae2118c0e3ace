// The authorization server's pages as markup: the status each is sent with, one h1, and the form
// fields a browser and a password manager rely on. How they look and behave in a browser:
// test/browser/oauth_pages.test.ts.
import { describe, expect, it } from "@effect/vitest"
import {
  choosePasswordPage,
  consentPage,
  errorPage,
  errorPages,
  linkProblemPage,
  passwordChosenPage,
  signedOutPage,
  signInPage,
  signOutPage,
  signUpPage
} from "../../src/oauth/pages.ts"

const signIn = { action: "/oauth/interaction/abc/login", csrfToken: "csrf-1", clientName: "Claude" }
const consent = {
  action: "/oauth/interaction/abc/consent",
  csrfToken: "csrf-2",
  clientName: "Claude",
  redirectUri: "https://claude.ai/api/mcp/auth_callback",
  scopes: ["openid", "email"],
  resources: [],
  accountEmail: "ada@example.com"
}
const signUp = {
  action: "/oauth/interaction/abc/sign-up",
  csrfToken: "csrf-3",
  clientName: "Claude",
  signInUrl: "/oauth/interaction/abc"
}
const choose = { action: "/oauth/links/tok", token: "tok", email: "ada@example.com", purpose: "invite" as const }

const markupOf = (rendered: { readonly html: unknown }) => String(rendered.html)
const h1Of = (markup: string) => [...markup.matchAll(/<h1>([\s\S]*?)<\/h1>/g)].map((match) => match[1])

describe("the status each page is sent with", () => {
  it("200 for the forms and confirmations, 422 for a form sent back with an error", () => {
    expect(signInPage(signIn).status).toBe(200)
    expect(signInPage({ ...signIn, error: "That email and password do not match." }).status).toBe(422)
    expect(consentPage(consent).status).toBe(200)
    expect(choosePasswordPage(choose).status).toBe(200)
    expect(choosePasswordPage({ ...choose, error: "The two passwords do not match." }).status).toBe(422)
    expect(signUpPage(signUp).status).toBe(200)
    expect(signUpPage({ ...signUp, problems: { name: "Enter your name." } }).status).toBe(422)
    expect(signUpPage({ ...signUp, error: "Too many accounts were created from here lately." }).status).toBe(422)
    expect(passwordChosenPage({ email: "ada@example.com", consoleUrl: "/console" }).status).toBe(200)
    expect(signOutPage({ formHtml: '<form id="op.logoutForm"></form>' }).status).toBe(200)
    expect(signedOutPage().status).toBe(200)
  })

  it("404 for an unknown link, 410 for a used or expired one", () => {
    expect(linkProblemPage({ reason: "unknown", consoleUrl: "/console" }).status).toBe(404)
    expect(linkProblemPage({ reason: "used", consoleUrl: "/console" }).status).toBe(410)
    expect(linkProblemPage({ reason: "expired", consoleUrl: "/console" }).status).toBe(410)
  })

  it("an error page's own status, shown in small print", () => {
    for (const error of Object.values(errorPages)) {
      const rendered = errorPage(error)
      expect(rendered.status).toBe(error.status)
      expect(markupOf(rendered)).toContain(`<p class="small status">Error ${error.status}</p>`)
    }
  })
})

describe("every page", () => {
  const pages = {
    signIn: signInPage({ ...signIn, error: "x" }),
    signUp: signUpPage({ ...signUp, problems: { email: "x" } }),
    consent: consentPage(consent),
    choosePassword: choosePasswordPage(choose),
    passwordChosen: passwordChosenPage({ email: "ada@example.com", consoleUrl: "/console" }),
    linkProblem: linkProblemPage({ reason: "expired", consoleUrl: "/console" }),
    signOut: signOutPage({ formHtml: '<form id="op.logoutForm"></form>' }),
    signedOut: signedOutPage(),
    error: errorPage(errorPages.serverError)
  }
  for (const [name, rendered] of Object.entries(pages))
    it(`${name}: one h1, English, no script`, () => {
      const markup = markupOf(rendered)
      expect(h1Of(markup)).toHaveLength(1)
      expect(markup).toContain('<html lang="en">')
      expect(markup).not.toContain("<script")
    })

  it("titles its h1 as the page says", () => {
    expect(h1Of(markupOf(signInPage(signIn)))).toEqual(["Sign in"])
    expect(h1Of(markupOf(signUpPage(signUp)))).toEqual(["Create an account"])
    expect(h1Of(markupOf(consentPage({ ...consent, clientName: "A & B" })))).toEqual(["Allow A &amp; B?"])
    expect(h1Of(markupOf(choosePasswordPage(choose)))).toEqual(["Choose your password"])
    expect(h1Of(markupOf(choosePasswordPage({ ...choose, purpose: "reset" })))).toEqual(["Choose a new password"])
    expect(h1Of(markupOf(passwordChosenPage({ email: "a@example.com", consoleUrl: "/console" })))).toEqual([
      "Your password is saved"
    ])
    expect(h1Of(markupOf(signedOutPage()))).toEqual(["You are signed out"])
  })
})

describe("the forms", () => {
  it("sign-in: email kept after an error, both fields described by the error, the csrf token hidden", () => {
    const markup = markupOf(signInPage({ ...signIn, email: "ada@example.com", error: "Too many attempts." }))
    expect(markup).toContain('<div class="alert" role="alert" id="form-error">Too many attempts.</div>')
    expect(markup).toMatch(
      /<input id="email" name="email" type="email" autocomplete="username" [^>]*required value="ada@example\.com" aria-describedby="form-error">/
    )
    expect(markup).toMatch(
      /<input id="password" name="password" type="password" autocomplete="current-password" required aria-describedby="form-error" autofocus>/
    )
    expect(markup).toContain('<input type="hidden" name="csrf" value="csrf-1">')
    expect(markup).toContain('<form method="post" action="/oauth/interaction/abc/login">')
    expect(markup).toContain("Forgot your password? Ask the marketplace operator for a new link.")
  })

  it("sign-in without an error: no alert, nothing described, nothing focused", () => {
    const markup = markupOf(signInPage(signIn))
    expect(markup).not.toMatch(/role="alert"|aria-describedby|autofocus/)
    expect(markup).toContain('value=""')
  })

  it("sign-in after a sign-up: its notice, escaped, announced politely; still a 200 form with no alert", () => {
    const rendered = signInPage({ ...signIn, email: "ada@example.com", notice: "Thank you <for> signing up." })
    expect(rendered.status).toBe(200)
    const markup = markupOf(rendered)
    expect(markup).toContain('<p class="notice" role="status">Thank you &lt;for&gt; signing up.</p>')
    expect(markup).not.toMatch(/role="alert"/)
    // The address is kept: the password is what is left to type.
    expect(markup).toMatch(/<input id="password" [^>]*required autofocus>/)
    expect(markupOf(signInPage(signIn))).not.toContain('role="status"')
  })

  it("sign-in links to the sign-up page only when one is given (PARTICIPANT_SIGNUP=open)", () => {
    expect(markupOf(signInPage(signIn))).not.toContain("Create an account")
    expect(markupOf(signInPage({ ...signIn, signUpUrl: "/oauth/interaction/abc/sign-up" }))).toContain(
      '<p>New to Task Marketplace? <a href="/oauth/interaction/abc/sign-up">Create an account</a></p>'
    )
  })

  it("sign-up: new-password fields of at least 12, the csrf token hidden, no password ever written back", () => {
    const markup = markupOf(
      signUpPage({
        ...signUp,
        values: { email: "ada@example.com", name: 'Ada "<b>" Lovelace', task_type: "physical", capabilities: "a\nb" },
        problems: { confirm: "The two passwords do not match." }
      })
    )
    expect(markup).toContain('<form method="post" action="/oauth/interaction/abc/sign-up">')
    expect(markup).toContain('<input type="hidden" name="csrf" value="csrf-3">')
    expect(markup).toMatch(
      /<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required aria-describedby="password-hint">/
    )
    expect(markup).toMatch(
      /<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="12" required aria-describedby="confirm-error" aria-invalid="true" autofocus>/
    )
    expect(markup).toContain('value="Ada &quot;&lt;b&gt;&quot; Lovelace"')
    expect(markup).toContain('<option value="physical" selected>On site (physical)</option>')
    expect(markup).toMatch(/<textarea id="capabilities" [^>]*>a\nb<\/textarea>/)
    expect(markup).toContain('<a href="/oauth/interaction/abc">Sign in</a>')
  })

  it("consent: Allow and Deny in one form, the destination's host and full URI, who is signed in", () => {
    const markup = markupOf(
      consentPage({ ...consent, clientUri: "https://claude.ai", signOutUrl: "https://tm.example/oauth/session/end" })
    )
    expect(markup.match(/<form /g)).toHaveLength(1)
    expect(markup).toContain('<button type="submit" name="decision" value="allow" class="primary">Allow</button>')
    expect(markup).toContain('<button type="submit" name="decision" value="deny">Deny</button>')
    expect(markup).toContain('<input type="hidden" name="csrf" value="csrf-2">')
    expect(markup).toContain("Where it will send you: <strong>claude.ai</strong>")
    expect(markup).toContain('<p class="small mono">https://claude.ai/api/mcp/auth_callback</p>')
    expect(markup).toContain("Signed in as <strong>ada@example.com</strong>")
    expect(markup).toContain("<li>Confirm who you are</li><li>See your email address</li>")
    expect(markup).toContain('<a href="https://tm.example/oauth/session/end">Sign out</a>')
  })

  it("consent: a loopback or custom-scheme redirect is named for what it is", () => {
    expect(markupOf(consentPage({ ...consent, redirectUri: "http://127.0.0.1:53211/callback" }))).toContain(
      "Where it will send you: <strong>an app on this device</strong> (127.0.0.1:53211)"
    )
    expect(markupOf(consentPage({ ...consent, redirectUri: "com.example.app:/oauth2redirect" }))).toContain(
      "Where it will send you: <strong>the app that opens com.example.app links</strong>"
    )
  })

  it("choose password: new-password fields of at least 12, the rule as their description, the email for password managers", () => {
    const markup = markupOf(choosePasswordPage({ ...choose, error: "The two passwords do not match." }))
    expect(markup).toContain('<input type="hidden" name="token" value="tok">')
    expect(markup).toContain(
      '<input type="text" name="username" autocomplete="username" value="ada@example.com" readonly hidden>'
    )
    expect(markup).toContain('<p class="hint" id="password-rule">At least 12 characters.</p>')
    for (const id of ["password", "confirm"])
      expect(markup).toMatch(
        new RegExp(
          `<input id="${id}" name="${id}" type="password" autocomplete="new-password" minlength="12" required aria-describedby="password-rule form-error" aria-invalid="true"`
        )
      )
    expect(markup).toContain('<button type="submit" class="primary">Save password</button>')
  })

  it("sign out: oidc-provider's form as it is, with Sign out (logout=yes) and Stay signed in attached to it", () => {
    const formHtml = `<form id="op.logoutForm" method="post" action="/oauth/session/end/confirm"><input type="hidden" name="xsrf" value="x1"/></form>`
    const markup = markupOf(signOutPage({ formHtml, clientName: "Claude" }))
    expect(markup).toContain(formHtml)
    expect(markup).toContain(
      '<button type="submit" form="op.logoutForm" name="logout" value="yes" class="primary">Sign out</button>'
    )
    expect(markup).toContain('<button type="submit" form="op.logoutForm">Stay signed in</button>')
  })
})
