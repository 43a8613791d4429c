import { type Coordination, InMemoryCoordination } from '../../src/policy/coordination.js';
import { RedisBreakerStore, type RedisBreakerStoreOptions } from './breaker-store.js';
import { type RedisClientLike, RedisConnection, type RedisScript } from './connection.js';

/** Options of {@link redisCoordination}: the shared store options, and the breakers' `ttlMs`. */
export type RedisCoordinationOptions = RedisBreakerStoreOptions;

/** Sets the cool-down to `ms` unless a longer one is already running. */
const coolDownScript: RedisScript = {
  source: `if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 1`,
};

/**
 * Cool-downs (and circuit breakers) shared through Redis: `<prefix>cooldown:<key>` exists while `key` cools down,
 * with Redis's own expiry as the clock (processes never compare theirs), and `breakerStore` is a
 * {@link RedisBreakerStore} on the same client. Each process also keeps the cool-downs it announced itself, so while
 * Redis is unavailable it still honours its own and calls as before otherwise.
 */
export class RedisCoordination implements Coordination {
  readonly breakerStore: RedisBreakerStore;
  readonly #redis: RedisConnection;
  readonly #local: InMemoryCoordination;

  constructor(client: RedisClientLike, options: RedisCoordinationOptions = {}) {
    this.breakerStore = new RedisBreakerStore(client, options);
    this.#redis = new RedisConnection(client, options);
    this.#local = new InMemoryCoordination({ clock: options.clock });
  }

  async cooldownRemainingMs(key: string): Promise<number> {
    const local = this.#local.cooldownRemainingMs(key);
    const remote = await this.#redis.orLocal(
      `cool-down '${key}'`,
      async () => Math.max(0, Number(await this.#redis.command(['PTTL', this.#key(key)]))),
      () => 0,
    );
    return Math.max(local, remote);
  }

  async coolDown(key: string, ms: number): Promise<void> {
    this.#local.coolDown(key, ms);
    const whole = String(Math.max(1, Math.ceil(ms)));
    await this.#redis.orLocal(
      `cool-down '${key}'`,
      () => this.#redis.script(coolDownScript, [this.#key(key)], [whole]),
      () => undefined,
    );
  }

  #key(key: string): string {
    return `${this.#redis.prefix}cooldown:${key}`;
  }
}

/**
 * Coordination through the user's own Redis client, for the `coordination` option of the drop-ins, `streamGuard`,
 * `gracefulTool(s)` and `AgentSession`: shared cool-downs and shared circuit breakers.
 *
 * @example
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const coordination = redisCoordination(redis);
 * streamText({ model, prompt, tools, coordination });
 */
export function redisCoordination(
  client: RedisClientLike,
  options: RedisCoordinationOptions = {},
): RedisCoordination {
  return new RedisCoordination(client, options);
}
