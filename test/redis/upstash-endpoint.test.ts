/**
 * The local Upstash REST endpoint speaks the protocol `@upstash/redis` expects (checked through the client's own API:
 * typed commands, pipelines, transactions, scripts, base64 responses), answers the raw protocol as Upstash's REST
 * API documents it (upstash/docs redis/features/restapi.mdx), and graceful-ai's client seam gets each reply as Redis
 * holds it, whichever way the client is configured.
 */
import { Redis as UpstashRedis } from '@upstash/redis';
import { expect, it } from 'vitest';
import { commandSender } from '../../adapters/redis/connection.js';
import { command } from './clients.js';
import { describeWithRedis, endpointBesideTcp } from './describe-with-redis.js';

let n = 0;
const key = (name: string) => `upstash-endpoint:${n++}:${name}`;

describeWithRedis('a local Upstash REST endpoint over redis-server', (server) => {
  const { endpoint, tcp } = endpointBesideTcp(server);
  const client = (options: { automaticDeserialization?: boolean; responseEncoding?: false } = {}) =>
    new UpstashRedis({ url: endpoint().url, token: endpoint().token, ...options });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${endpoint().url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${endpoint().token}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: await response.json() }));

  it("serves the client's own API: typed commands, auto-pipelining, pipelines, transactions and scripts", async () => {
    const redis = client();
    const k = key('typed');
    expect(await redis.set(k, { city: 'Oslo', n: 1 }, { px: 60_000 })).toBe('OK');
    expect(await redis.get(k)).toEqual({ city: 'Oslo', n: 1 });
    expect(await redis.set(k, 'other', { nx: true })).toBeNull();
    expect(await redis.pttl(k)).toBeGreaterThan(59_000);
    // Auto-pipelining (the default) batches concurrent reads into one /pipeline request.
    const missing = key('missing');
    const before = endpoint().requests.length;
    expect(await Promise.all([redis.get(k), redis.get(missing)])).toEqual([{ city: 'Oslo', n: 1 }, null]);
    expect(endpoint().requests.slice(before)).toEqual([
      {
        path: '/pipeline',
        commands: [
          ['get', k],
          ['get', missing],
        ],
      },
    ]);
    const [p, l] = [key('p'), key('l')];
    expect(await redis.pipeline().set(p, 'x').get(p).exec()).toEqual(['OK', 'x']);
    expect(await redis.multi().rpush(l, 'a', 'b').lrange(l, 0, -1).exec()).toEqual([2, ['a', 'b']]);
    const sha = await redis.scriptLoad('return ARGV[1]');
    expect(await redis.evalsha(sha, [], ['héllo ✓'])).toBe('héllo ✓');
    await expect(redis.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
  });

  it('answers the raw protocol: results, errors, auth, base64, pipeline and transaction entries', async () => {
    const k = key('raw');
    expect(await post('/', ['SET', k, 'bar', 'EX', 100])).toEqual({ status: 200, body: { result: 'OK' } });
    expect(await post('/', ['GET', k])).toEqual({ status: 200, body: { result: 'bar' } });
    expect(await post('/', ['INCR', k])).toEqual({
      status: 400,
      body: { error: 'ERR value is not an integer or out of range' },
    });
    // base64: every string but an OK result (the docs' example: "OK", then "YmFy" for GET foo; the client decodes
    // each pipeline entry as it decodes a single result).
    const b64 = { 'upstash-encoding': 'base64' };
    expect(await post('/', ['SET', k, 'bar'], b64)).toEqual({ status: 200, body: { result: 'OK' } });
    expect(await post('/', ['GET', k], b64)).toEqual({ status: 200, body: { result: 'YmFy' } });
    expect((await post('/pipeline', [['SET', k, 'bar'], ['PING']], b64)).body).toEqual([
      { result: 'OK' },
      { result: 'UE9ORw==' },
    ]);
    expect(
      (
        await post('/pipeline', [
          ['SET', k, 'x'],
          ['INCR', k],
          ['PTTL', 'no-such-key'],
        ])
      ).body,
    ).toEqual([{ result: 'OK' }, { error: 'ERR value is not an integer or out of range' }, { result: -2 }]);
    // A transaction: a command that fails at run time fails alone; one Redis refuses to queue discards them all.
    expect(
      (
        await post('/multi-exec', [
          ['SET', k, 'y'],
          ['INCR', k],
          ['GET', k],
        ])
      ).body,
    ).toEqual([{ result: 'OK' }, { error: 'ERR value is not an integer or out of range' }, { result: 'y' }]);
    const discarded = await post('/multi-exec', [['SET', k, 'z'], ['NOSUCHCOMMAND']]);
    expect(discarded.status).toBe(400);
    expect(discarded.body.error).toMatch(/^ERR unknown command 'NOSUCHCOMMAND'/);
    expect(await command(tcp(), ['GET', k])).toBe('y');
    // Authentication: the bearer token, or _token in the query.
    const anonymous = await fetch(endpoint().url, { method: 'POST', body: '["PING"]' });
    expect(anonymous.status).toBe(401);
    const query = await fetch(`${endpoint().url}/?_token=${endpoint().token}`, {
      method: 'POST',
      body: '["PING"]',
    });
    expect(await query.json()).toEqual({ result: 'PONG' });
    expect((await post('/', ['PING'], { authorization: 'Bearer wrong' })).status).toBe(401);
  });

  it('bytes that are no UTF-8: U+FFFD as JSON text, exact in base64', async () => {
    const k = key('bytes');
    await command(tcp(), ['EVAL', "redis.call('SET', KEYS[1], string.char(104, 255, 105))", '1', k]);
    expect((await post('/', ['GET', k])).body).toEqual({ result: 'h\uFFFDi' });
    expect((await post('/', ['GET', k], { 'upstash-encoding': 'base64' })).body).toEqual({
      result: Buffer.from([104, 255, 105]).toString('base64'),
    });
  });

  it('refuses what the REST API does not serve: blocking commands, WATCH, MULTI outside /multi-exec', async () => {
    for (const words of [['BLPOP', key('q'), '1'], ['WATCH', key('w')], ['MULTI'], ['SUBSCRIBE', 'c']]) {
      const answer = await post('/', words);
      expect(answer, words[0]).toEqual({
        status: 400,
        body: { error: `ERR command is not available over the REST API: '${words[0]}'` },
      });
    }
    expect((await post('/', ['XREAD', 'BLOCK', '0', 'STREAMS', key('s'), '$'])).status).toBe(400);
    expect(
      (
        await post('/multi-exec', [
          ['SET', key('t'), '1'],
          ['BRPOP', key('t'), '0'],
        ])
      ).status,
    ).toBe(400);
    await expect(client().exec(['BLPOP', key('q'), '1'])).rejects.toThrow(/not available over the REST API/);
  });

  it.each([
    ['defaults (JSON deserialization, base64 responses)', {}],
    [
      'automaticDeserialization: false, responseEncoding: false',
      { automaticDeserialization: false, responseEncoding: false },
    ],
  ] as const)('the seam gets every reply as Redis holds it: %s', async (_, options) => {
    const send = commandSender(client(options));
    const record = JSON.stringify({ state: 'open', failures: 0, openUntil: 1.5e12, trialStartedAt: null });
    const k = key('seam');
    const list = key('seam-list');
    const entries = [
      JSON.stringify({ type: 'message', at: 1, message: { role: 'user', content: 'hé "quoted" ✓' } }),
    ];
    expect(await send(['SET', k, record, 'PX', '60000'])).toBe('OK');
    expect(await send(['GET', k])).toBe(record);
    expect(await send(['SET', k, 'x', 'NX'])).toBeNull();
    expect(await send(['GET', key('none')])).toBeNull();
    expect(await send(['RPUSH', list, ...entries, 'c0ffee-token'])).toBe(2);
    expect(await send(['LRANGE', list, '0', '-1'])).toEqual([...entries, 'c0ffee-token']);
    expect(Number(await send(['PTTL', k]))).toBeGreaterThan(59_000);
    expect(await send(['EVAL', "return {0, redis.call('GET', KEYS[1])}", '1', k])).toEqual([0, record]);
    await expect(send(['EVALSHA', '0'.repeat(40), '0'])).rejects.toThrow(/NOSCRIPT/);
    // What the TCP clients read is the same text.
    expect(await command(tcp(), ['GET', k])).toBe(record);
  });
});
