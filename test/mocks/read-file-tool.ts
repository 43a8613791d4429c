import { tool } from 'ai';
import { z } from 'zod';

/** A tool that finds only `notes/todo.txt` and records every path it was asked for: one tool failing, one not. */
export const readFile = (seen: string[] = []) =>
  tool({
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      seen.push(path);
      if (path !== 'notes/todo.txt') throw new Error(`ENOENT: no such file '${path}'`);
      return 'buy milk';
    },
  });
