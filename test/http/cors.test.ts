// Which answers carry CORS (http/cors.ts): every answer of the API — REST and MCP, successes and
// refusals, whatever made them — and none of the pages', which are for their own origin. The
// request id comes back on all of them.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { initializeMessage, postMcp } from "../support/mcp.ts"
import { json, startServer, submitTask, type TestServer, validDraft } from "../support/server.ts"

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const cors = (response: Response) => response.headers.get("access-control-allow-origin")

describe("CORS", () => {
  it("is on the API's answers: a read, a refusal by the handler, a refusal of the credential, an MCP call", async () => {
    const { reference } = await submitTask(`${server.url}/api/public/v1/tasks`, validDraft())
    const read = await fetch(`${server.url}/api/public/v1/tasks/${reference}`)
    const missing = await fetch(`${server.url}/api/public/v1/tasks/tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa`)
    const unauthorised = await fetch(
      `${server.url}/api/public/v1/tasks/${reference}/cancel`,
      json({}, { authorization: "Bearer tt_not-the-token" })
    )
    const mcp = await postMcp(`${server.url}/mcp`, initializeMessage())
    expect([read.status, missing.status, unauthorised.status, mcp.status]).toEqual([200, 404, 401, 200])
    for (const response of [read, missing, unauthorised, mcp]) {
      expect(cors(response)).toBe("*")
      expect(response.headers.get("x-request-id")).toMatch(/\S/)
    }
    expect(unauthorised.headers.get("www-authenticate")).toContain("resource_metadata=")
  })

  it("is not on the pages: the console's signed-out page, the authorization server's sign-in page", async () => {
    const page = await fetch(`${server.url}/console/signed-out`)
    const interaction = await fetch(`${server.url}/oauth/interaction/unknown`)
    expect(page.status).toBe(200)
    for (const response of [page, interaction]) {
      expect(response.headers.get("content-type")).toContain("text/html")
      expect(cors(response)).toBeNull()
      expect(response.headers.get("x-request-id")).toMatch(/\S/)
    }
  })
})
