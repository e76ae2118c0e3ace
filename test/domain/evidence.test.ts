// The pure rules of evidence: what a link artifact's value must be, a participant's file name made
// safe to keep and show, the download's Content-Disposition, and telling plain UTF-8 text from other
// bytes chunk by chunk.
import { describe, expect, it } from "vitest"
import {
  attachmentDisposition,
  linkProblem,
  makeTextDetector,
  maxFileNameLength,
  safeFileName,
  usableFileNamePattern
} from "../../src/domain/evidence.ts"
import { prng } from "../support/random.ts"

describe("linkProblem", () => {
  it.each(["https://x.example/a", "http://x.example", "https://x.example:8443/a?b=c#d", "HTTPS://X.EXAMPLE/A"])(
    "%j is a link",
    (value) => {
      expect(linkProblem(value)).toBeUndefined()
    }
  )

  it.each([
    ["javascript:alert(1)", /http or https URL, not javascript$/],
    ["JavaScript:alert(1)", /not javascript$/],
    ["data:text/html;base64,PHNjcmlwdD4=", /not data$/],
    ["ftp://x.example/a", /not ftp$/],
    ["mailto:ada@example.com", /not mailto$/],
    ["the report is on the shared drive", /absolute http or https URL/],
    ["/reports/1", /absolute http or https URL/],
    ["x.example/a", /absolute http or https URL/],
    ["https://", /absolute http or https URL/],
    ["https://ada:secret@x.example/a", /user name or password/],
    ["https://ada@x.example/a", /user name or password/]
  ])("%j is not a link", (value, problem) => {
    expect(linkProblem(value)).toMatch(problem)
  })
})

describe("safeFileName", () => {
  it.each([
    ["photo.jpg", "photo.jpg"],
    ["C:\\Users\\ada\\Desktop\\report.pdf", "report.pdf"],
    ["../../etc/passwd", "passwd"],
    ["  two   spaces\t.txt  ", "two spaces .txt"],
    ["bell\u0007and\u0000nul.txt", "bellandnul.txt"],
    // A right-to-left override that would show "gpj.exe" as "exe.jpg" is dropped.
    ["invoice\u202egpj.exe", "invoicegpj.exe"],
    // Composed form: "é" typed as e + combining accent is one character.
    ["cafe\u0301.txt", "café.txt"],
    [".env", ".env"]
  ])("%j is kept as %j", (given, kept) => {
    expect(safeFileName(given)).toBe(kept)
  })

  it.each(["", "   ", ".", "..", "a/", "dir/..", "\u0000\u0001"])("%j leaves nothing usable", (given) => {
    expect(safeFileName(given)).toBeUndefined()
  })

  // The upload's `name` parameter is declared by this pattern, so the document says which names are
  // refused: it must hold exactly where safeFileName keeps something (the fuzzer found the document
  // taking any string while "", "a/" or ".." were refused as malformed).
  it("usableFileNamePattern matches exactly the names it keeps something of", () => {
    const alphabet = [
      "a",
      "é",
      "😀",
      ".",
      "/",
      "\\",
      " ",
      "\t",
      "\u00a0",
      "\ufeff",
      "\u0000",
      "\u0085",
      "\u202e",
      "\u2066",
      "\u0301"
    ]
    const random = prng(35)
    const names = [
      "",
      "   ",
      ".",
      "..",
      "...",
      ". .",
      ".\u0001.",
      ".\t.",
      "a/",
      "dir/..",
      "x/.",
      "\\a",
      "a\\",
      "\u0000\u0001"
    ]
    for (let i = 0; i < 20_000; i++) {
      const length = Math.floor(random() * 6)
      names.push(Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""))
    }
    for (const name of names)
      expect(usableFileNamePattern.test(name), JSON.stringify(name)).toBe(safeFileName(name) !== undefined)
  })

  it("shortens a long name to 255 characters, keeping its extension", () => {
    const long = `${"ü".repeat(400)}.jpeg`
    const kept = safeFileName(long)!
    expect([...kept].length).toBe(maxFileNameLength)
    expect(kept.endsWith(".jpeg")).toBe(true)
    expect([...safeFileName("😀".repeat(300))!].length).toBe(maxFileNameLength)
  })
})

describe("attachmentDisposition", () => {
  it("is an attachment with the UTF-8 name and an ASCII fallback", () => {
    expect(attachmentDisposition("Front ☀.pdf")).toBe(
      `attachment; filename="Front _.pdf"; filename*=UTF-8''Front%20%E2%98%80.pdf`
    )
    expect(attachmentDisposition(`a"b\\c%d'(e).txt`)).toBe(
      `attachment; filename="a_b_c_d'(e).txt"; filename*=UTF-8''a%22b%5Cc%25d%27%28e%29.txt`
    )
  })
})

describe("makeTextDetector", () => {
  const detect = (...chunks: Array<Uint8Array>) => {
    const detector = makeTextDetector()
    for (const chunk of chunks) detector.push(chunk)
    return detector.isText()
  }
  it("takes UTF-8 text, a character split across chunks included", () => {
    const bytes = Buffer.from("Grüße\r\n\tESC \u001b[0m ok\f", "utf8")
    expect(detect(bytes)).toBe(true)
    const at = bytes.indexOf(0xc3) + 1
    expect(detect(bytes.subarray(0, at), bytes.subarray(at))).toBe(true)
  })
  it("refuses invalid UTF-8, control characters text does not carry, a character cut at the end, and nothing", () => {
    expect(detect(Buffer.from([0x61, 0xff, 0x62]))).toBe(false)
    expect(detect(Buffer.from("a\u0000b"))).toBe(false)
    expect(detect(Buffer.from("a\u007fb"))).toBe(false)
    expect(detect(Buffer.from("ü", "utf8").subarray(0, 1))).toBe(false)
    expect(detect()).toBe(false)
  })
})
