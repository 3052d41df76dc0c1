// The connection limits and timeouts, one value each: the embedded server applies them and the nginx configuration is generated from them.
import { MAX_PATH_LENGTH } from './request-target.ts';

/**
 * Limits that keep a slow or hostile client from holding a socket; documented in docs/serving.md. The embedded server
 * applies them all; the generated nginx configuration states the header size and the four timeouts it has a directive
 * for (headers, request, keep-alive, stalled write).
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
   * A connection whose answer cannot be delivered (a client that stops reading) is reset when its pending output, in
   * node or in the kernel, has not moved for one whole check period: after 15 to 30 s, like nginx's send_timeout.
   */
  stalledWriteCheckMs: 15_000,
  /** How long a shutdown waits for requests in flight before closing their sockets. */
  drainTimeoutMs: 10_000,
  /** Longer request paths are never a route; they answer 404 without being decoded. */
  maxPathLength: MAX_PATH_LENGTH,
  /** How often the parser checks headersTimeout and requestTimeout. */
  timeoutCheckIntervalMs: 1_000,
  /** How often the kernel queues of closing connections are read, to let go of one whose client has everything. */
  deliveredCheckMs: 250,
} as const;

export type Limits = { -readonly [K in keyof typeof LIMITS]: number };
