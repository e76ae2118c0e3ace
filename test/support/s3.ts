/**
 * An S3-compatible server for the tests of the S3 blob store: the one `.ci/run` starts
 * (`TEST_S3_ENDPOINT`, s3rver), or, when that is unset outside CI, an s3rver started in this test
 * process on a free port. Under CI=true a missing endpoint fails the test (vitest.config.ts checks
 * it first): the S3 half is never skipped. s3rver checks request signatures against its one
 * account, S3RVER/S3RVER, which the AWS SDK reads from the environment.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"

process.env.AWS_ACCESS_KEY_ID ??= "S3RVER"
process.env.AWS_SECRET_ACCESS_KEY ??= "S3RVER"

export interface TestS3 {
  readonly endpoint: string
  /** A new, empty bucket. */
  readonly bucket: () => Promise<string>
  readonly close: () => Promise<void>
}

interface S3rverInstance {
  run(): Promise<{ port: number }>
  close(): Promise<void>
}

export const startS3 = async (): Promise<TestS3> => {
  let endpoint = process.env.TEST_S3_ENDPOINT
  let close = async () => {}
  if (endpoint === undefined || endpoint === "") {
    if (process.env.CI) {
      throw new Error("CI=true: TEST_S3_ENDPOINT is not set; .ci/run starts s3rver and exports its address")
    }
    const S3rver = createRequire(import.meta.url)("s3rver") as new (options: object) => S3rverInstance
    const directory = mkdtempSync(join(tmpdir(), "tm-s3rver-"))
    const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory })
    const { port } = await server.run()
    endpoint = `http://127.0.0.1:${port}`
    close = async () => {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    }
  }
  const s3 = await import("@aws-sdk/client-s3")
  const client = new s3.S3Client({
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED"
  })
  const at = endpoint
  return {
    endpoint: at,
    bucket: async () => {
      const name = `tm-test-${randomBytes(6).toString("hex")}`
      await client.send(new s3.CreateBucketCommand({ Bucket: name }))
      return name
    },
    close: async () => {
      client.destroy()
      await close()
    }
  }
}

/** The keys of a bucket (under a prefix). */
export const keysOf = async (endpoint: string, bucket: string): Promise<ReadonlyArray<string>> => {
  const s3 = await import("@aws-sdk/client-s3")
  const client = new s3.S3Client({
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED"
  })
  try {
    const listed = await client.send(new s3.ListObjectsV2Command({ Bucket: bucket }))
    return (listed.Contents ?? []).map((object) => object.Key ?? "")
  } finally {
    client.destroy()
  }
}
