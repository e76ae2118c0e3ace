/**
 * A loopback TCP proxy the fault tests put between the service and Postgres, so a test can take the
 * database "away" without touching the real server (other test files use it concurrently).
 *
 * It has three modes, switched synchronously by the test:
 *
 * - forwarding (the start, and after `restore()`): every accepted connection is piped both ways to
 *   the target;
 * - cut (`cut()`): the database is stopped. Every open connection is destroyed at once, in both
 *   directions, and every new connection is reset as soon as it is accepted, so the client sees
 *   ECONNRESET / "connection closed" immediately — the fast-failure path. The listening socket stays
 *   open on purpose: closing it and listening again later could lose the port to another process,
 *   and the test would then fail for a reason that has nothing to do with the service;
 * - blackhole (`blackhole()`): the network is partitioned. Connections stay open and new ones are
 *   accepted, but not a byte is forwarded either way — the timeout path, where only the service's
 *   own deadline answers. Bytes that arrive meanwhile are held, in order, per direction.
 *
 * `restore()` forwards again: held bytes are delivered (as TCP would after a partition heals) and
 * connections accepted while blackholed are connected to the target now. Connections destroyed by
 * `cut()` stay gone — as after a real restart, the client has to open new ones.
 *
 * Traffic is a few kilobytes of SQL per request, so there is no backpressure handling: a write that
 * the kernel does not take at once is buffered by Node.
 */
import { connect, createServer, type Server, type Socket } from "node:net"

export type ProxyMode = "forwarding" | "cut" | "blackhole"

export interface TcpProxy {
  /** The loopback port the proxy listens on. */
  readonly port: number
  /** A Postgres URL through the proxy for `databaseName` (user postgres; a password if given). */
  readonly url: (databaseName: string, password?: string) => string
  readonly mode: () => ProxyMode
  /** Connections open right now (accepted and not yet closed). */
  readonly openConnections: () => number
  /** Connections accepted so far, in any mode. */
  readonly acceptedConnections: () => number
  /** The database is stopped: destroys every open connection and resets every new one. */
  readonly cut: () => void
  /** The network is partitioned: accepts connections but forwards nothing either way. */
  readonly blackhole: () => void
  /** Forwards again (held bytes are delivered; cut connections stay closed). */
  readonly restore: () => void
  /** Destroys every connection and stops listening. */
  readonly close: () => Promise<void>
}

interface Link {
  readonly client: Socket
  /** Absent while a connection accepted during a blackhole waits for `restore()`. */
  upstream: Socket | undefined
  /** Bytes held while blackholed: from the client (to Postgres) and from Postgres (to the client). */
  readonly toUpstream: Array<Buffer>
  readonly toClient: Array<Buffer>
}

export const startProxy = async (target: { host: string; port: number }): Promise<TcpProxy> => {
  let mode: ProxyMode = "forwarding"
  let accepted = 0
  const links = new Set<Link>()

  const destroy = (link: Link) => {
    links.delete(link)
    link.client.destroy()
    link.upstream?.destroy()
  }

  const openUpstream = (link: Link) => {
    const upstream = connect({ host: target.host, port: target.port })
    upstream.setNoDelay(true)
    link.upstream = upstream
    upstream.on("data", (chunk: Buffer) => {
      if (mode === "forwarding") link.client.write(chunk)
      else link.toClient.push(chunk)
    })
    // Either side ending or failing ends the pair: the other side sees the connection close.
    upstream.on("error", () => destroy(link))
    upstream.on("close", () => destroy(link))
    // Net sockets queue writes made before "connect", so the client's bytes can go straight on.
    for (const chunk of link.toUpstream.splice(0)) upstream.write(chunk)
  }

  const server: Server = createServer((client) => {
    accepted++
    if (mode === "cut") {
      // A stopped database: the connection is refused the moment it is made (RST, not a FIN).
      client.on("error", () => {})
      client.resetAndDestroy()
      return
    }
    client.setNoDelay(true)
    const link: Link = { client, upstream: undefined, toUpstream: [], toClient: [] }
    links.add(link)
    client.on("data", (chunk: Buffer) => {
      if (mode === "forwarding" && link.upstream !== undefined) link.upstream.write(chunk)
      else link.toUpstream.push(chunk)
    })
    client.on("error", () => destroy(link))
    client.on("close", () => destroy(link))
    // During a blackhole the target is not even contacted until restore().
    if (mode === "forwarding") openUpstream(link)
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address()
  if (typeof address !== "object" || address === null) throw new Error("tcp proxy: no port")
  const port = address.port

  return {
    port,
    url: (databaseName, password) =>
      `postgres://postgres${password === undefined ? "" : `:${encodeURIComponent(password)}`}@127.0.0.1:${port}/${databaseName}`,
    mode: () => mode,
    openConnections: () => links.size,
    acceptedConnections: () => accepted,
    cut: () => {
      mode = "cut"
      for (const link of [...links]) {
        link.client.resetAndDestroy()
        destroy(link)
      }
    },
    blackhole: () => {
      mode = "blackhole"
    },
    restore: () => {
      mode = "forwarding"
      for (const link of [...links]) {
        if (link.upstream === undefined) {
          openUpstream(link)
        } else {
          for (const chunk of link.toUpstream.splice(0)) link.upstream.write(chunk)
        }
        for (const chunk of link.toClient.splice(0)) link.client.write(chunk)
      }
    },
    close: async () => {
      for (const link of [...links]) destroy(link)
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
