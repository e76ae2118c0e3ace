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
  uploadArtifact: "the body is a file of any content-type, streamed"
} as const

export const rawEndpoint = <Identifier extends keyof typeof rawEndpoints>(identifier: Identifier): Identifier =>
  identifier
