/**
 * Handing in a result from the console: one multipart form with the summary, the task's fields
 * (generated from its `result_schema`: src/pages/result_form/), files, links and notes.
 *
 * The form is read as a stream, part by part: the CSRF token comes first (it is the form's first
 * control) and must match, or nothing after it is read; the text of the form is bounded
 * (`maxFormTextBytes`, one control `maxFieldBytes`), and reading stops past it; each file streams
 * straight into the artifact store (never whole into memory), refused past its size or the number
 * of files a result may carry.
 * Then the result goes through the same operation as REST and MCP, which checks the fields against
 * the task's schema and attaches the files in the same transaction as the submission. Whatever
 * refuses it — a field the page could not read, the service, a file too large — the files stored
 * for it are removed again: an upload completes with its submission or leaves nothing behind.
 */
import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Multipart from "effect/http/Multipart"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type EnvelopedRefusal, statusOf } from "../api/envelope.ts"
import { maxBodyBytes, maxJsonDepth } from "../api/parameters.ts"
import { linkProblem } from "../domain/evidence.ts"
import { pathDeeperThan } from "../domain/json_depth.ts"
import { ResultSubmission } from "../domain/moves.ts"
import { escapePointer } from "../domain/result_schema.ts"
import type { Artifact } from "../domain/task.ts"
import type { Caller, ParticipantOperations } from "../operations/participant.ts"
import { type FormField, type FormValues, noValues } from "../pages/result_form/fields.ts"
import { controlForPointer } from "../pages/result_form/pointer.ts"
import { readFormFields } from "../pages/result_form/read.ts"
import { renderFormFields } from "../pages/result_form/render.ts"
import { formFieldsOf } from "../pages/result_form/schema_fields.ts"
import type { ResultFormInput } from "./pages.ts"

/** One text control: the summary and notes are 4,000 characters, a JSON box a little more. */
const maxFieldBytes = ByteSize.kibibytes(64)

/**
 * All the text of a result form, every control's name and value in UTF-8 bytes: twice a REST
 * result's body (`maxBodyBytes`), which the values of a result that REST would take cannot exceed,
 * leaving the controls' names as much again. Reading stops past it (files are bounded apart).
 */
export const maxFormTextBytes = 2 * maxBodyBytes

/** What the form sent, once read. */
interface Received {
  /** Whether the form's first part was this session's CSRF token: if not, nothing after it was read. */
  ours: boolean
  /** The bytes of text (names and values) read so far. */
  textBytes: number
  /** The text went past `maxFormTextBytes`: reading stopped there. */
  tooLarge: boolean
  readonly values: Map<string, Array<string>>
  readonly files: Array<{ readonly id: string; readonly name: string }>
  /** Why the form could not be taken as it is (a file refused), shown above the form. */
  refusal: string | undefined
}

/** How a submission ended. `ForeignForm` and `TooLarge` left the rest of the body unread. */
export type SubmissionOutcome =
  | { readonly _tag: "Submitted" }
  | { readonly _tag: "ForeignForm" }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Refused"; readonly form: ResultFormInput; readonly status: number }

const megabytes = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MB`

/** The result form of a task, empty or with what the person sent (and the problems to show). */
export const resultFormOf = (
  schema: Parameters<typeof formFieldsOf>[0],
  sent?: {
    /** What each control held (by name): what the person sent, or the result being revised. */
    readonly values: FormValues
    readonly problems: ReadonlyMap<string, string>
    readonly topProblems: ReadonlyArray<string>
  }
): ResultFormInput & { readonly fieldList: ReadonlyArray<FormField> } => {
  const fields = formFieldsOf(schema)
  const value = sent?.values ?? noValues
  const first = (name: string) => value(name)[0]
  return {
    fieldList: fields,
    fields: renderFormFields(fields, value, sent?.problems ?? new Map()),
    summary: first("summary"),
    links: first("links"),
    notes: first("notes"),
    problems: sent?.topProblems,
    fieldProblems: sent?.problems
  }
}

export const makeSubmission = (options: { readonly operations: ParticipantOperations["Service"] }) => {
  const { operations } = options
  const { maxFiles, maxFileBytes } = operations.uploadLimits
  const tooLarge = `Each file may be at most ${megabytes(maxFileBytes)}; nothing was submitted. Choose smaller files and submit again.`
  const tooMany = `A result may carry at most ${maxFiles} files; nothing was submitted.`

  /**
   * Reads the form part by part, storing each file as it streams in; stops at a first part that
   * is not this session's token, and where the text passes `maxFormTextBytes`.
   */
  const receive = (
    request: HttpServerRequest.HttpServerRequest,
    caller: Caller,
    reference: string,
    formIsOurs: (csrf: string | undefined) => boolean
  ) => {
    const received: Received = {
      ours: false,
      textBytes: 0,
      tooLarge: false,
      values: new Map(),
      files: [],
      refusal: undefined
    }
    const refuse = (refusal: string) =>
      Effect.sync(() => {
        received.refusal = refusal
        return undefined
      })
    /** Takes one part; false stops the reading (the rest of the body is never read). */
    const take = (part: Multipart.Part) =>
      Effect.gen(function* () {
        // Our page's token is its first control: a form whose first part is anything else, or
        // another token, is not this session's page, and nothing more of it is read.
        if (!received.ours) {
          received.ours = part._tag === "Field" && part.key === "csrf" && formIsOurs(part.value)
          return received.ours
        }
        if (part._tag === "Field") {
          received.textBytes += Buffer.byteLength(part.key) + Buffer.byteLength(part.value)
          if (received.textBytes > maxFormTextBytes) {
            received.tooLarge = true
            return false
          }
          received.values.set(part.key, [...(received.values.get(part.key) ?? []), part.value])
          return true
        }
        if (received.refusal !== undefined || part.name === "") {
          yield* Stream.runDrain(part.content)
          return true
        }
        if (received.files.length >= maxFiles) {
          received.refusal = tooMany
          yield* Stream.runDrain(part.content)
          return true
        }
        const stored = yield* operations.stageFile(caller, reference, part.name, part.content).pipe(
          Effect.map((file) => ({ id: file.id, name: file.name })),
          // Refused (too large, the task not in progress, not the caller's): said above the form.
          Effect.catchTags({
            ArtifactRejected: (rejected) => refuse(`${part.name}: ${rejected.message}`),
            ArtifactTooLarge: (rejected) => refuse(`${part.name}: ${rejected.message}`),
            TooManyStagedFiles: (rejected) => refuse(`${part.name}: ${rejected.message}`),
            UploadNotAllowed: (refused) => refuse(refused.message),
            NotPermitted: (refused) => refuse(refused.message),
            TaskNotFound: (refused) => refuse(refused.message)
          })
        )
        if (stored !== undefined) received.files.push(stored)
        return true
      })
    return Stream.runForEachWhile(request.multipartStream, take).pipe(
      Effect.provideService(Multipart.MaxFileSize, ByteSize.bytes(maxFileBytes)),
      Effect.provideService(Multipart.MaxFieldSize, maxFieldBytes),
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxFiles * maxFileBytes + 1048576)),
      Effect.catchTag("MultipartError", (error) =>
        Effect.sync(() => {
          // One text control past its own limit is text past the form's, said the same way.
          if (error.reason._tag === "FieldTooLarge") received.tooLarge = true
          else
            received.refusal =
              error.reason._tag === "FileTooLarge" || error.reason._tag === "BodyTooLarge"
                ? tooLarge
                : "The form could not be read; nothing was submitted. Please try again."
        })
      ),
      Effect.as(received),
      // Interrupted or failed midway: the files already stored go again.
      Effect.onError(() =>
        operations
          .discardFiles(
            caller,
            reference,
            received.files.map((file) => file.id)
          )
          .pipe(Effect.ignore)
      )
    )
  }

  /** Each line of `links` a link artifact, and the first line that is not a link (`linkProblem`), if any. */
  const linkArtifacts = (text: string) => {
    const lines = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== "")
    const bad = lines.find((line) => linkProblem(line) !== undefined)
    return { links: lines.map((value): Artifact => ({ kind: "url", value })), bad }
  }

  const submit = (
    request: HttpServerRequest.HttpServerRequest,
    caller: Caller,
    reference: string,
    schema: Parameters<typeof formFieldsOf>[0],
    /** Whether `csrf` is the token of the session that sent the form (and no other site sent it). */
    formIsOurs: (csrf: string | undefined) => boolean
  ) =>
    Effect.gen(function* () {
      const received = yield* receive(request, caller, reference, formIsOurs)
      // Not our page's: nothing was stored. Too large: what was stored goes again.
      if (!received.ours) return { _tag: "ForeignForm" } satisfies SubmissionOutcome
      if (received.tooLarge) {
        yield* operations.discardFiles(
          caller,
          reference,
          received.files.map((file) => file.id)
        )
        return { _tag: "TooLarge" } satisfies SubmissionOutcome
      }
      const fields: ReadonlyArray<FormField> = formFieldsOf(schema)
      const values = received.values
      const read = readFormFields(fields, (name) => values.get(name) ?? [])
      const problems = new Map(read.problems)
      const topProblems: Array<string> = []
      if (received.refusal !== undefined) topProblems.push(received.refusal)
      const summary = values.get("summary")?.[0] ?? ""
      if (summary.trim() === "") problems.set("summary", "Write a summary of what you did and found.")
      const { links, bad } = linkArtifacts(values.get("links")?.[0] ?? "")
      if (bad !== undefined) {
        problems.set("links", `"${bad}" is not a web address starting with https:// or http:// (without a password).`)
      }
      const notes = (values.get("notes")?.[0] ?? "").trim()

      const refused = (status: number) =>
        Effect.as(
          operations.discardFiles(
            caller,
            reference,
            received.files.map((file) => file.id)
          ),
          {
            _tag: "Refused",
            status,
            form: resultFormOf(schema, {
              values: (name) => values.get(name) ?? [],
              problems,
              topProblems: [
                ...topProblems,
                ...(received.files.length > 0 ? ["Choose your files again: they were not kept."] : [])
              ]
            })
          } satisfies SubmissionOutcome
        )

      if (topProblems.length > 0 || problems.size > 0) return yield* refused(422)

      const candidate = {
        summary,
        fields: read.fields,
        artifacts: [
          ...received.files.map(({ id }) => ({ kind: "file", id })),
          ...links,
          ...(notes === "" ? [] : [{ kind: "text", value: notes }])
        ]
      }
      // Held to the depth a REST body is held to (a JSON box can nest anything), before anything recurses over it.
      const deep = pathDeeperThan(candidate, maxJsonDepth)
      if (deep !== undefined) {
        const control = controlForPointer(fields, `/${deep.map(escapePointer).join("/")}`)
        const message = `This is nested deeper than ${maxJsonDepth} levels of objects and arrays, more than the marketplace takes.`
        if (control === undefined) topProblems.push(message)
        else problems.set(control, message)
        return yield* refused(422)
      }
      const decoded = yield* Schema.decodeUnknownEffect(ResultSubmission)(candidate).pipe(Effect.result)
      if (decoded._tag === "Failure") {
        topProblems.push(decoded.failure.message)
        return yield* refused(422)
      }
      const outcome = yield* Effect.result(operations.submitResult(caller, reference, decoded.success))
      if (outcome._tag === "Success") return { _tag: "Submitted" } satisfies SubmissionOutcome
      const refusal: EnvelopedRefusal = outcome.failure
      // The service names each failing field by its JSON Pointer: shown beside its control.
      let placed = false
      for (const detail of refusal.details ?? []) {
        const control = controlForPointer(fields, detail.field)
        if (control !== undefined) {
          problems.set(control, detail.message)
          placed = true
        } else topProblems.push(detail.message)
      }
      if (!placed || (refusal.details ?? []).length === 0) {
        topProblems.unshift(`${refusal.message}${refusal.hint === undefined ? "" : ` ${refusal.hint}`}`)
      }
      return yield* refused(statusOf(refusal))
    })

  return { submit }
}
