/**
 * A real SMTP server for tests (smtp-server), keeping every mail it accepts parsed (mailparser):
 * it can refuse mails for a while (a 451 to MAIL FROM) and be taken down and brought up again on
 * the same port, to show that the service retries.
 */
import { type ParsedMail, simpleParser } from "mailparser"
import { SMTPServer, type SMTPServerOptions } from "smtp-server"
import { freePort } from "./process.ts"

export interface ReceivedMail {
  readonly parsed: ParsedMail
  /** The envelope's recipients. */
  readonly to: ReadonlyArray<string>
  /** Whether the client signed in with the user and password of `url`. */
  readonly user: string | undefined
}

export interface SmtpSink {
  readonly port: number
  /** smtp://user:password@127.0.0.1:port: what SMTP_URL is set to. */
  readonly url: string
  readonly password: string
  readonly mails: Array<ReceivedMail>
  /** While true, every mail is refused with a 451 (try again later). */
  refusing: boolean
  /** How many times MAIL FROM was answered (a refusal included). */
  readonly tries: () => number
  /** Stops listening: connections are refused until `up`. */
  down(): Promise<void>
  up(): Promise<void>
  close(): Promise<void>
}

export const startSmtpSink = async (): Promise<SmtpSink> => {
  const port = await freePort()
  const password = "smtp-s3cret-pw"
  let tries = 0
  const sink: SmtpSink = {
    port,
    url: `smtp://mailer:${password}@127.0.0.1:${port}`,
    password,
    mails: [],
    refusing: false,
    tries: () => tries,
    down: async () => {
      const current = server
      server = undefined
      if (current !== undefined) await new Promise<void>((resolve) => current.close(() => resolve()))
    },
    up: async () => {
      if (server === undefined) server = await listening()
    },
    close: () => sink.down()
  }
  const options: SMTPServerOptions = {
    disabledCommands: ["STARTTLS"],
    authOptional: false,
    allowInsecureAuth: true,
    closeTimeout: 200,
    onAuth: (auth, _session, callback) => {
      if (auth.username === "mailer" && auth.password === password) callback(null, { user: auth.username })
      else callback(new Error("Invalid username or password"))
    },
    onMailFrom: (_address, _session, callback) => {
      tries++
      if (!sink.refusing) return callback()
      const refusal = new Error("try again later") as Error & { responseCode: number }
      refusal.responseCode = 451
      callback(refusal)
    },
    onData: (stream, session, callback) => {
      simpleParser(stream)
        .then((parsed) => {
          sink.mails.push({
            parsed,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            user: typeof session.user === "string" ? session.user : undefined
          })
          callback()
        })
        .catch(callback)
    }
  }
  const listening = () =>
    new Promise<SMTPServer>((resolve, reject) => {
      const made = new SMTPServer(options)
      made.on("error", () => {})
      made.server.once("error", reject)
      made.listen(port, "127.0.0.1", () => resolve(made))
    })
  let server: SMTPServer | undefined = await listening()
  return sink
}

/** Every link of a mail's plain text. */
/** A header of a mail as it came over the wire (its raw line, after the name). */
export const headerOf = (mail: ReceivedMail, name: string): string | undefined =>
  mail.parsed.headerLines
    .find((line) => line.key === name)
    ?.line.slice(name.length + 1)
    .trim()

export const linksOf = (mail: ReceivedMail): Array<string> =>
  [...(mail.parsed.text ?? "").matchAll(/https?:\/\/\S+/g)].map((m) => m[0])

/** Waits until `count` mails have arrived (or fails after `timeoutMs`). */
export const mailsArrived = async (sink: SmtpSink, count: number, timeoutMs = 15_000, what = "mails") => {
  const deadline = Date.now() + timeoutMs
  while (sink.mails.length < count) {
    if (Date.now() > deadline)
      throw new Error(`${what}: ${sink.mails.length} of ${count} arrived within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return sink.mails
}
