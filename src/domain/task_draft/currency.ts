/**
 * The budget rule: a budget is free text, and a warning says when it lacks an amount or a currency.
 * A currency is any ISO 4217 code in capitals (USD), a common code in any case (usd), a currency
 * symbol (Unicode Sc: $ € £ ¥ ₹ …) or a currency word (dollars, euros …). Lower-case three-letter
 * words are not all treated as codes because many are English words (all, top, try, pen, mad …).
 */
import { matchesOf, show } from "./text.ts"

const isoCurrencies: ReadonlySet<string> = new Set(
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : []
)
const commonCurrencyCodes: ReadonlySet<string> = new Set([
  "usd",
  "eur",
  "gbp",
  "jpy",
  "chf",
  "cad",
  "aud",
  "nzd",
  "cny",
  "inr",
  "sek",
  "nok",
  "dkk",
  "pln",
  "czk",
  "huf",
  "brl",
  "mxn",
  "zar",
  "sgd",
  "hkd",
  "krw"
])
const currencySymbol = /\p{Sc}/u
const currencyWord =
  /(?<![a-z])(?:dollars?|euros?|pounds?|sterling|yen|yuan|renminbi|rupees?|francs?|kron(?:a|e|or|er)|pesos?|reais|rand|won|r(?:o)?ubles?|lira|lire|zlot(?:y|ys|ych)|shekels?|dirhams?|baht|ringgit|rupiah|naira|dong)(?![a-z])/i

const letterTriples = /(?<![A-Za-z])[A-Za-z]{3}(?![A-Za-z])/g

const hasCurrency = (s: string): boolean => {
  if (currencySymbol.test(s) || currencyWord.test(s)) return true
  for (const [token] of matchesOf(letterTriples, s, Number.POSITIVE_INFINITY)) {
    if ((token === token.toUpperCase() && isoCurrencies.has(token)) || commonCurrencyCodes.has(token.toLowerCase())) {
      return true
    }
  }
  return false
}

/** The `ambiguous` warning for a budget without an amount or a currency; `undefined` when it has both. */
export const budgetAmbiguity = (s: string): string | undefined => {
  const amount = /\d/.test(s)
  const currency = hasCurrency(s)
  if (amount && currency) return undefined
  const missing = !amount && !currency ? "amount or currency" : !amount ? "amount" : "currency"
  return `budget ${show(s)} has no recognisable ${missing}; write an amount with a currency, e.g. "USD 250" or "€40".`
}
