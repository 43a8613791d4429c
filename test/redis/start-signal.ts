/**
 * A start for many processes that does not depend on how fast each one started: each reports ready and waits on a
 * Redis list; the parent pushes one "go" per process once all are ready. A wall-clock start time misses the
 * processes that a loaded machine started late.
 */
import { command, type TestClient } from './clients.js';

/**
 * In a worker: reports ready on `<key>:ready`, then waits (at most `timeoutS`) for its go on `key`: blocked on the
 * list over TCP; over Upstash's REST API, which serves no blocking command, by asking every 10 ms.
 */
export async function awaitStartSignal(client: TestClient, key: string, timeoutS = 60): Promise<void> {
  await command(client, ['INCR', `${key}:ready`]);
  if (client.kind !== 'upstash') {
    const go = await command(client, ['BLPOP', key, String(timeoutS)]);
    if (go === null) throw new Error(`no start signal on '${key}' within ${timeoutS} s`);
    return;
  }
  const deadline = Date.now() + timeoutS * 1000;
  while ((await command(client, ['LPOP', key])) === null) {
    if (Date.now() > deadline) throw new Error(`no start signal on '${key}' within ${timeoutS} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** In the parent: once `count` workers are ready on `key` (within `timeoutMs`), lets them all go at once. */
export async function giveStartSignal(
  client: TestClient,
  key: string,
  count: number,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Number(await command(client, ['GET', `${key}:ready`])) < count) {
    if (Date.now() > deadline)
      throw new Error(`fewer than ${count} workers ready on '${key}' after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await command(client, ['RPUSH', key, ...Array.from({ length: count }, () => 'go')]);
}
