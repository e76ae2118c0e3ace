/**
 * Randomness in bulk, shared by task references (services/ids.ts) and trace ids (tracing.ts).
 */
import { randomFillSync } from "node:crypto"

/**
 * Fresh bytes from the CSPRNG, `size` at a time, drawn `count` draws' worth at once (as Node's own
 * `randomUUID` does): asking the kernel for randomness is a system call, and on a virtual machine
 * a system call is dear. Each byte is handed out once; a draw is a view of the pool, to be used
 * before the next draw.
 */
export const randomPool = (size: number, count: number): (() => Buffer) => {
  const pool = Buffer.alloc(size * count)
  let at = pool.length
  return () => {
    if (at === pool.length) {
      randomFillSync(pool)
      at = 0
    }
    at += size
    return pool.subarray(at - size, at)
  }
}
