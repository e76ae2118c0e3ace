/**
 * The page kit's frame: the whole document around a page's body (one small inline stylesheet,
 * system fonts, light and dark), and the headers every page is sent with. Pages carry no script at
 * all and work without JavaScript; the Content-Security-Policy lets nothing load but that one
 * stylesheet (by its hash) and same-origin or inline images.
 */
import { createHash } from "node:crypto"
import { type Html, html, rawHtml } from "./html.ts"

export const productName = "Task Marketplace"

/**
 * The stylesheet of every page. Phone first: one column, fields and buttons 48 px high, text 16 px
 * (below that a phone's browser zooms into a focused field); wider screens get a centred card.
 * No style attributes anywhere: the policy allows this sheet by its hash and nothing else.
 */
export const stylesheet = `
:root {
  color-scheme: light dark;
  --bg: #f3f4f6; --card: #ffffff; --text: #1f2328; --muted: #59636e; --border: #d1d9e0;
  --field: #ffffff; --field-border: #818b98; --accent: #0b5cad; --accent-hover: #094a8c; --on-accent: #ffffff;
  --focus: #0969da; --alert-bg: #ffebe9; --alert-border: #cf222e; --alert-text: #82071e;
  --soft: #f6f8fa;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --card: #161b22; --text: #e6edf3; --muted: #9ea8b3; --border: #30363d;
    --field: #0d1117; --field-border: #6e7781; --accent: #58a6ff; --accent-hover: #79b8ff; --on-accent: #0d1117;
    --focus: #79b8ff; --alert-bg: #2d1214; --alert-border: #f85149; --alert-text: #ffb1a8;
    --soft: #1c2129;
  }
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  overflow-wrap: anywhere;
}
.shell { max-width: 30rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
.brand { display: flex; align-items: center; gap: 0.5rem; margin: 0 0 1rem; font-weight: 600; color: var(--muted); }
.brand svg { flex: none; }
main { background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 1.5rem 1.25rem; }
main > :last-child { margin-bottom: 0; }
@media (min-width: 40rem) { .shell { padding-top: 3rem; } main { padding: 2rem; } }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 0.5rem; }
h2 { font-size: 1rem; margin: 1.5rem 0 0.5rem; }
p { margin: 0 0 1rem; }
a { color: var(--accent); text-underline-offset: 0.15em; }
.lead { color: var(--muted); margin-bottom: 1.5rem; }
.small { font-size: 0.875rem; color: var(--muted); }
.status { margin: 1rem 0 0; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.8125rem; }
.field { margin: 0 0 1.25rem; }
label { display: block; font-weight: 600; margin: 0 0 0.375rem; }
input:not([type="hidden"]), select, textarea {
  display: block; width: 100%; min-height: 48px; margin: 0; padding: 0.625rem 0.75rem;
  font: inherit; color: inherit; background: var(--field);
  border: 1px solid var(--field-border); border-radius: 8px;
}
textarea { min-height: 6rem; resize: vertical; }
input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"] { border-color: var(--alert-border); border-width: 2px; }
.hint { font-size: 0.875rem; color: var(--muted); margin: 0 0 0.5rem; }
.field-error { font-size: 0.875rem; font-weight: 600; color: var(--alert-border); margin: 0 0 0.5rem; }
.optional { font-weight: 400; color: var(--muted); }
.alert {
  margin: 0 0 1.25rem; padding: 0.75rem 1rem; border: 1px solid var(--alert-border); border-left-width: 4px;
  border-radius: 8px; background: var(--alert-bg); color: var(--alert-text); font-weight: 500;
}
.alert ul { margin: 0.5rem 0 0; padding-left: 1.25rem; }
.alert a { color: inherit; }
.actions { display: grid; gap: 0.75rem; margin: 1.5rem 0 0; }
@media (min-width: 30rem) { .actions.pair { grid-template-columns: 1fr 1fr; } }
button, a.button {
  display: block; width: 100%; min-height: 48px; margin: 0; padding: 0.75rem 1rem;
  font: inherit; font-weight: 600; border-radius: 8px; border: 1px solid var(--field-border);
  background: transparent; color: var(--text); cursor: pointer;
}
a.button { box-sizing: border-box; text-align: center; text-decoration: none; }
button.primary, a.button.primary { background: var(--accent); border-color: var(--accent); color: var(--on-accent); }
button.primary:hover, a.button.primary:hover { background: var(--accent-hover); border-color: var(--accent-hover); }
button:not(.primary):hover, a.button:not(.primary):hover { background: var(--soft); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.box { margin: 0 0 1rem; padding: 0.75rem 1rem; background: var(--soft); border: 1px solid var(--border); border-radius: 8px; }
.box p:last-child, .box ul:last-child { margin-bottom: 0; }
ul.list { margin: 0 0 1rem; padding: 0; list-style: none; }
ul.list li { position: relative; padding: 0.375rem 0 0.375rem 1.5rem; }
ul.list li::before { content: "\\2713"; position: absolute; left: 0; color: var(--accent); font-weight: 700; }
.signed-in { margin: 0 0 1rem; }
hr { border: 0; border-top: 1px solid var(--border); margin: 1.5rem 0 1rem; }
/* Console: a task's messages, the person's own to one side */
ol.messages { list-style: none; margin: 0 0 1rem; padding: 0; display: grid; gap: 0.5rem; }
ol.messages li { padding: 0.5rem 0.75rem; border-radius: 10px; border: 1px solid var(--border); max-width: 90%; }
ol.messages li.mine { justify-self: end; background: var(--soft); }
ol.messages li.theirs { justify-self: start; background: var(--card); }
ol.messages p { margin: 0; }
ol.messages p.body { white-space: pre-wrap; overflow-wrap: anywhere; }
/* Console: a wider frame, its navigation, task cards, the brief as a list of terms */
.shell.wide { max-width: 52rem; }
nav.console { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 1rem; margin: 0 0 1rem; }
nav.console a { display: inline-block; padding: 0.5rem 0.25rem; min-height: 44px; line-height: 28px; font-weight: 600; }
nav.console a[aria-current="page"] { color: var(--text); text-decoration: none; border-bottom: 3px solid var(--accent); }
nav.console form { margin: 0 0 0 auto; }
nav.console button { width: auto; min-height: 44px; padding: 0.5rem 0.875rem; }
.cards { list-style: none; margin: 0 0 1.5rem; padding: 0; display: grid; gap: 0.75rem; }
.card { border: 1px solid var(--border); border-radius: 10px; padding: 0.875rem 1rem; background: var(--card); }
.card h3 { font-size: 1.0625rem; margin: 0 0 0.25rem; }
.card p { margin: 0 0 0.375rem; }
.card :last-child { margin-bottom: 0; }
.badge { display: inline-block; font-size: 0.8125rem; font-weight: 600; padding: 0.125rem 0.5rem; border-radius: 999px; border: 1px solid var(--field-border); color: var(--text); background: var(--soft); }
.badge.attention { border-color: var(--alert-border); color: var(--alert-text); background: var(--alert-bg); }
dl.brief { margin: 0 0 1rem; display: grid; gap: 0.5rem; }
dl.brief dt { font-weight: 600; color: var(--muted); font-size: 0.875rem; }
dl.brief dd { margin: 0 0 0.25rem; white-space: pre-wrap; }
@media (min-width: 40rem) { dl.brief { grid-template-columns: 12rem 1fr; } dl.brief dd { margin: 0; } }
.notice { margin: 0 0 1.25rem; padding: 0.75rem 1rem; border: 1px solid var(--accent); border-left-width: 4px; border-radius: 8px; background: var(--soft); }
.live { margin: 0 0 1rem; }
input[type="file"] { padding: 0.5rem; }
ol.history { margin: 0 0 1rem; padding-left: 1.25rem; }
ol.history li { margin: 0 0 0.375rem; }
/* Result form controls */
textarea, select {
  display: block; width: 100%; min-height: 48px; margin: 0; padding: 0.625rem 0.75rem;
  font: inherit; color: inherit; background: var(--field);
  border: 1px solid var(--field-border); border-radius: 8px;
}
textarea { min-height: 6rem; resize: vertical; }
textarea.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
textarea[aria-invalid="true"], select[aria-invalid="true"] { border-color: var(--alert-border); border-width: 2px; }
fieldset { min-width: 0; margin: 0 0 1.25rem; padding: 0; border: 0; }
legend { display: block; float: left; width: 100%; padding: 0; margin: 0 0 0.375rem; font-weight: 600; }
legend + * { clear: left; }
fieldset.group { padding: 1rem 1rem 0; border: 1px solid var(--border); border-radius: 8px; }
fieldset.group > legend { margin-bottom: 0.75rem; }
.choice { display: flex; align-items: center; gap: 0.75rem; min-height: 48px; }
input[type="checkbox"], input[type="radio"] {
  display: block; flex: none; width: 1.5rem; height: 1.5rem; min-height: 0; margin: 0; padding: 0;
  accent-color: var(--accent); cursor: pointer;
}
.choice label { flex: 1; margin: 0; padding: 0.75rem 0; cursor: pointer; }
.choices .choice label { font-weight: 400; }
.req { font-weight: 400; color: var(--muted); }
.hint.prose { white-space: pre-line; }
.field-error { margin: 0 0 0.5rem; color: var(--alert-text); font-weight: 600; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; border: 0;
}
`

/** `'sha256-…'` of an inline script or stylesheet's text: a policy's source for it. */
export const sourceHash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`

/** The source hash of each inline script of `document`, ended as a browser's parser ends it (at `</script`). */
export const inlineScriptHashes = (document: string): Array<string> =>
  [...document.matchAll(/<script>([\s\S]*?)<\/script/gi)].map((match) => sourceHash(match[1]!))

/** `'sha256-…'` of the stylesheet, computed once: the policy's only style source. */
export const stylesheetHash = sourceHash(stylesheet)

// The mark beside the product name: inline SVG is markup, not a fetched image.
const mark = html`<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="1" y="1" width="22" height="22" rx="6" fill="currentColor" opacity="0.18"/><path d="M7 12.5l3.2 3.2L17 8.8" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>`

export interface PageOptions {
  /** The page's own title (the tab shows "<title> – Task Marketplace"). */
  readonly title: string
  /** What goes inside `<main>`: the page's one h1 and its content. */
  readonly body: Html
  /** Navigation between the page and its siblings (the console's), above `<main>`. */
  readonly nav?: Html
  /** A wider frame, for pages of lists rather than one short form. */
  readonly wide?: boolean
  /** Same-origin scripts the page loads (deferred); the page must work without them. */
  readonly scripts?: ReadonlyArray<string>
}

/** The whole document around a page's body. */
export const page = ({ title, body, nav, wide = false, scripts = [] }: PageOptions): Html => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${title} – ${productName}</title>
<link rel="icon" href="data:,">
<style>${rawHtml(stylesheet)}</style>
${scripts.map(
  (src) => html`<script src="${src}" defer></script>
`
)}</head>
<body>
<div class="${wide ? "shell wide" : "shell"}">
<header class="brand">${mark}<span>${productName}</span></header>
${nav}
<main>
${body}
</main>
</div>
</body>
</html>
`

export interface PageHeadersOptions {
  /**
   * Where the page's forms may lead, besides our own origin ('self', always allowed): origins or
   * URIs (each reduced to its origin; a custom scheme such as `com.example.app:/callback` to its
   * scheme). Chromium checks `form-action` not only against a form's own `action` but against every
   * redirect that follows the post: the sign-in and consent forms post to our origin, which then
   * redirects to the client's redirect URI (and the sign-out form to its post-logout redirect URI),
   * so those pages must name that URI's origin here or the browser stops at the redirect.
   */
  readonly formActionOrigins?: ReadonlyArray<string>
  /** Whether the page loads same-origin scripts and lets them fetch from its origin. */
  readonly scripts?: boolean
  /** The hashes (`sourceHash`) of the inline scripts the page runs: none of ours has one. */
  readonly scriptHashes?: ReadonlyArray<string>
}

// CSP's host-source and scheme-source, as narrow as origins need: a WHATWG URL's host may hold `;`
// or `,` (`https://a.example;script-src` parses), which in the header would start a new directive.
const hostSource = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[0-9]{1,5})?$/
const ipv6Origin = /^(https?:)\/\/\[[0-9a-f:.]+\](?::[0-9]{1,5})?$/
const schemeSource = /^[a-z][a-z0-9+.-]*:$/
const neverAllowed = new Set(["javascript:", "data:", "blob:", "file:", "filesystem:"])

/**
 * One `form-action` source for a URI or origin: an http(s) URI's origin, another scheme's scheme
 * (`com.example.app:` for a native app's redirect URI), or undefined for anything else — which is
 * left out rather than let into the header. An IPv6 literal (`http://[::1]:53211`, a loopback
 * redirect URI) becomes its scheme: Chromium ignores such a host as an invalid source, and would
 * then stop the redirect to it.
 */
export const formActionSourceOf = (uriOrOrigin: string): string | undefined => {
  if (!URL.canParse(uriOrOrigin)) return undefined
  const url = new URL(uriOrOrigin)
  if (url.protocol === "https:" || url.protocol === "http:") {
    if (hostSource.test(url.origin)) return url.origin
    return ipv6Origin.test(url.origin) ? url.protocol : undefined
  }
  return schemeSource.test(url.protocol) && !neverAllowed.has(url.protocol) ? url.protocol : undefined
}

/** The Content-Security-Policy of a page whose forms may lead to `formActionOrigins`. */
export const contentSecurityPolicy = ({
  formActionOrigins = [],
  scripts = false,
  scriptHashes = []
}: PageHeadersOptions = {}): string => {
  const sources = new Set(["'self'"])
  for (const origin of formActionOrigins) {
    const source = formActionSourceOf(origin)
    if (source !== undefined) sources.add(source)
  }
  return [
    "default-src 'none'",
    `style-src ${stylesheetHash}`,
    "img-src 'self' data:",
    ...(scripts || scriptHashes.length > 0
      ? [`script-src ${[...(scripts ? ["'self'"] : []), ...scriptHashes].join(" ")}`]
      : []),
    ...(scripts ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action ${[...sources].join(" ")}`
  ].join("; ")
}

/** Every page's media type: the charset said, so that no browser guesses it from the bytes. */
export const htmlContentType = "text/html; charset=utf-8"

/** The headers every page is sent with (names in lower case). */
export const pageHeaders = (options: PageHeadersOptions = {}): Record<string, string> => ({
  "content-type": htmlContentType,
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy": contentSecurityPolicy(options)
})
