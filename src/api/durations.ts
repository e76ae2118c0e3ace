/**
 * Durations and sizes in words, for the prose the service serves (the API description, the docs
 * page): the numbers come from the settings, the words from here.
 */

const units = [
  { ms: 86_400_000, short: "d", one: "day", many: "days" },
  { ms: 3_600_000, short: "h", one: "hour", many: "hours" },
  { ms: 60_000, short: "min", one: "minute", many: "minutes" },
  { ms: 1000, short: "s", one: "second", many: "seconds" },
  { ms: 1, short: "ms", one: "millisecond", many: "milliseconds" }
] as const

/** Under two days, a duration is told in hours ("36 hours", not "1.5 days"; "24 hours", not "1 day"). */
const daysFrom = 2 * units[0].ms

/** The largest unit that divides `ms` exactly (milliseconds when none does). */
const exactUnit = (ms: number) =>
  units.find((unit) => ms !== 0 && ms % unit.ms === 0 && (unit.short !== "d" || ms >= daysFrom)) ?? units[4]

/** `600000` → "10 minutes", `1000` → "1 second", `1500` → "1500 milliseconds". */
export const durationInWords = (ms: number): string => {
  const unit = exactUnit(ms)
  const count = ms / unit.ms
  return `${count} ${count === 1 ? unit.one : unit.many}`
}

/** `5000` → "5 s", `120000` → "2 min", `3600000` → "1 h". */
export const shortDuration = (ms: number): string => {
  const unit = exactUnit(ms)
  return `${ms / unit.ms} ${unit.short}`
}

/** At least `ms`, in the largest unit it reaches: 24 h 12 min → "24 hours", 90 s → "1 minute". */
export const durationAtLeast = (ms: number): string => {
  const unit = units.find((candidate) => ms >= (candidate.short === "d" ? daysFrom : candidate.ms)) ?? units[4]
  const count = Math.floor(ms / unit.ms)
  return `${count} ${count === 1 ? unit.one : unit.many}`
}

/** Items joined as a sentence lists them: "a", "a and b", "a, b and c". */
export const listInWords = (items: ReadonlyArray<string>): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`

/** `26214400` → "25 MiB", `65536` → "64 KiB", `1000` → "1000 bytes". */
export const bytesInWords = (bytes: number): string => {
  for (const [size, unit] of [
    [1024 ** 3, "GiB"],
    [1024 ** 2, "MiB"],
    [1024, "KiB"]
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`
  }
  return bytes === 1 ? "1 byte" : `${bytes} bytes`
}
