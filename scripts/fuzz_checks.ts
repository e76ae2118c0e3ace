/**
 * The fuzzer's document checks (scripts/fuzz_stateful.ts): every request of the stateful phase is
 * sent through `send`, which holds its answer to the document — a 5xx other than 503 fails (and a
 * 503 only when the input made it), as does a status the document does not list for the operation,
 * a response header missing or off its schema, a body of a media type not declared, or a JSON body
 * its schema for that status refuses.
 */
import { ajvSays, pointer } from "./fuzz_document.ts"
import type { Run } from "./fuzz_run.ts"

/**
 * A 503 (storage unavailable) is a documented answer, but not to an input: the request is sent
 * again after a moment, and if it is refused so again while /readyz says the storage is ready, the
 * 503 came from the input. Answers what to report, if anything.
 */
export const inputMade503 = async (base: string, url: string, init: RequestInit): Promise<string | undefined> => {
  await new Promise((resolve) => setTimeout(resolve, 200))
  const again = await fetch(url, init)
  await again.text()
  if (again.status !== 503) return undefined
  const ready = await fetch(`${base}/readyz`)
  await ready.text()
  return ready.status === 200 ? "503 again while /readyz is 200 (the input, not the storage)" : undefined
}

/** The phase's request, held to the document, counting into the run's figures and failures. */
export const sender = (run: Pick<Run, "base" | "validator" | "operation" | "figures" | "fail">) => {
  const { base, validator, operation, figures, fail } = run
  /** One request, held to the document; answers the status and the parsed JSON body, if any. */
  const send = async (
    id: string,
    path: Record<string, string>,
    init: {
      query?: string
      headers?: Record<string, string>
      body?: unknown
      raw?: string
      bytes?: Uint8Array<ArrayBuffer>
      contentType?: string
    }
  ) => {
    const { route, method, operation: described } = operation(id)
    const url = `${base}${route.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ""))}${init.query ?? ""}`
    const headers: Record<string, string> = { ...init.headers }
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body))
    if (body !== undefined) headers["content-type"] = "application/json"
    if (init.bytes !== undefined) headers["content-type"] = init.contentType ?? "application/octet-stream"
    const sent = init.bytes ?? body
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      ...(sent === undefined ? {} : { body: sent })
    })
    const bytes = new Uint8Array(await response.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    figures.requests++
    figures.statuses[response.status] = (figures.statuses[response.status] ?? 0) + 1
    const status = String(response.status)
    const shown = body ?? (init.bytes === undefined ? "" : `(${init.bytes.length} bytes)${init.query ?? ""}`)
    const line = `${method.toUpperCase()} ${route} ${shown.slice(0, 160)} → ${status} ${text.slice(0, 240)}`
    if (response.status >= 500 && response.status !== 503) fail(`5xx: ${line}`)
    if (response.status === 503) {
      const init = { method: method.toUpperCase(), headers, ...(sent === undefined ? {} : { body: sent }) }
      const said = await inputMade503(base, url, init)
      if (said !== undefined) fail(`${said}: ${line}`)
    }
    const declared = described.responses?.[status]
    if (declared === undefined && response.status !== 429) fail(`status not in the document: ${line}`)
    // The response's headers the document declares: present when required, and of their schema.
    for (const [name, header] of Object.entries(declared?.headers ?? {})) {
      const at =
        header.$ref !== undefined
          ? [...header.$ref.slice(2).split("/"), "schema"]
          : ["paths", route, method, "responses", status, "headers", name, "schema"]
      const value = response.headers.get(name)
      const resolved = header.$ref === undefined ? header : undefined
      if (value === null) {
        if (resolved?.required === true) fail(`the ${name} header the document requires is missing: ${line}`)
        continue
      }
      // A header is text: one declared a number is valid when its text is that number.
      const validate = validator(pointer(...at))
      const valid = (data: unknown): boolean => validate(data)
      if (!valid(value) && !(/^-?\d+$/.test(value) && valid(Number(value))))
        fail(`the ${name} header ${JSON.stringify(value.slice(0, 60))} refused by the document's schema: ${line}`)
    }
    let json: unknown
    const media = Object.keys(declared?.content ?? {})
    const binary = media.length > 0 && !media.includes("application/json")
    // A media range (`*/*`, `image/*`) covers the types it names.
    const served = (response.headers.get("content-type") ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? ""
    const covers = (range: string) =>
      range === "*/*" || range === served || (range.endsWith("/*") && served.startsWith(range.slice(0, -1)))
    if (binary && !media.some(covers))
      fail(`a ${response.headers.get("content-type")} body where the document declares ${media.join(", ")}: ${line}`)
    if (text !== "" && !binary) {
      try {
        json = JSON.parse(text)
      } catch {
        fail(`not JSON: ${line}`)
      }
      const content = declared?.content?.["application/json"]
      if (declared !== undefined && content?.schema === undefined)
        fail(`a body where the document declares none: ${line}`)
      if (declared !== undefined && content?.schema !== undefined && json !== undefined) {
        const validate = validator(
          pointer("paths", route, method, "responses", status, "content", "application/json", "schema")
        )
        if (!validate(json)) fail(`body refused by the document's schema (${ajvSays(validate)}): ${line}`)
      }
    }
    return { status: response.status, json, bytes, headers: response.headers, line }
  }
  return send
}

export type Send = ReturnType<typeof sender>
