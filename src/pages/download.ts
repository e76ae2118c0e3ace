/**
 * A stored file as its download: the bytes streamed with their recorded type and size. The bytes
 * are a participant's: never rendered or sniffed as anything but a download, and kept by no shared
 * cache. The REST download (http/evidence.ts) and the console's serve files alike through this.
 */
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Stream from "effect/Stream"
import { attachmentDisposition } from "../domain/evidence.ts"

/** What a download says of its file: its name, type, size and digest. */
export interface DownloadableFile {
  readonly name: string
  readonly content_type: string
  readonly size: number
  readonly sha256: string
}

export const downloadResponse = <E>(file: DownloadableFile, body: Stream.Stream<Uint8Array, E>) =>
  HttpServerResponse.stream(body, {
    status: 200,
    contentType: file.content_type,
    contentLength: file.size,
    headers: {
      "content-disposition": attachmentDisposition(file.name),
      etag: `"${file.sha256}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, no-store",
      "cross-origin-resource-policy": "same-origin"
    }
  })
