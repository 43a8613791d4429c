// When re-running a failed call is safe although the call is not idempotent: the error proves the call never took
// effect. Pure and SDK-independent: it reads only the facts the classifier reads (see `errorFacts`).

import { errorFacts } from '../classify/error-facts.js';
import { mcpTransportFailure } from '../classify/mcp-transport.js';
import { CircuitOpenError } from '../errors/circuit-open-error.js';
import { errorMarker, hasMarker } from '../errors/graceful-error.js';
import { read } from '../util/guarded.js';

/**
 * System and undici error codes raised before a single byte of the request left the machine, so the dependency
 * cannot have acted on it:
 * - `ECONNREFUSED`: the TCP connection was refused (nothing listens); a reset of an established connection is
 *   `ECONNRESET` instead.
 * - `ENOTFOUND`, `EAI_AGAIN`: the host name did not resolve (for good, or for now): no connection was even tried.
 * - `UND_ERR_CONNECT_TIMEOUT`: undici (Node's `fetch`) gave up while connecting (`ConnectTimeoutError`).
 *
 * Not on the list, because the request may have arrived: `ECONNRESET`, `EPIPE`, `ECONNABORTED`, `ETIMEDOUT`,
 * `ESOCKETTIMEDOUT` (a timeout of any phase), `EHOSTUNREACH`/`ENETUNREACH` (also reported on a connection that was
 * already open), `UND_ERR_SOCKET`, `UND_ERR_HEADERS_TIMEOUT`, `UND_ERR_BODY_TIMEOUT`, `UND_ERR_CLOSED`.
 */
export const notExecutedErrorCodes: readonly string[] = Object.freeze([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * HTTP statuses by which a server refuses a request instead of handling it:
 * - 429 Too Many Requests (RFC 6585 §4): the request was rejected by rate limiting;
 * - 503 Service Unavailable (RFC 9110 §15.6.4): the server (or a proxy in front of it) is unable to handle the
 *   request now.
 *
 * Not on the list: 500 and 502 (the server or the upstream may have done part of the work), 504 and 408 (a timeout:
 * the upstream may still finish), and every 4xx the server answers after looking at the request.
 */
export const notExecutedStatuses: readonly number[] = Object.freeze([429, 503]);

/**
 * Whether `error` proves that the failed call never took effect, so running it again cannot do anything twice
 * (send a second e-mail, book a second seat) even when the call is not idempotent. `false` means "not proven", not
 * "it ran": the retry loop then re-runs only a call declared idempotent (see `RetryPolicy.idempotent`).
 *
 * Proof, found on the error or anywhere along its cause chain (read as the classifier reads it, see `errorFacts`:
 * `cause`, a `RetryError`'s `lastError`, an `AggregateError`'s `errors`):
 * - a system or undici code of {@link notExecutedErrorCodes} (refused connection, unresolved host, connect
 *   timeout): the request never left;
 * - the first HTTP status of the chain is one of {@link notExecutedStatuses} (429, 503): the dependency refused the
 *   request;
 * - a `CircuitOpenError` without a `cause`: a dependency's breaker rejected the call before running it. One with a
 *   `cause` was raised after a call that ran (its failure opened the circuit), so only that cause can prove
 *   anything, and it is on the chain too;
 * - a `CooldownError`: a shared cool-down kept the call from being sent;
 * - an MCP client's error saying the session expired (the server refused it before handling it) or that the client
 *   is closed or not connected (nothing was sent); a connection that closed while the call was pending is no proof.
 *
 * Never proof: graceful-ai's own `ToolTimeoutError` (a timed-out attempt is abandoned, not undone: it may still
 * finish), resets and other network errors once connected, any error without one of these facts (a plain `Error`
 * thrown after the e-mail went out looks like any other).
 *
 * The rule trusts that the error describes the call's one effect. A tool that does several things and rethrows the
 * failure of a later step (send the e-mail, then fail to reach the log service with `ECONNREFUSED`) should catch
 * that failure, or throw an error without that cause.
 */
export function provesNotExecuted(error: unknown): boolean {
  const facts = errorFacts(error);
  if (facts.status !== undefined && notExecutedStatuses.includes(facts.status)) return true;
  if (facts.codes.some((code) => notExecutedErrorCodes.includes(code))) return true;
  if (mcpTransportFailure(facts)?.notExecuted) return true;
  return facts.nodes.some(rejectedByBreaker);
}

/**
 * A `CircuitOpenError` raised at admission (no `cause`), or a `CooldownError` (the call was never sent); a hostile
 * object (a throwing proxy) is not one.
 */
function rejectedByBreaker(node: unknown): boolean {
  try {
    return (
      hasMarker(node, errorMarker('CooldownError')) ||
      (CircuitOpenError.isInstance(node) && read(node, 'cause') === undefined)
    );
  } catch {
    return false;
  }
}
