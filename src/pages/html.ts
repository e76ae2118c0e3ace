/**
 * HTML escaped by construction: the `html` tagged template escapes every value it interpolates
 * unless that value is itself `Html` (made by `html` or, for a trusted library's markup, `rawHtml`).
 * A page is written as one template, so no string reaches the markup without passing through here.
 *
 * The escaping makes a value safe as element text and inside a quoted attribute value (either
 * quote, so templates must quote every attribute). It does not make a string a safe URL: an
 * `href` taking data from outside goes through `webUrlOf` first.
 */

/** Markup that is safe to send: a class with a private field, so nothing else has its shape. */
class Markup {
  readonly #markup: string
  constructor(markup: string) {
    this.#markup = markup
  }
  toString(): string {
    return this.#markup
  }
}

/** A piece of markup: made only by `html` (escaping what it interpolates) or `rawHtml`. */
export type Html = Markup

/**
 * What a template may interpolate: text and numbers (escaped), markup, lists of either (joined with
 * nothing between), and `undefined`, `null` or `false` for nothing (so `cond && html\`…\`` works).
 */
export type Interpolation = Html | string | number | false | null | undefined | ReadonlyArray<Interpolation>

export const isHtml = (value: unknown): value is Html => value instanceof Markup

// Backtick too: old Internet Explorer took it as an attribute quote, and escaping it costs nothing.
const entities: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;"
}
const special = /[&<>"'`]/g

/** Text as markup that shows that text: `& < > " ' \`` become character references. */
export const escapeHtml = (text: string): string => text.replace(special, (c) => entities[c]!)

const render = (value: Interpolation | true): string => {
  if (value === undefined || value === null || value === false) return ""
  if (value instanceof Markup) return value.toString()
  if (Array.isArray(value)) return value.map(render).join("")
  // `true` is not in the type (it would show "true" where `cond && …` meant nothing); at run time it
  // is text like any other.
  return escapeHtml(String(value))
}

/** The tagged template: the literal parts are markup, every interpolated value is escaped. */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Interpolation>): Html => {
  let markup = strings[0]!
  for (let i = 0; i < values.length; i++) markup += render(values[i]) + strings[i + 1]!
  return new Markup(markup)
}

/**
 * Markup taken as it is, unescaped. Only for markup produced by a trusted library (oidc-provider's
 * sign-out form) or a constant of our own (the stylesheet) — never for anything a person, a client
 * registration or a request could have written.
 */
export const rawHtml = (trusted: string): Html => new Markup(trusted)

/**
 * A URL fit for an `href` from outside data (a client's homepage): an absolute http(s) URL,
 * normalised, or undefined — never `javascript:`, `data:` or anything a browser would run.
 */
export const webUrlOf = (candidate: string | undefined): string | undefined => {
  if (candidate === undefined || !URL.canParse(candidate)) return undefined
  const url = new URL(candidate)
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined
}
