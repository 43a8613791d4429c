/**
 * `graceful-ai/redis`: resilience state shared by every process through the Redis client you already have
 * (node-redis or ioredis, v5 and later; neither is a dependency): circuit breakers (`RedisBreakerStore`), cool-downs
 * (`redisCoordination`, for the `coordination` option) and `AgentSession` histories with a lease
 * (`RedisSessionStore`). No Node built-in is used, so it runs wherever the client does. See docs/scale-out.md.
 */

export {
  SessionLeaseError,
  type SessionLeaseErrorOptions,
  type SessionLeaseProblem,
} from '../../src/errors/session-lease-error.js';
export {
  defaultBreakerTtlMs,
  RedisBreakerStore,
  type RedisBreakerStoreOptions,
} from './breaker-store.js';
export {
  defaultRedisStoreOptions,
  type RedisClientLike,
  type RedisStoreOptions,
} from './connection.js';
export { RedisCoordination, type RedisCoordinationOptions, redisCoordination } from './coordination.js';
export {
  defaultRedisSessionOptions,
  RedisSessionStore,
  type RedisSessionStoreOptions,
} from './session-store.js';
