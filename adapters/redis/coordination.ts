import { type CoordinationOptions, SharedCooldowns } from '../../src/policy/shared-cooldowns.js';
import { RedisBreakerStore, type RedisBreakerStoreOptions } from './breaker-store.js';
import { type RedisClientLike, RedisConnection, type RedisScript } from './connection.js';

/** Options of {@link redisCoordination}: the shared store options, and the breakers' `ttlMs`. */
export type RedisCoordinationOptions = RedisBreakerStoreOptions & CoordinationOptions;

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
 * {@link RedisBreakerStore} on the same client. While Redis is unavailable each process still honours the cool-downs
 * it announced itself, and otherwise calls as it would alone.
 */
export class RedisCoordination extends SharedCooldowns {
  override readonly breakerStore: RedisBreakerStore;
  readonly #redis: RedisConnection;

  constructor(client: RedisClientLike, options: RedisCoordinationOptions = {}) {
    super({ clock: options.clock, logger: options.logger });
    this.breakerStore = new RedisBreakerStore(client, options);
    this.#redis = new RedisConnection(client, options);
  }

  protected override sharedRemainingMs(key: string): Promise<number> {
    return this.#redis.orLocal(
      `cool-down '${key}'`,
      async () => Math.max(0, Number(await this.#redis.command(['PTTL', this.#key(key)]))),
      () => 0,
    );
  }

  protected override async shareCooldown(key: string, ms: number): Promise<void> {
    await this.#redis.orLocal(
      `cool-down '${key}'`,
      () => this.#redis.script(coolDownScript, [this.#key(key)], [String(Math.max(1, ms))]),
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
