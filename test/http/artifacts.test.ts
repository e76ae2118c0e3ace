// Evidence over HTTP (issue 24), on SQLite and on Postgres: a participant uploads files to a task
// they work on (REST), names them in the result, and the agent reads them back with its task token
// — the bytes as uploaded, the headers of a download that a browser never renders. Another
// participant, an anonymous client, a wrong or malformed token, an unknown id: refused in the
// envelope, nothing changed. A result naming files it cannot carry is 422 and attaches nothing.
// The same round trip runs over the S3 store (s3rver).
import { createHash, randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Ajv2020 } from "ajv/dist/2020.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ResultSubmission, UploadedFile } from "../../src/api/resources.ts"
import type { ArtifactStore } from "../../src/config/settings.ts"
import { Task } from "../../src/domain/task.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, exchange } from "../support/api_client.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { startS3, type TestS3 } from "../support/s3.ts"
import {
  awaitTask,
  digitalDraft,
  expectEnvelope,
  json,
  notExactly,
  type ServerOnDatabase,
  startOnFreshDatabase
} from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")
const maxFileBytes = 64 * 1024
const maxFiles = 3

let issuer: TestIssuer
let s3: TestS3
const directories: Array<string> = []
const envs: Array<ServerOnDatabase> = []

const startWith = async (store: ArtifactStore) => {
  const env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, artifacts: { store, maxFileBytes, maxFiles } }
  })
  envs.push(env)
  return env
}

let main: ServerOnDatabase
beforeAll(async () => {
  issuer = await startIssuer()
  s3 = await startS3()
  const directory = mkdtempSync(join(tmpdir(), "tm-artifacts-http-"))
  directories.push(directory)
  main = await startWith({ _tag: "Files", directory })
})
afterAll(async () => {
  for (const env of envs) await env.close()
  await s3?.close()
  await issuer?.close()
  for (const directory of directories) rmSync(directory, { recursive: true, force: true })
})

/** A participant signed in with a real access token linked to `slug`. */
const participant = async (env: ServerOnDatabase, slug: string) => {
  const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
  await linkAccount(env.database, subject, slug)
  const token = await issuer.token({ sub: subject })
  const authorization = `Bearer ${token}`
  const api = env.server.api
  return {
    slug,
    token,
    authorization,
    accept: (reference: string) => exchange(env.server, (c) => c.acceptTask({ params: { reference } }), { token }),
    start: (reference: string) => exchange(env.server, (c) => c.startTask({ params: { reference } }), { token }),
    /** A result the document accepts, through the typed client. */
    submit: (reference: string, result: unknown) =>
      exchange(
        env.server,
        (c) => c.submitTask({ params: { reference }, payload: asPayload(ResultSubmission, result) }),
        { token }
      ),
    /** Raw: a body the document refuses, which no client derived from it sends. */
    post: (path: string, body?: unknown) =>
      fetch(
        api(path),
        body === undefined ? { method: "POST", headers: { authorization } } : json(body, { authorization })
      ),
    // Raw: the upload's bytes and headers are what these tests are about.
    upload: (reference: string, name: string, bytes: Uint8Array, headers: Record<string, string> = {}) =>
      fetch(api(`/tasks/${reference}/artifacts?name=${encodeURIComponent(name)}`), {
        method: "POST",
        headers: { authorization, "content-type": "application/octet-stream", ...headers },
        body: new Uint8Array(bytes)
      })
  }
}

/** A task named for `slug`, accepted and started by them: in_flight, with the agent's token. */
const workingTask = async (env: ServerOnDatabase, slug = "kwame-asante") => {
  const created = await exchange(env.server, (c) =>
    c.createTask({
      payload: asPayload(TaskDraft, digitalDraft({ participant_slug: slug })),
      headers: { "idempotency-key": randomUUID() }
    })
  )
  expect(created.status).toBe(201)
  const { reference, task_token: token } = await created.json()
  await awaitTask(env.server.api(`/tasks/${reference}`), (task) => task.state === "awaiting_participant", {
    timeoutMs: 10_000
  })
  const holder = await participant(env, slug)
  expect((await holder.accept(reference)).status).toBe(200)
  expect((await holder.start(reference)).status).toBe(200)
  return { reference: reference as string, token: token as string, holder }
}

// Raw: a download's exact bytes and headers are what these tests are about.
const download = (env: ServerOnDatabase, reference: string, id: string, authorization?: string) =>
  fetch(env.server.api(`/tasks/${reference}/artifacts/${id}`), {
    headers: authorization === undefined ? {} : { authorization }
  })

const readTask = (env: ServerOnDatabase, reference: string) =>
  exchange(env.server, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))

const read = async (env: ServerOnDatabase, reference: string): Promise<Json> => (await readTask(env, reference)).json()

/** What the refusals must leave as it was: the task's version and every file row. */
const stateOf = async (env: ServerOnDatabase, reference: string) => ({
  version: (await readTask(env, reference)).headers.get("etag"),
  files: await env.database.rows("SELECT id, attached_at FROM artifacts ORDER BY id")
})

/** Holds an answer to the OpenAPI document: the status is one it lists for the operation. */
let document: Json
const listed = async (operationId: string, status: number) => {
  // Raw: the document as served is the subject.
  document ??= await (await fetch(`${main.server.url}/openapi.json`)).json()
  const operation = Object.values(document.paths as Record<string, Record<string, Json>>)
    .flatMap((methods) => Object.values(methods))
    .find((op) => op.operationId === operationId)
  expect(operation?.responses?.[String(status)], `${operationId} documents ${status}`).toBeDefined()
}

describe("evidence files over HTTP", () => {
  it("a participant uploads, submits the file in a result, and the agent downloads it with its task token", async () => {
    const { reference, token, holder } = await workingTask(main)
    // A PNG sent as a PDF named .pdf is a PNG: the type is read from the bytes.
    const uploaded = await holder.upload(reference, "storefront/Front ☀.pdf", png, {
      "content-type": "application/pdf"
    })
    expect(uploaded.status).toBe(201)
    await listed("uploadArtifact", 201)
    const file: Json = await uploaded.json()
    expect(notExactly(UploadedFile, file)).toBeUndefined()
    expect(file).toMatchObject({
      object: "file",
      reference,
      uploader: "kwame-asante",
      name: "Front ☀.pdf",
      content_type: "image/png",
      size: png.length,
      sha256: sha256(png),
      attached: false,
      url: main.server.api(`/tasks/${reference}/artifacts/${file.id}`)
    })
    const notes = Buffer.from("Opening hours: 8–18\n", "utf8")
    const text: Json = await (await holder.upload(reference, "notes.txt", notes)).json()
    expect(text.content_type).toBe("text/plain; charset=utf-8")

    // The uploader reads a staged file; the agent does not see it yet.
    const own = await download(main, reference, file.id, holder.authorization)
    expect(own.status).toBe(200)
    expect(sha256(Buffer.from(await own.arrayBuffer()))).toBe(sha256(png))
    await expectEnvelope(await download(main, reference, file.id, `Bearer ${token}`), 404, "artifact_not_found")

    const submitted = await holder.submit(reference, {
      summary: "Photographed the storefront",
      artifacts: [
        { kind: "file", id: file.id, description: "The storefront" },
        { kind: "url", value: "https://example.com/album" },
        // A file named only, as results always could.
        { kind: "file", value: "sent-by-mail.jpg" },
        { kind: "file", id: text.id }
      ]
    })
    expect(submitted.status).toBe(200)
    const task: Json = await read(main, reference)
    expect(notExactly(Task, task)).toBeUndefined()
    expect(task.state).toBe("submitted")
    expect(task.result.artifacts).toEqual([
      {
        kind: "file",
        value: "Front ☀.pdf",
        id: file.id,
        name: "Front ☀.pdf",
        content_type: "image/png",
        size: png.length,
        sha256: sha256(png),
        url: file.url,
        description: "The storefront"
      },
      { kind: "url", value: "https://example.com/album" },
      { kind: "file", value: "sent-by-mail.jpg" },
      {
        kind: "file",
        value: "notes.txt",
        id: text.id,
        name: "notes.txt",
        content_type: "text/plain; charset=utf-8",
        size: notes.length,
        sha256: sha256(notes),
        url: text.url
      }
    ])

    const answer = await download(main, reference, file.id, `Bearer ${token}`)
    expect(answer.status).toBe(200)
    await listed("downloadArtifact", 200)
    const bytes = Buffer.from(await answer.arrayBuffer())
    expect(sha256(bytes)).toBe(sha256(png))
    expect(Object.fromEntries(answer.headers)).toMatchObject({
      "content-type": "image/png",
      "content-length": String(png.length),
      "content-disposition": `attachment; filename="Front _.pdf"; filename*=UTF-8''Front%20%E2%98%80.pdf`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      etag: `"${sha256(png)}"`,
      "cache-control": "private, no-store"
    })
    // HEAD answers the same headers without the bytes.
    const head = await fetch(main.server.api(`/tasks/${reference}/artifacts/${file.id}`), {
      method: "HEAD",
      headers: { authorization: `Bearer ${token}` }
    })
    expect(head.status).toBe(200)
    expect(head.headers.get("etag")).toBe(`"${sha256(png)}"`)
    expect((await head.arrayBuffer()).byteLength).toBe(0)
    const plain = await download(main, reference, text.id, `Bearer ${token}`)
    expect(plain.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    expect(await plain.text()).toBe(notes.toString("utf8"))
    // The uploader still reads their file once it is attached.
    expect((await download(main, reference, file.id, holder.authorization)).status).toBe(200)
  })

  it("anyone else is refused in the envelope and nothing changes", async () => {
    const { reference, token, holder } = await workingTask(main)
    const other = await workingTask(main, "sofia-rossi")
    const file: Json = await (await holder.upload(reference, "a.png", png)).json()
    const staged: Json = await (await holder.upload(reference, "b.png", png)).json()
    const foreign: Json = await (await other.holder.upload(other.reference, "c.png", png)).json()
    expect(
      (await holder.submit(reference, { summary: "done", artifacts: [{ kind: "file", id: file.id }] })).status
    ).toBe(200)
    // A file the result does not name stays staged (the agent may not read it).
    const before = await stateOf(main, reference)

    const url = (id: string) => main.server.api(`/tasks/${reference}/artifacts/${id}`)
    const refusals: Array<[string, Response, number, string]> = [
      ["no token", await download(main, reference, file.id), 401, "unauthorized"],
      [
        "a scheme other than Bearer",
        await fetch(url(file.id), { headers: { authorization: `Basic ${token}` } }),
        401,
        "unauthorized"
      ],
      ["a malformed bearer", await download(main, reference, file.id, "Bearer a b c"), 401, "unauthorized"],
      [
        "a task token that is not one",
        await download(main, reference, file.id, "Bearer tt_forged"),
        401,
        "unauthorized"
      ],
      ["another task's token", await download(main, reference, file.id, `Bearer ${other.token}`), 401, "unauthorized"],
      ["a bearer that is no token", await download(main, reference, file.id, "Bearer nonsense"), 401, "unauthorized"],
      [
        "another participant",
        await download(main, reference, file.id, other.holder.authorization),
        404,
        "artifact_not_found"
      ],
      [
        "an unknown id",
        await download(main, reference, "art_aaaaaaaaaaaaaaaaaaaaaaaaaa", `Bearer ${token}`),
        404,
        "artifact_not_found"
      ],
      [
        "a malformed id",
        await download(main, reference, encodeURIComponent("../../etc/passwd"), `Bearer ${token}`),
        404,
        "artifact_not_found"
      ],
      [
        "another task's file",
        await download(main, reference, foreign.id, `Bearer ${token}`),
        404,
        "artifact_not_found"
      ],
      [
        "a file no result names",
        await download(main, reference, staged.id, `Bearer ${token}`),
        404,
        "artifact_not_found"
      ]
    ]
    for (const [what, response, status, code] of refusals) {
      const error = await expectEnvelope(response, status, code).catch((cause) => {
        throw new Error(`${what}: ${cause}`)
      })
      expect(error.message, what).not.toContain("sofia-rossi")
      await listed("downloadArtifact", status)
      if (status === 401) expect(response.headers.get("www-authenticate"), what).toMatch(/^Bearer /)
    }
    // Another participant's answer is the same as for a file that does not exist.
    const theirs = await (await download(main, reference, file.id, other.holder.authorization)).json()
    const none = await (
      await download(main, reference, "art_bbbbbbbbbbbbbbbbbbbbbbbbbb", other.holder.authorization)
    ).json()
    expect({ ...theirs.error, message: "" }).toEqual({ ...none.error, message: "" })
    expect(await stateOf(main, reference)).toEqual(before)
  })

  it("a result naming files it cannot carry is 422 artifact_invalid and attaches nothing", async () => {
    const { reference, holder } = await workingTask(main)
    const other = await workingTask(main, "sofia-rossi")
    const mine: Json = await (await holder.upload(reference, "mine.png", png)).json()
    const foreign: Json = await (await other.holder.upload(other.reference, "theirs.png", png)).json()
    const before = await stateOf(main, reference)

    const submit = (artifacts: Array<unknown>) =>
      holder.post(`/tasks/${reference}/submit`, { summary: "done", artifacts })
    const unknown = await expectEnvelope(
      await submit([
        { kind: "file", id: mine.id },
        { kind: "file", id: foreign.id },
        { kind: "file", id: "art_cccccccccccccccccccccccccc" }
      ]),
      422,
      "artifact_invalid"
    )
    expect(unknown.details?.map((d) => d.field)).toEqual(["artifacts.1.id", "artifacts.2.id"])
    await listed("submitTask", 422)
    const tooMany = await expectEnvelope(
      await submit(Array.from({ length: maxFiles + 1 }, () => ({ kind: "file", id: mine.id }))),
      422,
      "artifact_invalid"
    )
    expect(tooMany.details?.map((d) => d.field)).toEqual(["artifacts"])
    // A file reference without its id is malformed, as any artifact without its value.
    const noId = await expectEnvelope(await submit([{ kind: "file", id: " " }]), 400, "invalid_request")
    expect(noId.details?.[0]?.field).toMatch(/^artifacts\.0\./)
    expect(await stateOf(main, reference)).toEqual(before)
    expect((await read(main, reference)).state).toBe("in_flight")
    const rows = await main.database.rows(
      `SELECT attached_at FROM artifacts WHERE attached_at IS NOT NULL AND reference = '${reference}'`
    )
    expect(rows).toEqual([])
  })

  it("a url artifact must be an absolute http(s) URL: anything else is 400 invalid_request naming its value", async () => {
    const { reference, holder } = await workingTask(main)
    const before = await stateOf(main, reference)
    const submit = (value: string) =>
      holder.post(`/tasks/${reference}/submit`, {
        summary: "done",
        artifacts: [
          { kind: "text", value: "notes" },
          { kind: "url", value }
        ]
      })
    for (const value of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "the report is on the shared drive",
      "/reports/1",
      "ftp://x.example/a",
      "https://user:secret@x.example/a"
    ]) {
      const refused = await expectEnvelope(await submit(value), 400, "invalid_request")
      expect(refused.details, value).toEqual([expect.objectContaining({ field: "artifacts.1.value", code: "invalid" })])
      expect(refused.details?.[0]?.message).toMatch(/url artifact's value must/)
    }
    expect(await stateOf(main, reference)).toEqual(before)
    expect((await read(main, reference)).state).toBe("in_flight")
    const kept = await submit("https://x.example/a")
    expect(kept.status).toBe(200)
    expect(((await kept.json()) as Json).result.artifacts[1]).toEqual({ kind: "url", value: "https://x.example/a" })
  })

  it("uploads are refused past the limit, out of turn, to the wrong party and without a name, and nothing is kept", async () => {
    const { reference, holder } = await workingTask(main)
    const other = await participant(main, "sofia-rossi")
    const rowsBefore = await main.database.count("artifacts")
    const api = main.server.api
    const tooLarge = Buffer.alloc(maxFileBytes + 1, 7)
    await expectEnvelope(await holder.upload(reference, "big.bin", tooLarge), 413, "payload_too_large")
    await listed("uploadArtifact", 413)
    // Without a length to refuse it by: the stream is cut at the limit.
    const chunked = await fetch(api(`/tasks/${reference}/artifacts?name=big.bin`), {
      method: "POST",
      headers: { authorization: holder.authorization, "content-type": "application/octet-stream" },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(maxFileBytes / 4))
          controller.close()
        }
      }),
      duplex: "half"
    } as RequestInit)
    await expectEnvelope(chunked, 413, "payload_too_large")
    await expectEnvelope(await holder.upload(reference, "empty.txt", new Uint8Array(0)), 400, "invalid_request")
    await expectEnvelope(await holder.upload(reference, "/", png), 400, "invalid_request")
    const noName = await fetch(api(`/tasks/${reference}/artifacts`), {
      method: "POST",
      headers: { authorization: holder.authorization },
      body: png
    })
    await expectEnvelope(noName, 400, "invalid_request")
    await listed("uploadArtifact", 400)
    const form = new FormData()
    form.append("file", new Blob([png]), "a.png")
    const multipart = await fetch(api(`/tasks/${reference}/artifacts?name=a.png`), {
      method: "POST",
      headers: { authorization: holder.authorization },
      body: form
    })
    await expectEnvelope(multipart, 415, "unsupported_media_type")
    await expectEnvelope(await other.upload(reference, "a.png", png), 403, "forbidden")
    await listed("uploadArtifact", 403)
    const anonymous = await fetch(api(`/tasks/${reference}/artifacts?name=a.png`), { method: "POST", body: png })
    await expectEnvelope(anonymous, 401, "unauthorized")
    await expectEnvelope(await holder.upload("tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa", "a.png", png), 404, "task_not_found")
    expect(await main.database.count("artifacts")).toBe(rowsBefore)

    // At most maxFiles waiting to be submitted.
    for (let i = 0; i < maxFiles; i++) expect((await holder.upload(reference, `p${i}.png`, png)).status).toBe(201)
    await expectEnvelope(await holder.upload(reference, "one-more.png", png), 422, "artifact_invalid")
    // Once the result is in, no more uploads.
    expect((await holder.submit(reference, { summary: "done" })).status).toBe(200)
    await expectEnvelope(await holder.upload(reference, "late.png", png), 409, "invalid_transition")
    await listed("uploadArtifact", 409)
  })

  // The fuzzer (scripts/fuzz_stateful.ts) found the document taking any name and any bytes, and
  // the download typed application/octet-stream whatever it was: what it says must be what is done.
  it("the document says which names and bytes an upload refuses as malformed, and a download's type", async () => {
    await listed("uploadArtifact", 400)
    const upload = document.paths["/api/public/v1/tasks/{reference}/artifacts"].post
    const ajv = new Ajv2020({ strict: false })
    const nameIsValid = ajv.compile(upload.parameters.find((p: Json) => p.name === "name").schema)
    expect(upload.requestBody.content["application/octet-stream"].schema).toMatchObject({ minLength: 1 })
    const { reference, holder } = await workingTask(main)
    await expectEnvelope(await holder.upload(reference, "empty.txt", new Uint8Array(0)), 400, "invalid_request")
    // Three usable names (maxFiles) and the unusable ones, each judged by the document first.
    const names = ["", " \t", ".", "..", ".\u0001.", "a/", "dir/..", "\u0000\u202e", ". .", "...", "C:\\x\\photo.jpg"]
    const kept: Array<string> = []
    for (const name of names) {
      const answer = await holder.upload(reference, name, png)
      expect(answer.status, JSON.stringify(name)).toBe(nameIsValid(name) ? 201 : 400)
      const body: Json = await answer.json()
      if (answer.status === 400) expect(body.error.message, JSON.stringify(name)).toContain("name")
      else kept.push(body.id)
    }
    expect(names.filter((name) => nameIsValid(name))).toHaveLength(maxFiles)

    const downloaded = await download(main, reference, String(kept[0]), holder.authorization)
    expect(downloaded.status).toBe(200)
    expect(downloaded.headers.get("content-type")).toBe("image/png")
    const ranges = Object.keys(
      document.paths["/api/public/v1/tasks/{reference}/artifacts/{id}"].get.responses["200"].content
    )
    expect(ranges).toEqual(["*/*"])
  })

  it("40 uploads at once against a limit of 10 staged files leave exactly 10 staged", async () => {
    const directory = mkdtempSync(join(tmpdir(), "tm-artifacts-race-"))
    directories.push(directory)
    const env = await startOnFreshDatabase({
      settings: {
        oauthIssuer: issuer.url,
        oauthAudience: testAudience,
        artifacts: { store: { _tag: "Files", directory }, maxFileBytes, maxFiles: 10 }
      }
    })
    envs.push(env)
    const { reference, holder } = await workingTask(env)
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => holder.upload(reference, `race-${i}.png`, png))
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(10)
    expect(statuses.filter((status) => status === 422)).toHaveLength(30)
    for (const answer of answers) {
      if (answer.status === 422) expect(((await answer.json()) as Json).error.code).toBe("artifact_invalid")
    }
    const staged = await env.database.rows(
      `SELECT id FROM artifacts WHERE reference = '${reference}' AND attached_at IS NULL AND sha256 IS NOT NULL`
    )
    expect(staged).toHaveLength(10)
    expect(await env.database.count("artifacts")).toBe(10)
  })

  it("the same round trip over the S3 store", async () => {
    const env = await startWith({ _tag: "S3", bucket: await s3.bucket(), prefix: "evidence", endpoint: s3.endpoint })
    const { reference, token, holder } = await workingTask(env)
    const bytes = Buffer.concat([png, Buffer.alloc(20_000, 3)])
    const file: Json = await (await holder.upload(reference, "photo.png", bytes)).json()
    expect(file).toMatchObject({ content_type: "image/png", size: bytes.length, sha256: sha256(bytes) })
    expect(
      (await holder.submit(reference, { summary: "done", artifacts: [{ kind: "file", id: file.id }] })).status
    ).toBe(200)
    const answer = await download(env, reference, file.id, `Bearer ${token}`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-length")).toBe(String(bytes.length))
    expect(sha256(Buffer.from(await answer.arrayBuffer()))).toBe(sha256(bytes))
  })
})
