/** "Did you mean": the known member an unknown body member most likely stands for (aliases, then edit distance). */
import { type DraftMember, draftMembers } from "./fields.ts"

// Names agents plausibly send for a member, keyed in normalised (snake_case, lower-case) form.
const aliases: ReadonlyArray<readonly [string, DraftMember]> = [
  ["deadline", "timing"],
  ["due", "timing"],
  ["due_date", "timing"],
  ["due_by", "timing"],
  ["schedule", "timing"],
  ["window", "timing"],
  ["mode", "execution_mode"],
  ["execution", "execution_mode"],
  ["title", "action"],
  ["task", "action"],
  ["description", "action"],
  ["instructions", "action"],
  ["result", "expected_result"],
  ["deliverable", "expected_result"],
  ["deliverables", "expected_result"],
  ["expected_output", "expected_result"],
  ["acceptance", "acceptance_test"],
  ["acceptance_criteria", "acceptance_test"],
  ["success_criteria", "acceptance_test"],
  ["address", "location"],
  ["place", "location"],
  ["slug", "participant_slug"],
  ["participant", "participant_slug"],
  ["email", "contact_email"],
  ["contact", "contact_email"],
  ["price", "budget"],
  ["reward", "budget"],
  ["payment", "budget"],
  ["compensation", "budget"],
  ["user_agent", "agent"],
  ["requester", "principal"],
  ["on_behalf_of", "principal"],
  ["restrictions", "constraints"],
  ["webhook", "webhook_url"],
  ["callback_url", "webhook_url"],
  ["callback", "webhook_url"],
  ["notify_url", "webhook_url"]
]

const suggestionCandidates: ReadonlyArray<readonly [string, DraftMember]> = [
  ...draftMembers.map((m) => [m, m] as const),
  ...aliases
]

/** Optimal string alignment distance, abandoning once every cell of a row exceeds `limit`. */
const editDistance = (a: string, b: string, limit: number): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let prevPrev: Array<number> = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prevPrev[j - 2]! + 1)
      row.push(v)
      best = Math.min(best, v)
    }
    if (best > limit) return limit + 1
    prevPrev = prev
    prev = row
  }
  return prev[b.length]!
}

/** The known member an unknown member name most likely meant, if any is close enough. */
export const suggest = (key: string): DraftMember | undefined => {
  // Only short keys: keeps the quadratic distance computation trivially cheap.
  if (key.length > 64) return undefined
  const normalised = key
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[\s-]+/g, "_")
  let best: DraftMember | undefined
  let bestDistance = 3
  for (const [candidate, member] of suggestionCandidates) {
    if (candidate === normalised) return member
    if (normalised.length < 4) continue
    const d = editDistance(normalised, candidate, 2)
    if (d < bestDistance) {
      best = member
      bestDistance = d
    }
  }
  return best
}
