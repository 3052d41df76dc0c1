// The embedded server's open connections and how each one ends: no descriptor kept after a last answer, no unsent bytes left in the kernel for a client that stopped reading.
import { readFileSync, readlinkSync } from 'node:fs';
import type { Socket } from 'node:net';

type WithHandle = Socket & { _handle?: { fd?: number; reading?: boolean; readStart?: () => number; close?: (done: () => void) => void } | null };

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

/** A kernel queue not read (the socket was missing from the table). */
const UNKNOWN = -1;
/** A closing connection one check has seen, its kernel queue not read yet: the next check reads it. */
const NOT_READ = -2;
/** A closing connection that no check has seen yet: most clients close before the next one, so it is not read then. */
const ENTERED = -3;
const ignore = (): void => undefined;

/** What the server knows of its open connections, and the closes it decides itself. */
export class Connections {
  readonly open = new Set<Socket>();
  private readonly pending = new WeakMap<Socket, number>();
  /** Connections being closed with bytes still undelivered: their kernel queue at the last check, or UNKNOWN, NOT_READ, ENTERED. */
  private readonly lingering = new Map<Socket, number>();
  private idleBatch: Socket[] = [];
  private readonly draining = new WeakSet<Socket>();
  private deliveredCheck: NodeJS.Timeout | undefined;

  /**
   * `deliveredCheckMs`: how often the kernel queues of closing connections are read (LIMITS.deliveredCheckMs);
   * `queuesOf`: how they are read (the kernel's table; a unit test gives its own).
   */
  constructor(
    private readonly deliveredCheckMs: number,
    private readonly queuesOf: typeof kernelQueues = kernelQueues,
  ) {}

  track(socket: Socket): void {
    if (this.open.has(socket)) return;
    this.open.add(socket);
    socket.once('close', () => {
      this.open.delete(socket);
      if (this.lingering.delete(socket)) this.stopCheckWhenNoneLinger();
    });
    // node's own close after an answer that ends the connection (Connection: close, HTTP/1.0, a 400) comes here too.
    (socket as Socket & { destroySoon: () => void }).destroySoon = () => this.closeWhenWritten(socket);
  }

  /**
   * Ends the connection after what was written to it (and `bytes`), without losing any of it: the TCP reset problem
   * (RFC 9112 9.6). Closing a socket while the client's later pipelined requests sit unread in the kernel makes the
   * kernel send a reset and drop whatever of the earlier answers the client has not yet received. So the FIN goes out
   * behind the answers, what the client still sends is read and thrown away, and the descriptor is let go when the
   * client closes, or once the kernel has delivered everything (its queue read every `deliveredCheckMs`, all such
   * connections at once, from the second check on); a client that stops reading is reset by the periodic sweep, as an
   * idle one is.
   */
  closeWhenWritten(socket: Socket, bytes?: string | Buffer): void {
    if (socket.destroyed) return;
    if (!socket.writableEnded) {
      this.drain(socket);
      if (bytes === undefined) socket.end();
      else socket.end(bytes);
    }
    if (socket.writableFinished) this.closeDelivered(socket);
    else socket.once('finish', () => this.closeDelivered(socket));
  }

  /**
   * Parses nothing more on the connection (its answers still go out): what the client sends from now on is read and
   * thrown away, so it never sits unread in the kernel, and the client's close ends the connection.
   */
  drain(socket: Socket): void {
    if (this.draining.has(socket)) return;
    this.draining.add(socket);
    socket.removeAllListeners('data');
    socket.on('data', ignore);
    socket.once('end', () => socket.destroy());
    socket.resume();
    // node's HTTP parser reads the socket itself and stops reading it after a request that ends the connection or a
    // parse error; resume() does not start it again. Read on, so that the client's close is seen at once.
    const handle = (socket as WithHandle)._handle;
    if (handle?.reading === false && handle.readStart !== undefined) {
      handle.reading = true;
      handle.readStart();
    }
  }

  /**
   * Everything is in the kernel and the FIN behind it. A client that has it all closes too (and `drain` lets go then);
   * the kernel queue is only read, for all such connections at once, for one that has not closed by the next check.
   */
  private closeDelivered(socket: Socket): void {
    if (socket.destroyed) return;
    // The client closed its side before (its end came before `drain` listened): nothing can be left unread.
    if (socket.readableEnded) {
      socket.destroy();
      return;
    }
    this.linger(socket, ENTERED);
  }

  /** Keeps a connection whose answers the kernel has not delivered yet until it has (or the client closes, or stalls). */
  private linger(socket: Socket, queued: number): void {
    this.lingering.set(socket, queued);
    // Not unref'd: a connection still closing is work in hand (a shutdown waits for it).
    this.deliveredCheck ??= setInterval(() => this.destroyDelivered(), this.deliveredCheckMs);
  }

  /**
   * Lets go of each lingering connection whose kernel queue is empty: the client has received every byte. The table is
   * read only for connections that were lingering at the previous check already (a client that has everything closes
   * within milliseconds), so a busy server reads it only when some client keeps its side open.
   */
  private destroyDelivered(): void {
    const due: Socket[] = [];
    for (const [socket, before] of this.lingering) {
      if (before === ENTERED) this.lingering.set(socket, NOT_READ);
      else due.push(socket);
    }
    if (due.length > 0) {
      const queues = this.queuesOf(due);
      for (const socket of due) {
        if (this.queuedIn(queues, socket) !== 0) continue;
        socket.destroy();
        this.lingering.delete(socket);
      }
    }
    this.stopCheckWhenNoneLinger();
  }

  /**
   * What one read of the kernel's table says of a lingering connection, for `destroyDelivered` and `sweep` alike: the
   * bytes still queued, or 0 when there is nothing left to wait for (all delivered, the socket already destroyed, no
   * table at all, or missing from the table twice running: the kernel has let go of the connection). Missing once, it
   * is marked UNKNOWN and undefined is returned: a table read while thousands of sockets change may miss one.
   */
  private queuedIn(queues: Map<Socket, number> | undefined, socket: Socket): number | undefined {
    if (socket.destroyed || queues === undefined) return 0;
    const queued = queues.get(socket);
    if (queued !== undefined) return queued;
    if (this.lingering.get(socket) === UNKNOWN) return 0;
    this.lingering.set(socket, UNKNOWN);
    return undefined;
  }

  /** The delivered check runs only while some connection lingers: it keeps the process alive (a shutdown waits for it). */
  private stopCheckWhenNoneLinger(): void {
    if (this.lingering.size > 0) return;
    clearInterval(this.deliveredCheck);
    this.deliveredCheck = undefined;
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
    const queues = this.queuesOf(batch);
    for (const socket of batch) {
      // A socket missing from a table the kernel does give (read while thousands of others change) is asked again.
      const queued = queues === undefined ? 0 : (queues.get(socket) ?? UNKNOWN);
      if (queued === 0) {
        socket.destroy();
        continue;
      }
      // Not socket.end(): the FIN would wait behind the full send buffer, and the kernel refuses a reset meanwhile.
      this.linger(socket, queued);
      socket.once('end', () => socket.destroy());
    }
  }

  /** The periodic check: stalled writes in node (`sweepStalled`), then the kernel queues of connections past their keep-alive timeout. */
  sweep(): number {
    let closed = sweepStalled(this.open, this.pending);
    if (this.lingering.size === 0) return closed;
    const queues = this.queuesOf(this.lingering.keys());
    for (const [socket, before] of this.lingering) {
      const queued = this.queuedIn(queues, socket);
      if (queued === undefined) continue;
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
