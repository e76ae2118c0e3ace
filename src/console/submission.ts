/**
 * Handing in a result from the console: one multipart form with the summary, the task's fields
 * (generated from its `result_schema`: src/pages/result_form.ts), files, links and notes.
 *
 * The form is read as a stream, part by part: the CSRF token comes first (it is the form's first
 * control) and must match before any file is taken; each file streams straight into the artifact
 * store (never whole into memory), refused past its size or the number of files a result may carry.
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
import { ResultSubmission } from "../domain/moves.ts"
import type { Artifact } from "../domain/task.ts"
import type { Caller, ParticipantOperations } from "../operations/participant.ts"
import {
  controlForPointer,
  type FormField,
  type FormValues,
  formFieldsOf,
  noValues,
  readFormFields,
  renderFormFields
} from "../pages/result_form.ts"
import type { Artifacts } from "../services/artifacts.ts"
import type { ResultFormInput } from "./pages.ts"

/** The form's text controls: the summary and notes are 4,000 characters, a JSON box a little more. */
const maxFieldBytes = ByteSize.kibibytes(64)

/** What the form sent, once read. */
interface Received {
  csrf: string | undefined
  /** A file came before the CSRF token: the form is not our page's (its token comes first). */
  fileBeforeToken: boolean
  readonly values: Map<string, Array<string>>
  readonly files: Array<{ readonly id: string; readonly name: string }>
  /** Why the form could not be taken as it is (a file refused), shown above the form. */
  refusal: string | undefined
}

export type SubmissionOutcome =
  | { readonly _tag: "Submitted" }
  | { readonly _tag: "ForeignForm" }
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

export const makeSubmission = (options: {
  readonly operations: ParticipantOperations["Service"]
  readonly artifacts: Artifacts["Service"]
}) => {
  const { operations, artifacts } = options
  const { maxFiles, maxFileBytes } = artifacts.limits
  const tooLarge = `Each file may be at most ${megabytes(maxFileBytes)}; nothing was submitted. Choose smaller files and submit again.`
  const tooMany = `A result may carry at most ${maxFiles} files; nothing was submitted.`

  /** Reads the form part by part, storing each file as it streams in. */
  const receive = (
    request: HttpServerRequest.HttpServerRequest,
    caller: Caller,
    reference: string,
    formIsOurs: (csrf: string | undefined) => boolean
  ) => {
    const received: Received = {
      csrf: undefined,
      fileBeforeToken: false,
      values: new Map(),
      files: [],
      refusal: undefined
    }
    const refuse = (refusal: string) =>
      Effect.sync(() => {
        received.refusal = refusal
        return undefined
      })
    const take = (part: Multipart.Part) =>
      Effect.gen(function* () {
        if (part._tag === "Field") {
          if (part.key === "csrf" && received.csrf === undefined) received.csrf = part.value
          else received.values.set(part.key, [...(received.values.get(part.key) ?? []), part.value])
          return
        }
        if (part._tag !== "File") return
        // No file is taken from a form that has not shown it is this session's own.
        if (!formIsOurs(received.csrf)) received.fileBeforeToken = true
        if (received.fileBeforeToken || received.refusal !== undefined || part.name === "") {
          return yield* Stream.runDrain(part.content)
        }
        if (received.files.length >= maxFiles) {
          received.refusal = tooMany
          return yield* Stream.runDrain(part.content)
        }
        const stored = yield* artifacts
          .stage({ reference, slug: caller.slug, name: part.name, body: part.content })
          .pipe(
            Effect.map((file) => ({ id: file.id, name: file.name })),
            // Refused (too large, the task not in progress, not the caller's): said above the form.
            Effect.catchTags({
              ArtifactRejected: (rejected) => refuse(`${part.name}: ${rejected.message}`),
              UploadNotAllowed: (refused) => refuse(refused.message),
              NotPermitted: (refused) => refuse(refused.message),
              TaskNotFound: (refused) => refuse(refused.message)
            })
          )
        if (stored !== undefined) received.files.push(stored)
      })
    return Stream.runForEach(request.multipartStream, take).pipe(
      Effect.provideService(Multipart.MaxFileSize, ByteSize.bytes(maxFileBytes)),
      Effect.provideService(Multipart.MaxFieldSize, maxFieldBytes),
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxFiles * maxFileBytes + 1048576)),
      Effect.catchTag("MultipartError", (error) =>
        Effect.sync(() => {
          received.refusal =
            error.reason._tag === "FileTooLarge" || error.reason._tag === "BodyTooLarge"
              ? tooLarge
              : "The form could not be read; nothing was submitted. Please try again."
        })
      ),
      Effect.as(received),
      // Interrupted or failed midway: the files already stored go again.
      Effect.onError(() =>
        artifacts
          .discard(
            received.files.map((file) => file.id),
            { reference, slug: caller.slug }
          )
          .pipe(Effect.ignore)
      )
    )
  }

  /** A line of `links` that is an http(s) address. */
  const linkArtifacts = (text: string) => {
    const lines = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== "")
    const bad = lines.find((line) => !URL.canParse(line) || !/^https?:$/.test(new URL(line).protocol))
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
      if (received.fileBeforeToken || !formIsOurs(received.csrf)) {
        yield* artifacts.discard(
          received.files.map((file) => file.id),
          { reference, slug: caller.slug }
        )
        return { _tag: "ForeignForm" } satisfies SubmissionOutcome
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
      if (bad !== undefined) problems.set("links", `"${bad}" is not an address starting with https:// or http://.`)
      const notes = (values.get("notes")?.[0] ?? "").trim()

      const refused = (status: number) =>
        Effect.as(
          artifacts.discard(
            received.files.map((file) => file.id),
            { reference, slug: caller.slug }
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
      const decoded = yield* Schema.decodeUnknownEffect(ResultSubmission)(candidate).pipe(Effect.result)
      if (decoded._tag === "Failure") {
        topProblems.push(decoded.failure.message)
        return yield* refused(422)
      }
      const outcome = yield* Effect.result(operations.submitResult(caller, reference, decoded.success))
      if (outcome._tag === "Success") return { _tag: "Submitted" } satisfies SubmissionOutcome
      const refusal = outcome.failure.error
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
      return yield* refused(refusal.status)
    })

  return { submit }
}
