/**
 * The ways a request fails with no response at all (`fault.networkError`), and the system errors Node's fetch
 * (undici) raises for them: `TypeError: fetch failed` whose `cause` carries `code`, `errno` and `syscall`.
 */

/**
 * How the connection fails:
 * - `reset`: the connection is reset before the response headers (`ECONNRESET`);
 * - `refused`: nothing listens (`ECONNREFUSED`), so the request never left;
 * - `dns`: the host name does not resolve (`ENOTFOUND`), so no connection was even tried;
 * - `timeout`: the server accepts the request and never answers; the client must time out or abort.
 */
export type NetworkFailure = 'reset' | 'refused' | 'dns' | 'timeout';

export const NETWORK_FAILURES: ReadonlySet<string> = new Set<NetworkFailure>([
  'reset',
  'refused',
  'dns',
  'timeout',
]);

/** Node's errno numbers (Linux) for the system errors undici wraps. */
const ERRNO = { ECONNREFUSED: -111, ENOTFOUND: -3008 } as const;

/**
 * The cause undici puts under `TypeError: fetch failed` when a connection is refused or a name does not resolve,
 * e.g. `Error: connect ECONNREFUSED 127.0.0.1:443 { code, errno: -111, syscall: 'connect', address, port }` and
 * `Error: getaddrinfo ENOTFOUND api.openai.com { code, errno: -3008, syscall: 'getaddrinfo', hostname }`.
 * MSW 3 rejects the fetch with exactly this wrapping when a handler throws an error that has `code` and `errno`.
 */
export function systemError(failure: 'refused' | 'dns', url: URL): Error & { code: string } {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (failure === 'refused') {
    const address = url.hostname;
    return Object.assign(new Error(`connect ECONNREFUSED ${address}:${port}`), {
      code: 'ECONNREFUSED',
      errno: ERRNO.ECONNREFUSED,
      syscall: 'connect',
      address,
      port,
    });
  }
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${url.hostname}`), {
    code: 'ENOTFOUND',
    errno: ERRNO.ENOTFOUND,
    syscall: 'getaddrinfo',
    hostname: url.hostname,
  });
}
