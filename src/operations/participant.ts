/**
 * The participant's operations as the contract answers them: who am I, my offers and tasks, and
 * the moves on a task (accept, decline, start, submit a result) — the bodies of the REST responses
 * and the envelope errors, with no transport. The REST handlers (http/account.ts) and the
 * participant's MCP tools (mcp/participant_tools.ts) are adapters over this one service, so every
 * rule, message and hint is written once. Signing in (an OAuth access token for a resource → the
 * participant it is linked to) is here too: REST and MCP verify the same way, each for its own
 * resource (the token's audience).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import { type EnvelopeError, envelopeError } from "../api/envelope.ts"
import type { Account, TaskList, UploadedFile } from "../api/resources.ts"
import { AppConfig } from "../config/app_config.ts"
import { apiPrefix } from "../domain/addresses.ts"
import {
  type ArtifactRejected,
  NotPermitted,
  type ProfileNotFound,
  type StorageUnavailable,
  type TaskNotFound,
  type UploadNotAllowed
} from "../domain/errors.ts"
import { mayReadFile } from "../domain/file_access.ts"
import type { ResultSubmission } from "../domain/moves.ts"
import type { ProfileEdit } from "../domain/participant.ts"
import type { Task } from "../domain/task.ts"
import type { StoredTask } from "../domain/task_record.ts"
import { AccessTokens } from "../services/access_tokens.ts"
import { Accounts } from "../services/accounts.ts"
import { Artifacts, type StoredFile } from "../services/artifacts.ts"
import { ParticipantDirectory } from "../services/participant_directory.ts"
import { type Profile, Profiles } from "../services/profiles.ts"
import { SandboxClock } from "../services/sandbox_clock.ts"
import { TaskActions } from "../services/task_actions.ts"
import { TaskStore } from "../services/task_store.ts"
import { Tasks } from "../services/tasks.ts"
import { presentParticipant } from "./agent.ts"
import { orActionFailure } from "./failures.ts"

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

export class ParticipantOperations extends Context.Service<
  ParticipantOperations,
  {
    /**
     * The caller of an access token presented to `resource`: 401 without one (`token` undefined)
     * or with one that is not valid for it (signature, issuer, expiry, audience), 403 when its
     * subject is linked to no participant, or to a sign-up awaiting the operator's approval.
     */
    signIn(token: string | undefined, resource: ProtectedResource): Effect.Effect<Caller, EnvelopeError>
    /** GET /me. */
    me(caller: Caller): Effect.Effect<Account, EnvelopeError>
    /** GET /me/tasks: offers and tasks, newest first. */
    myTasks(caller: Caller): Effect.Effect<TaskList, EnvelopeError>
    /** The same tasks with the times a person must act by (the console's lists). */
    board(caller: Caller): Effect.Effect<ReadonlyArray<TaskOnBoard>, EnvelopeError>
    /**
     * Refuses the wrong party (403) or an unknown task (404) before anything the caller sent is
     * judged: an adapter runs it, then decodes what came with the move, then makes the move.
     */
    checkHolder(caller: Caller, reference: string): Effect.Effect<void, EnvelopeError>
    accept(caller: Caller, reference: string): Effect.Effect<Task, EnvelopeError>
    /** `reason` as decoded by DeclineRequest (null or absent: none). */
    decline(caller: Caller, reference: string, reason: string | null | undefined): Effect.Effect<Task, EnvelopeError>
    start(caller: Caller, reference: string): Effect.Effect<Task, EnvelopeError>
    submitResult(caller: Caller, reference: string, result: ResultSubmission): Effect.Effect<Task, EnvelopeError>
    /**
     * Uploads a file to a task the caller holds and works on (POST /tasks/{reference}/artifacts):
     * the file, staged, as the 201 shows it. `body` fails with the envelope error of a body that
     * could not be read.
     */
    uploadFile<E extends EnvelopeError>(
      caller: Caller,
      reference: string,
      name: string,
      body: Stream.Stream<Uint8Array, E>
    ): Effect.Effect<UploadedFile, EnvelopeError>
  } & ConsoleOperations
>()("task-marketplace/operations/ParticipantOperations") {
  static readonly layer = Layer.effect(
    ParticipantOperations,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const docs = config.docsUrl
      const accessTokens = yield* AccessTokens
      const accounts = yield* Accounts
      const directory = yield* ParticipantDirectory
      const actions = yield* TaskActions
      const artifacts = yield* Artifacts
      const tasks = yield* Tasks
      const store = yield* TaskStore
      const orAction = orActionFailure(docs)

      /** A sign-up not approved yet: signed in, but no participant of the marketplace until then. */
      const awaitingApproval = (slug: string) =>
        Effect.fail(
          envelopeError(
            docs,
            "forbidden",
            `Your profile (${slug}) awaits the marketplace operator's approval: until then you receive no offers and cannot act on tasks.`,
            {
              hint: "Nothing to change on your side: once the operator approves your profile, this same sign-in works (no new sign-in needed)."
            }
          )
        )

      // Generators made once, not per request (docs/performance.md, "No generator function made per request").
      const verified = Effect.fnUntraced(function* (token: string, audience: string) {
        const { subject } = yield* accessTokens.verify(token, audience)
        const link = yield* accounts.linkOf(subject)
        if (link === undefined)
          return yield* new NotPermitted({ reason: "your account is not linked to a participant" })
        if (link.pending) return yield* awaitingApproval(link.slug)
        return { subject, slug: link.slug }
      })
      const signIn = (token: string | undefined, { audience, metadataPath }: ProtectedResource) =>
        token === undefined
          ? Effect.fail(
              envelopeError(docs, "unauthorized", "This endpoint needs a participant's OAuth access token.", {
                hint: `Sign in with OAuth 2.1 (see ${metadataPath}) and send Authorization: Bearer <access token>.`
              })
            )
          : orAction(verified(token, audience))

      const me = Effect.fnUntraced(function* ({ subject, slug }: Caller) {
        const participant = yield* orAction(directory.findBySlug(slug))
        if (participant === undefined) {
          return yield* envelopeError(
            docs,
            "forbidden",
            "Your account is linked to a participant that no longer exists.",
            {
              hint: "Ask the operator to link your account again."
            }
          )
        }
        const account: Account = {
          object: "account",
          subject,
          participant: presentParticipant(config.publicBaseUrl, participant)
        }
        return account
      })

      const myTasks = ({ slug }: Caller) =>
        Effect.map(
          orAction(tasks.forParticipant(slug)),
          (data): TaskList => ({ object: "list", count: data.length, data })
        )

      const board = ({ slug }: Caller) =>
        Effect.map(
          orAction(store.forParticipant(slug)),
          (stored): ReadonlyArray<TaskOnBoard> =>
            stored.map((task) => ({
              task: tasks.view(task),
              offerExpiresAt: task.state === "awaiting_participant" ? task.offerExpiresAt : null,
              reviewDueAt: task.state === "submitted" ? task.reviewDueAt : null
            }))
        )

      /** A move made, as the task now reads. */
      const moved = <E>(move: Effect.Effect<StoredTask, E>) => Effect.map(orAction(move), tasks.view)

      const uploadFile = <E extends EnvelopeError>(
        { slug }: Caller,
        reference: string,
        name: string,
        body: Stream.Stream<Uint8Array, E>
      ) =>
        Effect.map(orAction(artifacts.stage({ reference, slug, name, body })), (file) =>
          presentFile(config.publicBaseUrl, file)
        )

      return ParticipantOperations.of({
        ...(yield* makeConsoleOperations),
        signIn,
        me,
        myTasks,
        board,
        checkHolder: ({ slug }, reference) => orAction(actions.checkHolder(reference, slug)),
        accept: ({ slug }, reference) => moved(actions.accept(reference, slug)),
        decline: ({ slug }, reference, reason) => moved(actions.decline(reference, slug, reason ?? undefined)),
        start: ({ slug }, reference) => moved(actions.start(reference, slug)),
        submitResult: ({ slug }, reference, result) => moved(actions.submit(reference, slug, result)),
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
      ParticipantDirectory.layer,
      Profiles.layerWithDependencies,
      SandboxClock.layerWithDependencies,
      TaskActions.layerWithDependencies,
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
  /** The most bytes a file may have and the most files a result may carry. */
  readonly uploadLimits: { readonly maxFileBytes: number; readonly maxFiles: number }
  /** Stages a file of the caller's for a result (`Artifacts.stage`), with the store's own refusals. */
  stageFile<E>(
    caller: Caller,
    reference: string,
    name: string,
    body: Stream.Stream<Uint8Array, E>
  ): Effect.Effect<
    StoredFile,
    ArtifactRejected | StorageUnavailable | TaskNotFound | NotPermitted | UploadNotAllowed | E
  >
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

  return {
    tasksNow: time.now,
    profile,
    updateProfile,
    setAvailable,
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
