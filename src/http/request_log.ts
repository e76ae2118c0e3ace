/**
 * One structured JSON line per request, written in batches: a synchronous write per request costs
 * more than the request itself, so lines are buffered and flushed once per event-loop turn.
 * Only method, path (no query string), status, duration, request id and trace id are logged — never headers
 * or bodies, which may carry credentials.
 */
export interface RequestLogLine {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  readonly requestId: string
  /** The request's trace (hex), when tracing is on: the line and the exported spans share it. */
  readonly traceId?: string | undefined
}

export interface RequestLog {
  readonly write: (line: RequestLogLine) => void
  readonly flush: () => void
}

export const makeRequestLog = (sink: (chunk: string) => void = (chunk) => process.stdout.write(chunk)): RequestLog => {
  let buffer = ""
  let scheduled = false
  // Many requests end within one millisecond under load: the timestamp is formatted once per ms.
  let lastMs = Number.NaN
  let lastTime = ""
  const flush = () => {
    scheduled = false
    if (buffer === "") return
    const chunk = buffer
    buffer = ""
    sink(chunk)
  }
  return {
    write: (line) => {
      const ms = Date.now()
      if (ms !== lastMs) {
        lastMs = ms
        lastTime = new Date(ms).toISOString()
      }
      buffer += `{"level":"INFO","message":"request","time":"${lastTime}","method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},"status":${line.status},"duration_ms":${line.durationMs.toFixed(2)},"request_id":${JSON.stringify(line.requestId)}${line.traceId === undefined ? "" : `,"trace_id":${JSON.stringify(line.traceId)}`}}\n`
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush
  }
}

export const disabledRequestLog: RequestLog = { write: () => {}, flush: () => {} }
