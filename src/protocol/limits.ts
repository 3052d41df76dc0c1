// The connection limits and timeouts, one value each: the embedded server applies them and the nginx configuration is generated from them.
import { MAX_PATH_LENGTH } from './request-target.ts';

/**
 * Limits that keep a slow or hostile client from holding a socket; documented in docs/serving.md. The embedded server
 * applies them all; the generated nginx configuration states the header size and the four timeouts it has a directive
 * for (headers, request, keep-alive, stalled write), and leaves the two lingering bounds at nginx's defaults, which
 * they are.
 */
export const LIMITS = {
  /**
   * Request line plus headers, in bytes as sent (less the spaces around header values); larger requests get 431. node's
   * parser checks names, values and the target against it as they come in, the handler the whole.
   */
  maxHeaderSize: 16 * 1024,
  /** Time allowed to receive the complete request headers (slow-loris guard). */
  headersTimeoutMs: 10_000,
  /** Time allowed to receive the complete request. */
  requestTimeoutMs: 15_000,
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: 5_000,
  /**
   * A connection whose answer cannot be delivered (a client that stops reading) is reset when the output node holds for
   * it (or its FIN, waiting behind a full kernel buffer) has not moved for one whole check period: after 15 to 30 s,
   * like nginx's send_timeout.
   */
  stalledWriteCheckMs: 15_000,
  /** How long a shutdown waits for requests in flight before closing their sockets. */
  drainTimeoutMs: 10_000,
  /** Longer request paths are never a route; they answer 404 without being decoded. */
  maxPathLength: MAX_PATH_LENGTH,
  /** How often the parser checks headersTimeout and requestTimeout. */
  timeoutCheckIntervalMs: 1_000,
  /**
   * A connection the server closes reads and throws away what the client still sends, for this long at most (nginx's
   * lingering_time, and its default, so the generated configuration leaves it out).
   */
  lingeringTimeMs: 30_000,
  /** ... and ends sooner when the client sends nothing for this long (nginx's lingering_timeout, and its default). */
  lingeringTimeoutMs: 5_000,
} as const;

export type Limits = { -readonly [K in keyof typeof LIMITS]: number };
