/** The contact_email rule. */

// Deliberately simple: one @, a non-empty local part, a dotted domain with non-empty labels, no
// whitespace and none of the characters that reveal a display-name form ("Jane <jane@x.org>").
const forbiddenEmailChars = /[\s<>()[\]\\,;:"]/
/** Whether `s` reads as a plain email address (what contact_email accepts). */
export const isEmail = (s: string): boolean => {
  const at = s.indexOf("@")
  if (at <= 0 || at !== s.lastIndexOf("@") || forbiddenEmailChars.test(s)) return false
  const labels = s.slice(at + 1).split(".")
  return labels.length >= 2 && labels.every((l) => l.length > 0) && labels[labels.length - 1]!.length >= 2
}
