/**
 * Whether the Redis tests run: with redis-server installed; where it is missing they skip with a one-line how-to,
 * except under `CI=true` (`.ci/run` installs it), where they fail.
 */
import { redisServerInstalled } from '../../scripts/redis-server.js';

export type RedisPlan = { run: true } | { run: false; fail: boolean; message: string };

/** Run when redis-server is there; without it, fail under CI (which installs it) and skip with a notice elsewhere. */
export function planRedis(installed: boolean, env: Record<string, string | undefined>): RedisPlan {
  if (installed) return { run: true };
  const message =
    "redis-server is missing: install Debian's Redis (`sudo apt-get install -y redis-server`) to run the Redis tests.";
  return { run: false, fail: env.CI === 'true', message };
}

export const redisPlan = (): RedisPlan => planRedis(redisServerInstalled(), process.env);
