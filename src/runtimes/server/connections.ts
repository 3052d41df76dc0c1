// The embedded server's open connections and how each one ends: no descriptor kept after a last answer, no unsent bytes left in the kernel for a client that stopped reading.
import { readFileSync, readlinkSync } from 'node:fs';
import type { Socket } from 'node:net';

type WithHandle = Socket & { _handle?: { fd?: number; close?: (done: () => void) => void } | null };

/**
 * Resets the connection (RST: the kernel frees what it could not deliver). The kernel refuses a reset while a FIN
 * waits behind a full send buffer (libuv: EINVAL), and node then lets go of the descriptor without closing it: it is
 * closed here instead (a plain close), so that neither the descriptor nor the connection's place in the server is lost.
 */
export function resetConnection(socket: Socket): void {
  const handle = (socket as WithHandle)._handle;
  socket.once('error', (error: NodeJS.ErrnoException) => {
    if (error.syscall === 'reset' && handle?.close !== undefined) handle.close(() => socket.emit('close', false));
  });
  socket.resetAndDestroy();
}

/**
 * Bytes the kernel still holds unacknowledged for each socket (the `tx_queue` of /proc/self/net/tcp and tcp6, found by
 * the socket's inode), or undefined where the kernel does not say (not Linux). Read once for a whole batch of sockets.
 */
export function kernelQueues(sockets: Iterable<Socket>): Map<Socket, number> | undefined {
  const byInode = new Map<string, Socket>();
  for (const socket of sockets) {
    const fd = (socket as WithHandle)._handle?.fd;
    if (typeof fd !== 'number' || fd < 0) continue;
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1];
      if (inode !== undefined) byInode.set(inode, socket);
    } catch {
      return undefined;
    }
  }
  const queues = new Map<Socket, number>();
  let readable = false;
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    readable = true;
    for (const line of text.split('\n')) {
      // sl local remote st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
      const fields = line.trim().split(/\s+/);
      const socket = byInode.get(fields[9] ?? '');
      if (socket !== undefined) queues.set(socket, Number.parseInt((fields[4] ?? '').split(':')[0] ?? '', 16));
    }
  }
  return readable ? queues : undefined;
}

/**
 * One check period: a socket with output waiting in node (the client is not reading) and the same amount waiting
 * as at the previous check has made no progress for a whole period, and is reset: an RST frees the kernel's copy of
 * what it could not deliver at once, where a FIN would leave it queued (FIN-WAIT-1) for minutes.
 */
export function sweepStalled(sockets: Iterable<Socket>, pending: WeakMap<Socket, number>): number {
  let closed = 0;
  for (const socket of sockets) {
    const waiting = socket.writableLength;
    if (waiting > 0 && pending.get(socket) === waiting) {
      resetConnection(socket);
      closed += 1;
    }
    if (waiting > 0) pending.set(socket, waiting);
    else pending.delete(socket);
  }
  return closed;
}

/** Closes the socket once what was written to it has been handed to the kernel: the descriptor is not kept for the client's FIN. */
export function closeWhenWritten(socket: Socket, bytes?: string | Buffer): void {
  if (socket.writableFinished) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  if (socket.writableEnded) return;
  if (bytes === undefined) socket.end();
  else socket.end(bytes);
}

/** A kernel queue not read (the socket was missing from the table). */
const UNKNOWN = -1;

/** What the server knows of its open connections, and the closes it decides itself. */
export class Connections {
  readonly open = new Set<Socket>();
  private readonly pending = new WeakMap<Socket, number>();
  /** Connections past their keep-alive timeout with bytes still undelivered: their kernel queue at the last check. */
  private readonly lingering = new Map<Socket, number>();
  private idleBatch: Socket[] = [];

  track(socket: Socket): void {
    if (this.open.has(socket)) return;
    this.open.add(socket);
    socket.once('close', () => {
      this.open.delete(socket);
      this.lingering.delete(socket);
    });
  }

  /**
   * A keep-alive connection idle for the keep-alive timeout. When the kernel has delivered everything it was given, it
   * is closed at once, as node would. When the client has not yet read (or acknowledged) all of it, a plain close would
   * leave the rest queued in the kernel with no owner: the connection is kept (no FIN yet) and
   * watched by `sweep`, which closes it when the client does, when the data is delivered, or resets it when a whole
   * check period passes without progress. Idle timeouts come in bursts; the kernel is asked once per burst.
   */
  closeIdle(socket: Socket): void {
    this.idleBatch.push(socket);
    if (this.idleBatch.length === 1) setImmediate(() => this.closeIdleBatch());
  }

  private closeIdleBatch(): void {
    const batch = this.idleBatch.filter((s) => !s.destroyed);
    this.idleBatch = [];
    const queues = kernelQueues(batch);
    for (const socket of batch) {
      // A socket missing from a table the kernel does give (read while thousands of others change) is asked again.
      const queued = queues === undefined ? 0 : (queues.get(socket) ?? UNKNOWN);
      if (queued === 0) {
        socket.destroy();
        continue;
      }
      // Not socket.end(): the FIN would wait behind the full send buffer, and the kernel refuses a reset meanwhile.
      this.lingering.set(socket, queued);
      socket.once('end', () => socket.destroy());
    }
  }

  /** The periodic check: stalled writes in node (`sweepStalled`), then the kernel queues of connections past their keep-alive timeout. */
  sweep(): number {
    let closed = sweepStalled(this.open, this.pending);
    if (this.lingering.size === 0) return closed;
    const queues = kernelQueues(this.lingering.keys());
    for (const [socket, before] of this.lingering) {
      // Missing twice running (or no table at all): closed, as node would.
      const missing = queues !== undefined && !queues.has(socket) && !socket.destroyed && before !== UNKNOWN;
      if (missing) {
        this.lingering.set(socket, UNKNOWN);
        continue;
      }
      const queued = queues?.get(socket) ?? 0;
      if (queued === 0) socket.destroy();
      else if (queued === before) {
        resetConnection(socket);
        closed += 1;
      } else {
        this.lingering.set(socket, queued);
        continue;
      }
      this.lingering.delete(socket);
    }
    return closed;
  }
}
