/**
 * The endpoints handled from the raw request instead of through their declared payload, and why
 * (at most three; every other endpoint is handled through its declared schemas). A handler group
 * names one with `rawEndpoint`, so that `handleRaw` appears with an entry of this list only.
 */
export const rawEndpoints = {
  /**
   * The body is the file, of any content-type (the service reads the type from its bytes): HttpApi
   * refuses a streamed body whose content-type is not the one declared. The handler refuses a
   * declared length over the file limit and a multipart form before reading a byte, then streams
   * the bytes to the store.
   */
  uploadArtifact: "the body is a file of any content-type, streamed",
  /**
   * A draft that is not valid is refused with 422 `preflight_failed` naming every problem as
   * preflight names it (issues and warnings, `details`), which a failure to decode the declared
   * payload cannot say. The declared payload (`TaskDraft`) is the document's statement of a valid
   * draft; the same Schema decodes the body in the operation (`validateDraft`), after the body
   * rules every JSON endpoint shares.
   */
  createTask: "an invalid draft is refused naming every problem as preflight does",
  /**
   * Any JSON object is judged, never refused: every problem is named in the answer. HttpApi's
   * decoding of the body refuses JSON values the draft rules name as issues (a number beyond the
   * double range, 1e999), so the body is read by the shared body rules alone.
   */
  preflight: "any JSON object is judged and never refused, its problems named in the answer"
} as const

export const rawEndpoint = <Identifier extends keyof typeof rawEndpoints>(identifier: Identifier): Identifier =>
  identifier
