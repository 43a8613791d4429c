import { describe, expect, it } from 'vitest';
import { startRedis } from '../../scripts/redis-server.js';

describe('startRedis', () => {
  it('a server that exits before it listens fails the start at once, saying so (no attempt limit to wait out)', async () => {
    await expect(startRedis({ command: 'false' })).rejects.toThrow(
      /^redis-server exited \(1\) before listening on port \d+: \(no log\)$/,
    );
  });
});
