// The embedded server's open connections and how each one ends: a lingering close after the last answer, as nginx's, and a reset for a client that stops reading.
import type { Socket } from 'node:net';

/** How long a closing connection goes on reading and throwing away what the client sends (nginx's lingering_time and lingering_timeout). */
export interface Lingering {
  /** The whole lingering, however much the client sends. */
  lingeringTimeMs: number;
  /** Silence from the client that ends it sooner. */
  lingeringTimeoutMs: number;
}

const EMPTY = Buffer.alloc(0);
const discard = (): void => undefined;

/** The connection is ended and everything node held is in the kernel, but the FIN is still waiting for room in the kernel's send buffer. */
const finWaiting = (socket: Socket): boolean => socket.writableEnded && !socket.writableFinished && socket.writableLength === 0;

/**
 * Resets the connection: an RST, so the kernel drops what it could not deliver instead of keeping it for minutes. Not
 * while the FIN waits for room in the send buffer: libuv refuses a reset then, and node loses the descriptor with it.
 * A plain close is all that is left there.
 */
export function reset(socket: Socket): void {
  if (finWaiting(socket)) socket.destroy();
  else socket.resetAndDestroy();
}

/** What a check remembers of a socket: the bytes node held for it, or that its FIN was waiting. */
const FIN = -1;

/**
 * One check period: a socket with the same output waiting as at the previous check has made no progress for a whole
 * period, and is reset (like nginx's send_timeout): output node holds because the client is not reading, or a FIN
 * still waiting behind a full kernel buffer.
 */
export function sweepStalled(sockets: Iterable<Socket>, pending: WeakMap<Socket, number>): number {
  let closed = 0;
  for (const socket of sockets) {
    const waiting = socket.writableLength > 0 ? socket.writableLength : finWaiting(socket) ? FIN : 0;
    if (waiting !== 0 && pending.get(socket) === waiting) {
      reset(socket);
      closed += 1;
    }
    if (waiting !== 0) pending.set(socket, waiting);
    else pending.delete(socket);
  }
  return closed;
}

/** What the server knows of its open connections, and the closes it decides itself. */
export class Connections {
  readonly open = new Set<Socket>();
  private readonly pending = new WeakMap<Socket, number>();
  /** Connections whose input is read and thrown away: nothing more on them is parsed. */
  private readonly draining = new WeakSet<Socket>();
  /** Connections the server is closing: its FIN is sent, or going out behind the last answer. */
  private readonly closing = new WeakSet<Socket>();

  constructor(private readonly lingering: Lingering) {}

  track(socket: Socket): void {
    if (this.open.has(socket)) return;
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    // node's http server ends a connection after an answer that closes it (Connection: close, HTTP/1.0, a 400) with
    // the socket's destroySoon, which would destroy it once the FIN is out: the lingering close instead.
    socket.destroySoon = () => this.closeWhenWritten(socket);
  }

  /**
   * The lingering close (RFC 9112 9.6), after what was written to the connection (and `bytes`): the FIN goes out behind
   * the answers, what the client still sends is read and thrown away (closing with it unread would make the kernel
   * send a reset and drop whatever of the answers the client has not received yet), and the connection is let go when
   * the client closes too. A client that stays silent for the lingering timeout, or goes on sending for the lingering
   * time, is reset: a client that has read the answers has closed long before, and one that has not gets nothing more.
   */
  closeWhenWritten(socket: Socket, bytes?: string | Buffer): void {
    if (socket.destroyed || this.closing.has(socket)) return;
    this.closing.add(socket);
    this.drain(socket);
    if (!socket.writableEnded) {
      if (bytes === undefined) socket.end();
      else socket.end(bytes);
    }
    // The lingering counts from the moment the FIN is in the kernel; until then the stalled-write check watches.
    if (socket.writableFinished) this.linger(socket);
    else socket.once('finish', () => this.linger(socket));
  }

  /** A keep-alive connection idle for the keep-alive timeout: closed like any other, so a client still reading loses nothing. */
  closeIdle(socket: Socket): void {
    this.closeWhenWritten(socket);
  }

  /**
   * Parses nothing more on the connection (its answers still go out): what the client sends from now on is read and
   * thrown away, so it never sits unread in the kernel, and the client's close is seen. node's parser reads the
   * socket through its 'data' listener, or, until another listener comes, straight from the descriptor; a listener of
   * our own makes node hand the reads back to the socket's stream, and node's own is removed.
   */
  drain(socket: Socket): void {
    if (this.draining.has(socket)) return;
    this.draining.add(socket);
    socket.removeAllListeners('data');
    socket.on('data', discard);
    socket.resume();
    // When node has stopped reading (answers were waiting to go out), the stream still counts a read as under way and
    // resume() asks for none: an empty push ends that read (see readable.push('') in node's stream documentation), so
    // the next one starts.
    if (!socket.readableEnded) socket.push(EMPTY);
  }

  /** The FIN is in the kernel: the client's close ends the connection, or the lingering bounds do. */
  private linger(socket: Socket): void {
    if (socket.destroyed) return;
    // The client closed its side already: nothing can come that would be left unread.
    if (socket.readableEnded) {
      socket.destroy();
      return;
    }
    const { lingeringTimeMs, lingeringTimeoutMs } = this.lingering;
    let heard = Date.now();
    const end = (): void => {
      clearTimeout(quiet);
      clearTimeout(whole);
      reset(socket);
    };
    /** The lingering timeout, counted again from the last bytes the client sent. */
    const silence = (): void => {
      const left = heard + lingeringTimeoutMs - Date.now();
      if (left <= 0) end();
      else quiet = setTimeout(silence, left);
    };
    let quiet = setTimeout(silence, lingeringTimeoutMs);
    const whole = setTimeout(end, lingeringTimeMs);
    socket.on('data', () => (heard = Date.now()));
    // Both sides have ended: a plain close, nothing is left unread.
    socket.once('end', () => socket.destroy());
    socket.once('close', () => {
      clearTimeout(quiet);
      clearTimeout(whole);
    });
  }

  /** The periodic check: stalled writes (`sweepStalled`). */
  sweep(): number {
    return sweepStalled(this.open, this.pending);
  }
}
