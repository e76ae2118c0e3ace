/**
 * Clock times named in a text, read for boundaries ("No deliveries after 22:00" against a task asked
 * for 23:00: src/domain/matching_rules.ts). Pure.
 */

/**
 * The clock times a folded text names, in minutes after midnight: "23:00", "11 pm", "11:30pm",
 * "23h", "23h30", "23 uhr", "midnight" (24:00, the end of a day). A bare number is no time ("40
 * photos", "24-hour turnaround"); neither is "5.00", a price as often as a time.
 */
export const clockTimesOf = (folded: string): ReadonlyArray<number> => {
  const times: Array<number> = []
  for (const { groups } of folded.matchAll(clockTime)) {
    if (groups === undefined) continue
    if (groups.midnight !== undefined) {
      times.push(24 * 60)
      continue
    }
    let hours = Number(groups.h ?? groups.hh ?? groups.hhh)
    const minutes = Number(groups.m ?? groups.mm ?? groups.mmm ?? 0)
    const half = groups.half?.replaceAll(".", "")
    if (half === "pm" && hours < 12) hours += 12
    if (half === "am" && hours === 12) hours = 0
    // "24h" is a day's turnaround, not a time.
    if (hours > 23 || minutes > 59) continue
    times.push(hours * 60 + minutes)
  }
  return times
}
const clockTime =
  /\b(?<h>\d{1,2})(?::(?<m>\d{2}))?\s*(?<half>[ap]\.?m\b\.?)|\b(?<hh>\d{1,2})(?:h(?<mm>\d{2})?|\s*uhr)\b|\b(?<hhh>\d{1,2}):(?<mmm>\d{2})\b|\b(?<midnight>midnight|minuit|medianoche|mezzanotte|mitternacht)\b/g
