/**
 * The operator's commands (DECISIONS §6): each reads or changes the marketplace through the same
 * services the HTTP API uses, so an operator's move is recorded exactly as any other (history
 * actor `operator`, outcome reason `cancelled_by_operator`).
 *
 * What a command prints goes to stdout; a failure is one line on stderr, never a stack trace.
 */
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as References from "effect/References"
import { AppConfig } from "../config/app_config.ts"
import { type InvalidConfig, loadSettings } from "../config/load.ts"
import type { AppSettings } from "../config/settings.ts"
import {
  type AlreadyListed,
  type EmailTaken,
  type InvalidEmail,
  type InvalidTransition,
  type LoginAlreadyActive,
  type LoginNotFound,
  ParticipantNotFound,
  type ProfileNotFound,
  type StorageUnavailable,
  type TaskNotFound
} from "../domain/errors.ts"
import { describeAllowed } from "../domain/lifecycle.ts"
import type { ParticipantRecord } from "../domain/participant.ts"
import { Accounts } from "../services/accounts.ts"
import { type IssuedLink, Logins } from "../services/logins/service.ts"
import { MailOutbox } from "../services/mail_outbox.ts"
import { ParticipantDirectory } from "../services/participant_directory.ts"
import { Profiles } from "../services/profiles.ts"
import { recordedPublicAddress } from "../services/public_address.ts"
import { SigningKeys } from "../services/signing_keys.ts"
import { TaskActions } from "../services/task_actions.ts"
import { Tasks } from "../services/tasks.ts"
import { DatabaseLayer } from "../sql/database.ts"
import type { Command } from "./arguments.ts"
import { type InvalidParticipantFile, readParticipantFile } from "./participant_file.ts"
import { OperatorServicesLayer } from "./services.ts"

/** How long the tool waits for the database (Postgres is retried while unreachable) before giving up. */
export const databaseDeadline = "30 seconds"

/** A command that could not be done; its message is the one line the operator reads. */
export class OperatorFailure extends Data.TaggedError("OperatorFailure")<{ readonly message: string }> {}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

export const importParticipants = Effect.fn("Operator.importParticipants")(function* (
  file: string,
  records: ReadonlyArray<ParticipantRecord>
) {
  const directory = yield* ParticipantDirectory
  const imported = yield* directory.upsertMany(records)
  return `imported ${plural(imported, "participant")} from ${file}`
})

export const linkAccount = Effect.fn("Operator.linkAccount")(function* (slug: string, subject: string) {
  const directory = yield* ParticipantDirectory
  const accounts = yield* Accounts
  if ((yield* directory.findBySlug(slug)) === undefined) return yield* new ParticipantNotFound({ slug })
  const before = yield* accounts.participantOf(subject)
  yield* accounts.link(subject, slug)
  return before === undefined || before === slug
    ? `linked subject ${JSON.stringify(subject)} to participant ${slug}`
    : `linked subject ${JSON.stringify(subject)} to participant ${slug} (it was linked to ${before})`
})

/** A one-time link as printed: the URL alone on the first line (for scripts), then for whom and until when. */
const printedLink = ({ url, expiresAt, login }: IssuedLink, what: string, mailed: boolean) =>
  `${url}\n${what} for participant ${login.participantSlug} (${login.email}); usable once, until ${expiresAt}\n${
    mailed
      ? "a mail with the link is queued; a running server sends it"
      : "mail is off (SMTP_URL is unset): hand the link over yourself"
  }`

export const inviteParticipant = Effect.fn("Operator.inviteParticipant")(function* (slug: string, email: string) {
  const logins = yield* Logins
  const mailed = (yield* MailOutbox).enabled
  return printedLink(yield* logins.invite(slug, email), "one-time link to choose a password", mailed)
})

export const resetPassword = Effect.fn("Operator.resetPassword")(function* (slug: string) {
  const logins = yield* Logins
  const mailed = (yield* MailOutbox).enabled
  return printedLink(yield* logins.reset(slug), "one-time link to choose a new password", mailed)
})

/** One line a sign-up awaiting approval: slug, name, email, when; or a line saying there is none. */
export const listPendingSignUps = Effect.fn("Operator.listPendingSignUps")(function* () {
  const profiles = yield* Profiles
  const pending = yield* profiles.pending
  if (pending.length === 0) return "no sign-up awaits approval"
  return pending
    .map(
      ({ slug, name, email, createdAt, addressConfirmed }) =>
        `${slug}  ${JSON.stringify(name)}  ${email ?? "(no login)"}  signed up ${createdAt}${addressConfirmed ? "  address confirmed" : ""}`
    )
    .join("\n")
})

export const approveSignUp = Effect.fn("Operator.approveSignUp")(function* (slug: string) {
  const profiles = yield* Profiles
  const { record, available } = yield* profiles.approve(slug)
  return `approved ${slug} (${JSON.stringify(record.name)}): listed, and offered tasks ${available ? "from now on" : "once they switch offers on (they switched them off)"}`
})

export const showTask = Effect.fn("Operator.showTask")(function* (reference: string) {
  const tasks = yield* Tasks
  const { task } = yield* tasks.read(reference)
  return JSON.stringify(task, null, 2)
})

export const cancelTask = Effect.fn("Operator.cancelTask")(function* (reference: string, reason: string) {
  const actions = yield* TaskActions
  const task = yield* actions.operatorCancel(reference, reason)
  return `${reference} is now ${task.state} (cancelled_by_operator)`
})

export const rotateKeys = Effect.fn("Operator.rotateKeys")(function* () {
  const keys = yield* SigningKeys
  const { kid, retired, publishedUntil } = yield* keys.rotate
  return retired.length === 0
    ? `signing key ${kid} signs from now on; there was no key to retire`
    : `signing key ${kid} signs from now on; retired ${retired.join(", ")}, published until ${publishedUntil}`
})

/** One line a key: its id, when it was made, and whether it signs, verifies, or was retired and until when it is published. */
export const listKeys = Effect.fn("Operator.listKeys")(function* () {
  const keys = yield* SigningKeys
  const published = yield* keys.list
  if (published.length === 0) return "no signing key yet (the server makes one when it starts)"
  return published
    .map((key, index) => {
      const state =
        key.retiredAt === null
          ? index === 0
            ? "signs"
            : "in use, verifies"
          : `retired ${key.retiredAt}, published until ${key.publishedUntil}`
      return `${key.kid}  created ${key.createdAt}  ${state}`
    })
    .join("\n")
})

/** Every failure a command can meet. */
type CommandFailure =
  | TaskNotFound
  | ParticipantNotFound
  | InvalidTransition
  | StorageUnavailable
  | InvalidParticipantFile
  | InvalidConfig
  | OperatorFailure
  | InvalidEmail
  | EmailTaken
  | LoginAlreadyActive
  | LoginNotFound
  | ProfileNotFound
  | AlreadyListed

/** A failure as the one line the operator reads. */
const describeFailure = (error: CommandFailure): string => {
  switch (error._tag) {
    case "TaskNotFound":
      return `no task ${error.reference}`
    case "ParticipantNotFound":
      return `no participant ${error.slug}`
    case "InvalidTransition": {
      const why = error.detail ?? `the ${error.actor} cannot move it to ${error.to}`
      return `cannot cancel ${error.reference}: the task is ${error.from} and ${why}. From ${error.from} the lifecycle allows: ${describeAllowed(error.from)}.`
    }
    case "LoginAlreadyActive":
      return `${error.message}: npm run operator -- participants reset ${error.participantSlug}`
    case "LoginNotFound":
      return `${error.message}: npm run operator -- participants invite ${error.participantSlug} --email <address>`
    case "ProfileNotFound":
      return `${error.message}; npm run operator -- participants pending lists the sign-ups awaiting approval`
    case "StorageUnavailable":
      return `the database did not answer: ${oneLine(causeText(error.cause))}; nothing was changed, try again`
    default:
      return oneLine(error.message)
  }
}

const causeText = (cause: unknown): string =>
  typeof cause === "string"
    ? cause
    : cause instanceof Error || (typeof cause === "object" && cause !== null && "message" in cause)
      ? String((cause as { message: unknown }).message)
      : String(cause)

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim()

type OperatorServices = Layer.Success<typeof OperatorServicesLayer>

/**
 * The command's work, ready to run against the services. An import's file is read and checked
 * here, before the database is even opened: a bad file changes nothing.
 */
const prepare = (
  invocation: Command
): Effect.Effect<Effect.Effect<string, CommandFailure, OperatorServices>, InvalidParticipantFile> => {
  switch (invocation._tag) {
    case "ImportParticipants":
      return Effect.map(readParticipantFile(invocation.file), (records) => importParticipants(invocation.file, records))
    case "LinkAccount":
      return Effect.succeed(linkAccount(invocation.slug, invocation.subject))
    case "InviteParticipant":
      return Effect.succeed(inviteParticipant(invocation.slug, invocation.email))
    case "ResetPassword":
      return Effect.succeed(resetPassword(invocation.slug))
    case "ListPendingSignUps":
      return Effect.succeed(listPendingSignUps())
    case "ApproveSignUp":
      return Effect.succeed(approveSignUp(invocation.slug))
    case "ShowTask":
      return Effect.succeed(showTask(invocation.reference))
    case "CancelTask":
      return Effect.succeed(cancelTask(invocation.reference, invocation.reason))
    case "RotateKeys":
      return Effect.succeed(rotateKeys())
    case "ListKeys":
      return Effect.succeed(listKeys())
  }
}

/** Runs one parsed command against the configured database. */
const execute = (invocation: Command, settings: AppSettings) =>
  Effect.gen(function* () {
    const command = yield* prepare(invocation)
    return yield* Effect.scoped(
      Effect.gen(function* () {
        const services = yield* Layer.build(OperatorServicesLayer).pipe(
          Effect.timeoutOrElse({
            duration: databaseDeadline,
            orElse: () =>
              Effect.fail(
                new OperatorFailure({
                  message: `the database (${databaseName(settings)}) did not answer within ${databaseDeadline}; set LOG_LEVEL=Warn to see why`
                })
              )
          })
        )
        return yield* Effect.provideContext(command, services)
      })
    ).pipe(Effect.provideService(AppConfig, settings))
  })

/**
 * The settings, with the public address the server recorded (services/public_address.ts) when
 * PUBLIC_BASE_URL is not set here: links printed for a person must lead to the server, whatever
 * this shell's HOST and PORT say.
 */
const atServersAddress = (settings: AppSettings) =>
  Effect.gen(function* () {
    if (Option.isSome(yield* Config.option(Config.String("PUBLIC_BASE_URL")))) return settings
    const recorded = yield* Effect.scoped(
      Effect.flatMap(Layer.build(DatabaseLayer), (storage) => Effect.provideContext(recordedPublicAddress, storage))
    ).pipe(Effect.provideService(AppConfig, settings))
    if (recorded === undefined || recorded === settings.publicBaseUrl) return settings
    return yield* loadSettings.pipe(
      Effect.provideService(
        ConfigProvider.ConfigProvider,
        ConfigProvider.fromEnv({ env: { ...process.env, PUBLIC_BASE_URL: recorded } })
      )
    )
  })

const databaseName = (settings: AppSettings) =>
  settings.database._tag === "Sqlite" ? `sqlite:${settings.database.filename}` : "postgres"

/**
 * Runs one command against the configured database and prints what it did; returns the exit code
 * (0 done, 1 failed). The command line itself is read by `parseArguments` (arguments.ts).
 */
export const runCommand = (command: Command): Effect.Effect<number> =>
  Effect.gen(function* () {
    const settings = yield* atServersAddress(yield* loadSettings)
    // Logs are noise for a one-shot command: off unless the operator asks for them.
    const logLevelSet = Option.isSome(yield* Config.option(Config.String("LOG_LEVEL")))
    const output = yield* execute(command, settings).pipe(
      Effect.provideService(References.MinimumLogLevel, logLevelSet ? settings.logLevel : "None")
    )
    yield* Console.log(output)
    return 0
  }).pipe(
    Effect.catchCause((cause) => {
      const error = Cause.findErrorOption(cause)
      const message = Option.isSome(error)
        ? // Database set-up failures (SqlError, MigrationError, ConfigError) carry a message too.
          describeFailure(error.value as CommandFailure)
        : `unexpected failure: ${oneLine(causeText(Cause.squash(cause)))}`
      return Effect.as(Console.error(`error: ${message}`), 1)
    }),
    // Logs go to stderr, so stdout carries only the command's output (e.g. a task's JSON).
    Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatLogFmt)]))
  )
