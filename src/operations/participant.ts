/**
 * The participant's operations as the contract answers them: who am I, my offers and tasks, and
 * the moves on a task (accept, decline, start, submit a result) — the bodies of the REST responses
 * and the refusals each operation declares (typed errors the edge maps to the envelope), with no
 * transport. The REST handlers (http/account.ts) and the
 * participant's MCP tools (mcp/participant_tools.ts) are adapters over this one service, so every
 * rule, message and hint is written once. Signing in (an OAuth access token for a resource → the
 * participant it is linked to) is here too: REST and MCP verify the same way, each for its own
 * resource (the token's audience).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import type { Account, TaskList, UploadedFile } from "../api/resources.ts"
import { AppConfig } from "../config/app_config.ts"
import { apiPrefix } from "../domain/addresses.ts"
import {
  type ArtifactsUnusable,
  type InvalidTransition,
  NotPermitted,
  type ProfileNotFound,
  type ResultRejected,
  type StorageUnavailable,
  type TaskNotFound,
  type Unauthenticated
} from "../domain/errors.ts"
import { mayReadFile } from "../domain/file_access.ts"
import type { NotificationKind } from "../domain/mail.ts"
import type { ConversationClosed, Message, MessageList, MessageRequest } from "../domain/messages.ts"
import type { ResultSubmission } from "../domain/moves.ts"
import type { ProfileEdit } from "../domain/participant.ts"
import type { Task } from "../domain/task.ts"
import { AccessTokens } from "../services/access_tokens.ts"
import { Accounts } from "../services/accounts.ts"
import { Artifacts, type StageFailure, type StoredFile } from "../services/artifacts.ts"
import { Logins } from "../services/logins/service.ts"
import { MailPreferences, type Unsubscription } from "../services/mail_preferences.ts"
import { ParticipantDirectory } from "../services/participant_directory.ts"
import { type Profile, Profiles } from "../services/profiles.ts"
import { SandboxClock } from "../services/sandbox_clock.ts"
import { TaskActions } from "../services/task_actions.ts"
import { messageListOf, messageOf, TaskMessages } from "../services/task_messages.ts"
import { TaskStore } from "../services/task_store.ts"
import { Tasks } from "../services/tasks.ts"
import { presentParticipant } from "./agent.ts"
import { AwaitingApproval, LinkedParticipantMissing, SignInRequired } from "./errors.ts"

/** A task of the participant's as the console shows it: the task, and when its offer lapses or its review is due. */
export interface TaskOnBoard {
  readonly task: Task
  /** While offered: when the offer lapses (ISO 8601). */
  readonly offerExpiresAt: string | null
  /** While submitted: when the result is accepted unless the agent reviews it first. */
  readonly reviewDueAt: string | null
}

/** The signed-in participant: the access token's subject and the participant it is linked to. */
export interface Caller {
  readonly subject: string
  readonly slug: string
}

/** A protected resource a participant signs in to: what its tokens must be issued for, and where it says so. */
export interface ProtectedResource {
  /** The `aud` its access tokens must carry (RFC 8707's resource indicator). */
  readonly audience: string
  /** The path of its protected-resource metadata (RFC 9728), named by the hint of a 401. */
  readonly metadataPath: string
}

/** What signing in can fail with: no token (401), one not valid here (401), no participant behind it (403). */
export type SignInFailure = SignInRequired | Unauthenticated | NotPermitted | AwaitingApproval | StorageUnavailable

/** What a participant's move on a task can fail with. */
export type MoveFailure = TaskNotFound | InvalidTransition | StorageUnavailable | NotPermitted

export class ParticipantOperations extends Context.Service<
  ParticipantOperations,
  {
    /**
     * The caller of an access token presented to `resource`: 401 without one (`token` undefined)
     * or with one that is not valid for it (signature, issuer, expiry, audience), 403 when its
     * subject is linked to no participant, or to a sign-up awaiting the operator's approval.
     */
    signIn(token: string | undefined, resource: ProtectedResource): Effect.Effect<Caller, SignInFailure>
    /** GET /me. */
    me(caller: Caller): Effect.Effect<Account, LinkedParticipantMissing | StorageUnavailable>
    /** GET /me/tasks: offers and tasks, newest first. */
    myTasks(caller: Caller): Effect.Effect<TaskList, StorageUnavailable>
    /** The same tasks with the times a person must act by (the console's lists). */
    board(caller: Caller): Effect.Effect<ReadonlyArray<TaskOnBoard>, StorageUnavailable>
    /**
     * Refuses the wrong party (403) or an unknown task (404) before anything the caller sent is
     * judged: an adapter runs it, then decodes what came with the move, then makes the move.
     */
    checkHolder(caller: Caller, reference: string): Effect.Effect<void, MoveFailure>
    /** Writes a message to the task's agent, on a task offered to or held by the caller (domain/messages.ts). */
    postMessage(
      caller: Caller,
      reference: string,
      request: MessageRequest
    ): Effect.Effect<Message, MoveFailure | ConversationClosed>
    /** The caller's own thread of the task's conversation, oldest first. */
    messages(caller: Caller, reference: string): Effect.Effect<MessageList, MoveFailure>
    accept(caller: Caller, reference: string): Effect.Effect<Task, MoveFailure>
    /** `reason` as decoded by DeclineRequest (null or absent: none). */
    decline(caller: Caller, reference: string, reason: string | null | undefined): Effect.Effect<Task, MoveFailure>
    start(caller: Caller, reference: string): Effect.Effect<Task, MoveFailure>
    submitResult(
      caller: Caller,
      reference: string,
      result: ResultSubmission
    ): Effect.Effect<Task, MoveFailure | ResultRejected | ArtifactsUnusable>
    /**
     * Uploads a file to a task the caller holds and works on (POST /tasks/{reference}/artifacts):
     * the file, staged, as the 201 shows it. `body` fails with `E` when it cannot be read.
     */
    uploadFile<E>(
      caller: Caller,
      reference: string,
      name: string,
      body: Stream.Stream<Uint8Array, E>
    ): Effect.Effect<UploadedFile, StageFailure | E>
  } & ConsoleOperations
>()("task-marketplace/operations/ParticipantOperations") {
  static readonly layer = Layer.effect(
    ParticipantOperations,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const accessTokens = yield* AccessTokens
      const accounts = yield* Accounts
      const directory = yield* ParticipantDirectory
      const actions = yield* TaskActions
      const conversation = yield* TaskMessages
      const artifacts = yield* Artifacts
      const tasks = yield* Tasks
      const store = yield* TaskStore

      const signIn = Effect.fn("ParticipantOperations.signIn")(function* (
        token: string | undefined,
        { audience, metadataPath }: ProtectedResource
      ) {
        if (token === undefined) return yield* new SignInRequired({ metadataPath })
        const { subject } = yield* accessTokens.verify(token, audience)
        const link = yield* accounts.linkOf(subject)
        if (link === undefined)
          return yield* new NotPermitted({ reason: "your account is not linked to a participant" })
        if (link.pending) return yield* new AwaitingApproval({ slug: link.slug })
        return { subject, slug: link.slug }
      })

      const me = Effect.fn("ParticipantOperations.me")(function* ({ subject, slug }: Caller) {
        const participant = yield* directory.findBySlug(slug)
        if (participant === undefined) return yield* new LinkedParticipantMissing({ slug })
        const account: Account = {
          object: "account",
          subject,
          participant: presentParticipant(config.publicBaseUrl, participant)
        }
        return account
      })

      const myTasks = Effect.fn("ParticipantOperations.myTasks")(function* ({ slug }: Caller) {
        const data = yield* tasks.forParticipant(slug)
        const list: TaskList = { object: "list", count: data.length, data }
        return list
      })

      const board = Effect.fn("ParticipantOperations.board")(function* ({ slug }: Caller) {
        const stored = yield* store.forParticipant(slug)
        return stored.map(
          (task): TaskOnBoard => ({
            task: tasks.view(task),
            offerExpiresAt: task.state === "awaiting_participant" ? task.offerExpiresAt : null,
            reviewDueAt: task.state === "submitted" ? task.reviewDueAt : null
          })
        )
      })

      const uploadFile = Effect.fn("ParticipantOperations.uploadFile")(function* <E>(
        { slug }: Caller,
        reference: string,
        name: string,
        body: Stream.Stream<Uint8Array, E>
      ) {
        const file = yield* artifacts.stage({ reference, slug, name, body })
        return presentFile(config.publicBaseUrl, file)
      })

      return ParticipantOperations.of({
        ...(yield* makeConsoleOperations),
        signIn,
        me,
        myTasks,
        board,
        checkHolder: Effect.fn("ParticipantOperations.checkHolder")(({ slug }: Caller, reference: string) =>
          actions.checkHolder(reference, slug)
        ),
        postMessage: Effect.fn("ParticipantOperations.postMessage")(function* (
          { slug }: Caller,
          reference: string,
          request: MessageRequest
        ) {
          return messageOf(yield* conversation.post(reference, { _tag: "Participant", slug }, request.body))
        }),
        messages: Effect.fn("ParticipantOperations.messages")(function* ({ slug }: Caller, reference: string) {
          return messageListOf(yield* conversation.list(reference, { _tag: "Participant", slug }))
        }),
        accept: Effect.fn("ParticipantOperations.accept")(function* ({ slug }: Caller, reference: string) {
          return tasks.view(yield* actions.accept(reference, slug))
        }),
        decline: Effect.fn("ParticipantOperations.decline")(function* (
          { slug }: Caller,
          reference: string,
          reason: string | null | undefined
        ) {
          return tasks.view(yield* actions.decline(reference, slug, reason ?? undefined))
        }),
        start: Effect.fn("ParticipantOperations.start")(function* ({ slug }: Caller, reference: string) {
          return tasks.view(yield* actions.start(reference, slug))
        }),
        submitResult: Effect.fn("ParticipantOperations.submitResult")(function* (
          { slug }: Caller,
          reference: string,
          result: ResultSubmission
        ) {
          return tasks.view(yield* actions.submit(reference, slug, result))
        }),
        uploadFile
      })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = ParticipantOperations.layer.pipe(
    Layer.provide([
      AccessTokens.layerWithDependencies,
      Accounts.layer,
      Artifacts.layerWithDependencies,
      Logins.layerWithDependencies,
      MailPreferences.layer,
      ParticipantDirectory.layer,
      Profiles.layerWithDependencies,
      SandboxClock.layerWithDependencies,
      TaskActions.layerWithDependencies,
      TaskMessages.layerWithDependencies,
      TaskStore.layer,
      Tasks.layerWithDependencies
    ])
  )
}

// ---------------------------------------------------------------------------------------------------
// The console's operations (console/): its pages show the participant's own profile and files, and
// read deadlines against the time of tasks. Their failures are the services' own: the console
// words them in its pages.
// ---------------------------------------------------------------------------------------------------

/** What the participant's console does besides the moves above. */
export interface ConsoleOperations {
  /** The time of tasks now, in milliseconds (a sandbox's clock, in one): what deadlines are read against. */
  readonly tasksNow: Effect.Effect<number>
  /** The caller's profile as they see it, or undefined when their participant is gone. */
  profile(caller: Caller): Effect.Effect<Profile | undefined, StorageUnavailable>
  /** Replaces what the caller says of themselves. */
  updateProfile(caller: Caller, edit: ProfileEdit): Effect.Effect<Profile, ProfileNotFound | StorageUnavailable>
  /** Switches the caller's offers on or off. */
  setAvailable(caller: Caller, available: boolean): Effect.Effect<Profile, ProfileNotFound | StorageUnavailable>
  /** The notifications the caller turned off (every other kind is mailed). */
  mailOff(caller: Caller): Effect.Effect<ReadonlyArray<NotificationKind>, StorageUnavailable>
  /** Turns the kinds given off and every other kind on. */
  setMailOff(caller: Caller, off: ReadonlyArray<NotificationKind>): Effect.Effect<void, StorageUnavailable>
  /**
   * A one-click unsubscribe (RFC 8058): turns off the kind its token names, for its participant;
   * undefined when the token is not one of ours (nothing changes). Needs no sign-in: the token is
   * the mail's.
   */
  unsubscribe(token: string): Effect.Effect<Unsubscription | undefined, StorageUnavailable>
  /** What an unsubscribe token names, without acting on it (the page that asks first). */
  readUnsubscribe(token: string): Unsubscription | undefined
  /**
   * Whether a sign-up's confirmation token can be used at `now`: `usable`, `expired`, or `unknown`
   * (not one of ours). Reading it changes nothing.
   */
  readonly confirmationState: (
    token: string
  ) => Effect.Effect<{ readonly state: "usable" | "expired" | "unknown"; readonly email: string | undefined }>
  /**
   * Confirms the address a sign-up's token names: `confirmed` (again: still confirmed), `expired`,
   * `unknown` (not one of ours), or `changed` (the login has another address now). Needs no
   * sign-in: the token is the mail's.
   */
  confirmAddress(token: string): Effect.Effect<"confirmed" | "expired" | "unknown" | "changed", StorageUnavailable>
  /** The most bytes a file may have and the most files a result may carry. */
  readonly uploadLimits: { readonly maxFileBytes: number; readonly maxFiles: number }
  /** Stages a file of the caller's for a result (`Artifacts.stage`), with the store's own refusals. */
  stageFile<E>(
    caller: Caller,
    reference: string,
    name: string,
    body: Stream.Stream<Uint8Array, E>
  ): Effect.Effect<StoredFile, StageFailure | E>
  /** Removes staged files the caller uploaded to `reference` (a form refused or cut short). */
  discardFiles(caller: Caller, reference: string, ids: ReadonlyArray<string>): Effect.Effect<void, StorageUnavailable>
  /** A file the caller uploaded to `reference`, opened; undefined when they uploaded none by that id. */
  openOwnFile(
    caller: Caller,
    reference: string,
    id: string
  ): Effect.Effect<
    { readonly file: StoredFile; readonly body: Stream.Stream<Uint8Array, StorageUnavailable> } | undefined,
    StorageUnavailable
  >
}

const makeConsoleOperations = Effect.gen(function* () {
  const profiles = yield* Profiles
  const preferences = yield* MailPreferences
  const logins = yield* Logins
  const artifacts = yield* Artifacts
  const time = yield* SandboxClock

  const profile = Effect.fn("ParticipantOperations.profile")(function* ({ slug }: Caller) {
    return yield* profiles.view(slug)
  })
  const updateProfile = Effect.fn("ParticipantOperations.updateProfile")(function* (
    { slug }: Caller,
    edit: ProfileEdit
  ) {
    return yield* profiles.update(slug, edit)
  })
  const setAvailable = Effect.fn("ParticipantOperations.setAvailable")(function* (
    { slug }: Caller,
    available: boolean
  ) {
    return yield* profiles.setAvailable(slug, available)
  })
  const stageFile = Effect.fn("ParticipantOperations.stageFile")(function* <E>(
    { slug }: Caller,
    reference: string,
    name: string,
    body: Stream.Stream<Uint8Array, E>
  ) {
    return yield* artifacts.stage({ reference, slug, name, body })
  })
  const discardFiles = Effect.fn("ParticipantOperations.discardFiles")(function* (
    { slug }: Caller,
    reference: string,
    ids: ReadonlyArray<string>
  ) {
    yield* artifacts.discard(ids, { reference, slug })
  })
  const openOwnFile = Effect.fn("ParticipantOperations.openOwnFile")(function* (
    { slug }: Caller,
    reference: string,
    id: string
  ) {
    const stored = yield* artifacts.find(reference, id)
    if (!mayReadFile({ _tag: "Participant", slug }, stored)) return undefined
    return yield* artifacts.open(reference, id).pipe(Effect.catchTag("ArtifactNotFound", () => Effect.undefined))
  })

  const confirmationState = (token: string) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const named = preferences.readConfirmation(token)
      if (named === undefined) return { state: "unknown" as const, email: undefined }
      return {
        state: new Date(named.expiresAt).getTime() > now ? ("usable" as const) : ("expired" as const),
        email: named.email
      }
    })
  const confirmAddress = Effect.fn("ParticipantOperations.confirmAddress")(function* (token: string) {
    const { state } = yield* confirmationState(token)
    const named = preferences.readConfirmation(token)
    if (state !== "usable" || named === undefined) return state === "usable" ? "unknown" : state
    return (yield* logins.confirmAddress(named.loginId, named.email)) ? "confirmed" : "changed"
  })

  const unsubscribe = Effect.fn("ParticipantOperations.unsubscribe")(function* (token: string) {
    const named = preferences.readToken(token)
    if (named !== undefined) yield* preferences.turnOff(named.participantSlug, named.kind)
    return named
  })

  return {
    tasksNow: time.now,
    profile,
    updateProfile,
    setAvailable,
    mailOff: ({ slug }) => preferences.offFor(slug),
    setMailOff: ({ slug }, off) => preferences.set(slug, off),
    unsubscribe,
    readUnsubscribe: preferences.readToken,
    confirmationState,
    confirmAddress,
    uploadLimits: artifacts.limits,
    stageFile,
    discardFiles,
    openOwnFile
  } satisfies ConsoleOperations
})

/** An uploaded file as the API shows it: with where it is downloaded. */
export const presentFile = (publicBaseUrl: string, file: StoredFile): UploadedFile => ({
  object: "file",
  id: file.id,
  reference: file.reference,
  uploader: file.uploader,
  name: file.name,
  content_type: file.content_type,
  size: file.size,
  sha256: file.sha256,
  created_at: file.created_at,
  attached: file.attached,
  url: `${publicBaseUrl}${apiPrefix}/tasks/${file.reference}/artifacts/${file.id}`
})
