/**
 * The operator tool's command line (DECISIONS §6, "Operator"): what each command is called, what it
 * takes, and the usage text. Parsed before anything else is loaded (this module imports only the
 * login and signing-key rules, which import nothing), so a mistyped command answers at once and
 * changes nothing.
 */
import { inviteLinkLifetimeMs, resetLinkLifetimeMs } from "../domain/login.ts"
import { retiredKeyRetention } from "../domain/signing_keys.ts"

/** A command to run against the database. */
export type Command =
  | { readonly _tag: "ImportParticipants"; readonly file: string }
  | { readonly _tag: "LinkAccount"; readonly slug: string; readonly subject: string }
  | { readonly _tag: "InviteParticipant"; readonly slug: string; readonly email: string }
  | { readonly _tag: "ResetPassword"; readonly slug: string }
  | { readonly _tag: "ListPendingSignUps" }
  | { readonly _tag: "ApproveSignUp"; readonly slug: string }
  | { readonly _tag: "ShowTask"; readonly reference: string }
  | { readonly _tag: "CancelTask"; readonly reference: string; readonly reason: string }
  | { readonly _tag: "RotateKeys" }
  | { readonly _tag: "ListKeys" }

export type Invocation = Command | { readonly _tag: "Help" }

/** The arguments do not form a command: the tool prints this and the usage, and exits 2. */
export interface UsageProblem {
  readonly _tag: "UsageProblem"
  readonly problem: string
}

interface CommandSpec {
  readonly words: readonly [string, string]
  readonly positionals: ReadonlyArray<string>
  /** Each option the command takes, with what its value is called in the usage. */
  readonly flags?: Readonly<Record<string, string>>
  readonly summary: string
  readonly example: string
  readonly build: (positionals: ReadonlyArray<string>, flags: Readonly<Record<string, string>>) => Command | string
}

/** Longest reason a cancellation may record, as for the agent's own cancel. */
export const maxReasonLength = 4000

/** "7 days", "1 hour", "30 minutes": a lifetime as the usage says it. */
const lifetime = (ms: number) => {
  const [size, unit] =
    ms % 86_400_000 === 0
      ? [ms / 86_400_000, "day"]
      : ms % 3_600_000 === 0
        ? [ms / 3_600_000, "hour"]
        : [ms / 60_000, "minute"]
  return `${size} ${unit}${size === 1 ? "" : "s"}`
}

const commands: ReadonlyArray<CommandSpec> = [
  {
    words: ["participants", "import"],
    positionals: ["file"],
    summary: "Add or update the participants of a JSON file (an array of records, as data/sample-participants.json).",
    example: "participants import ./data/participants.json",
    build: ([file]) => ({ _tag: "ImportParticipants", file: file ?? "" })
  },
  {
    words: ["participants", "link"],
    positionals: ["slug", "subject"],
    summary: "Let the holder of an OAuth subject (`sub`) act as this participant.",
    example: "participants link amara-okafor 'auth0|6512a0c4e1'",
    build: ([slug, subject]) =>
      subject === undefined || subject.trim() === ""
        ? "<subject> must not be empty"
        : { _tag: "LinkAccount", slug: slug ?? "", subject }
  },
  {
    words: ["participants", "invite"],
    positionals: ["slug"],
    flags: { email: "address" },
    summary: `Give the participant a login with this address; prints a one-time link (valid ${lifetime(inviteLinkLifetimeMs)}) to send them, to choose a password.`,
    example: "participants invite amara-okafor --email amara@example.com",
    build: ([slug], flags) => {
      const email = flags.email?.trim()
      if (email === undefined) return "participants invite needs --email <address>: the address they will sign in with"
      if (email === "") return "--email must not be empty"
      return { _tag: "InviteParticipant", slug: slug ?? "", email }
    }
  },
  {
    words: ["participants", "reset"],
    positionals: ["slug"],
    summary: `Print a one-time link (valid ${lifetime(resetLinkLifetimeMs)}) for the participant to choose a new password; their sessions end when they do.`,
    example: "participants reset amara-okafor",
    build: ([slug]) => ({ _tag: "ResetPassword", slug: slug ?? "" })
  },
  {
    words: ["participants", "pending"],
    positionals: [],
    summary:
      "List the sign-ups awaiting approval (PARTICIPANT_SIGNUP=open), oldest first: slug, name, email, when. They get no offers and are not listed until approved.",
    example: "participants pending",
    build: () => ({ _tag: "ListPendingSignUps" })
  },
  {
    words: ["participants", "approve"],
    positionals: ["slug"],
    summary:
      "List a sign-up in the directory: discovery, search and offers from now on, and its login acts as the participant.",
    example: "participants approve ines-moreau",
    build: ([slug]) => ({ _tag: "ApproveSignUp", slug: slug ?? "" })
  },
  {
    words: ["tasks", "show"],
    positionals: ["reference"],
    summary: "Print a task as the API shows it (JSON).",
    example: "tasks show tsk_7k2m4q6s3u2w4y6a3c5e7g2i4k",
    build: ([reference]) => ({ _tag: "ShowTask", reference: reference ?? "" })
  },
  {
    words: ["tasks", "cancel"],
    positionals: ["reference"],
    flags: { reason: "text" },
    summary: "Cancel a task that has not started (reason cancelled_by_operator); --reason is recorded in its history.",
    example: 'tasks cancel tsk_7k2m4q6s3u2w4y6a3c5e7g2i4k --reason "duplicate of tsk_…; asked by the principal"',
    build: ([reference], flags) => {
      const reason = flags.reason?.trim()
      if (reason === undefined) return "tasks cancel needs --reason <text>: say why, it is kept in the task's history"
      if (reason === "") return "--reason must not be empty"
      if ([...reason].length > maxReasonLength) return `--reason is longer than ${maxReasonLength} characters`
      return { _tag: "CancelTask", reference: reference ?? "", reason }
    }
  },
  {
    words: ["keys", "rotate"],
    positionals: [],
    summary: `Make a new key to sign the authorization server's tokens (a running server switches to it within 5 seconds) and retire the others; they stay published for ${lifetime(retiredKeyRetention)}, until the tokens they signed have expired.`,
    example: "keys rotate",
    build: () => ({ _tag: "RotateKeys" })
  },
  {
    words: ["keys", "list"],
    positionals: [],
    summary: "List the published signing keys, the one that signs first: id, created, retired, published until.",
    example: "keys list",
    build: () => ({ _tag: "ListKeys" })
  }
]

const synopsis = (spec: CommandSpec) =>
  [
    ...spec.words,
    ...spec.positionals.map((p) => `<${p}>`),
    ...Object.entries(spec.flags ?? {}).map(([flag, value]) => `--${flag} <${value}>`)
  ].join(" ")

export const usage = (program = "npm run operator --"): string => {
  const lines = [
    "Operator commands for the task marketplace. They use the server's configuration (DATABASE_URL, …).",
    "",
    `Usage: ${program} <command> [arguments]`,
    "",
    "Commands:"
  ]
  for (const spec of commands) {
    lines.push(`  ${synopsis(spec)}`, `      ${spec.summary}`, `      e.g. ${program} ${spec.example}`)
  }
  lines.push("  help", "      Print this text.", "")
  lines.push("Exit status: 0 done, 1 failed (nothing changed unless stated), 2 the command line was not understood.")
  lines.push("Logs are off unless LOG_LEVEL is set (they go to stderr).")
  return `${lines.join("\n")}\n`
}

const isHelp = (arg: string) => arg === "help" || arg === "--help" || arg === "-h"

/** Reads the arguments after the program name. */
export const parseArguments = (argv: ReadonlyArray<string>): Invocation | UsageProblem => {
  const problem = (text: string): UsageProblem => ({ _tag: "UsageProblem", problem: text })
  if (argv.length === 0) return problem("no command given")
  const [group, name, ...rest] = argv
  if (isHelp(group as string) || (name !== undefined && isHelp(name))) return { _tag: "Help" }
  const inGroup = commands.filter((c) => c.words[0] === group)
  if (inGroup.length === 0) return problem(`unknown command ${JSON.stringify(group)}`)
  const spec = inGroup.find((c) => c.words[1] === name)
  if (spec === undefined) {
    const known = inGroup.map((c) => c.words[1]).join(", ")
    return problem(
      name === undefined
        ? `${group} needs a command: ${known}`
        : `unknown command "${group} ${name}" (${group} has: ${known})`
    )
  }
  const positionals: Array<string> = []
  const flags: Record<string, string> = {}
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string
    if (arg === "--") {
      positionals.push(...rest.slice(i + 1))
      break
    }
    if (arg === "--help" || arg === "-h") return { _tag: "Help" }
    if (!arg.startsWith("--")) {
      positionals.push(arg)
      continue
    }
    const equals = arg.indexOf("=")
    const flag = arg.slice(2, equals < 0 ? undefined : equals)
    if (!Object.hasOwn(spec.flags ?? {}, flag)) return problem(`${spec.words.join(" ")} has no option --${flag}`)
    const value = equals < 0 ? rest[++i] : arg.slice(equals + 1)
    if (value === undefined) return problem(`--${flag} needs a value`)
    if (flags[flag] !== undefined) return problem(`--${flag} is given twice`)
    flags[flag] = value
  }
  if (positionals.length !== spec.positionals.length) {
    const missing = spec.positionals.slice(positionals.length).map((p) => `<${p}>`)
    return problem(
      positionals.length < spec.positionals.length
        ? `${spec.words.join(" ")} needs ${missing.join(" and ")}`
        : `${spec.words.join(" ")} takes ${spec.positionals.length === 0 ? "no arguments" : spec.positionals.map((p) => `<${p}>`).join(" ")}; unexpected ${JSON.stringify(positionals.slice(spec.positionals.length).join(" "))}`
    )
  }
  const built = spec.build(positionals, flags)
  return typeof built === "string" ? problem(built) : built
}
