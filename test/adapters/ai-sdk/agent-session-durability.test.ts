import * as fs from 'node:fs';
import { statSync } from 'node:fs';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, type ModelMessage, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentSession } from '../../../adapters/ai-sdk/agent-session.js';
import { type RecordedRequest, reply } from '../../../mocks/index.js';
import { mockHandlers } from '../../../mocks/msw.js';
import { SessionStoreClosedError, SessionStoreError } from '../../../src/errors/session-errors.js';
import { contextFromEntries } from '../../../src/session/entries.js';
import type { SessionEvent } from '../../../src/session/events.js';
import { JsonlSessionStore } from '../../../src/session/jsonl-store.js';
import { sessionFileInternalsKey } from '../../../src/session/session-fs.js';
import { freshPath, fsError, quiet } from '../../src/session/fixtures/session-files.js';

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

const openai = createOpenAI({ apiKey: 'sk-test' });
const noSleep = async () => {};

/** A model whose every call fails with `error`. */
const failingModel = (error: () => unknown) =>
  new MockLanguageModelV4({
    doStream: async () => {
      throw error();
    },
  });

const transient = (message: string) =>
  new APICallError({
    message,
    url: 'https://api.test/v1',
    requestBodyValues: {},
    statusCode: 503,
    isRetryable: true,
  });

describe('AgentSession: the store fails during a turn', () => {
  it('a full disk while saving a tool step fails prompt() with SessionStoreError; no further request; the file matches', async () => {
    const path = freshPath();
    let diskFull = false;
    const store = new JsonlSessionStore<ModelMessage>(path, {
      [sessionFileInternalsKey]: {
        fs: {
          writeSync: (fd: number, buffer: Uint8Array, offset: number, length: number) => {
            if (!diskFull) return fs.writeSync(fd, buffer, offset, length);
            fs.writeSync(fd, buffer, offset, Math.min(length, 12));
            throw fsError('ENOSPC');
          },
        },
      },
    } as never);
    const execute = vi.fn(async ({ city }: { city: string }) => {
      diskFull = true;
      return `sunny in ${city}`;
    });
    const handlers = mockHandlers([reply.toolCall('weather', { city: 'Oslo' }), reply.text('Sunny.')]);
    msw.use(...handlers);
    const session = new AgentSession({
      model: openai.chat('gpt-mock'),
      tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute }) },
      store,
      logger: quiet,
      sleep: noSleep,
    });
    const error = await session.prompt('weather?').catch((e: unknown) => e);
    expect(SessionStoreError.isInstance(error), String(error)).toBe(true);
    expect((error as SessionStoreError).entryType).toBe('message');
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(execute).toHaveBeenCalledTimes(1);
    expect((handlers.requests as RecordedRequest[]).length).toBe(1);
    expect(session.isRetrying).toBe(false);
    session.close();
    diskFull = false;
    const reopened = new JsonlSessionStore<ModelMessage>(path);
    expect(contextFromEntries(reopened.entries)).toEqual(session.messages);
    expect(session.messages).toEqual([{ role: 'user', content: 'weather?' }]);
    reopened.close();
  });

  it('a store closed in the middle of a turn fails prompt() with SessionStoreError (cause SessionStoreClosedError)', async () => {
    const store = new JsonlSessionStore<ModelMessage>(freshPath());
    const execute = vi.fn(async () => {
      store.close();
      return 'done';
    });
    msw.use(...mockHandlers([reply.toolCall('job', {}), reply.text('never')]));
    const session = new AgentSession({
      model: openai.chat('gpt-mock'),
      tools: { job: tool({ inputSchema: z.object({}), execute }) },
      store,
      logger: quiet,
      sleep: noSleep,
    });
    const error = await session.prompt('go').catch((e: unknown) => e);
    expect(SessionStoreError.isInstance(error), String(error)).toBe(true);
    expect(SessionStoreClosedError.isInstance((error as Error).cause)).toBe(true);
  });
});

describe('AgentSession: errors that JSON cannot hold, huge errors, secrets', () => {
  it.each([
    ['a BigInt message', () => Object.assign(new Error('x'), { message: 10n }), '10'],
    [
      'a cyclic message',
      () => {
        const cyclic: Record<string, unknown> = { code: 'loop' };
        cyclic.self = cyclic;
        return Object.assign(new Error('x'), { message: cyclic });
      },
      '[object Object]',
    ],
  ])('%s: prompt() rejects with the original error and the error entry is written', async (_, make, text) => {
    const path = freshPath();
    const thrown = make();
    const session = AgentSession.load(path, { model: failingModel(() => thrown), logger: quiet });
    await expect(session.prompt('hi')).rejects.toBe(thrown);
    session.close();
    const entries = new JsonlSessionStore(path).entries;
    expect(entries.map((e) => e.type)).toEqual(['message', 'error']);
    expect(entries[1]).toMatchObject({ error: { name: 'Error', message: text } });
  });

  it('a 5 MB error message over 4 attempts: every entry and event holds a bounded rendering', async () => {
    const path = freshPath();
    const huge = `upstream said: ${'x'.repeat(5 * 1024 * 1024)}`;
    const session = AgentSession.load(path, {
      model: failingModel(() => transient(huge)),
      logger: quiet,
      sleep: noSleep,
    });
    const events: SessionEvent<ModelMessage>[] = [];
    session.subscribe((e) => events.push(e));
    await expect(session.prompt('hi')).rejects.toThrow(/Retry failed after 3 attempts/);
    session.close();
    expect(statSync(path).size).toBeLessThan(40_000);
    for (const event of events) expect(JSON.stringify(event).length, event.type).toBeLessThan(5_000);
    const start = events.find((e) => e.type === 'auto_retry_start');
    expect(start).toMatchObject({
      errorMessage: expect.stringMatching(/^upstream said: x+… \[truncated \d+ chars\]$/),
    });
  });

  it('secrets in an error are redacted in auto_retry_start, attempt_error and the persisted error entry', async () => {
    const path = freshPath();
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz123456';
    const session = AgentSession.load(path, {
      model: failingModel(() => transient(`invalid key ${key} for this project`)),
      logger: quiet,
      sleep: noSleep,
      settings: { retry: { maxRetries: 1 } },
    });
    const events: SessionEvent<ModelMessage>[] = [];
    session.subscribe((e) => events.push(e));
    await session.prompt('hi').catch(() => undefined);
    session.close();
    const file = fs.readFileSync(path, 'utf8');
    expect(file).not.toContain(key);
    expect(file).toContain('invalid key [REDACTED] for this project');
    expect(JSON.stringify(events)).not.toContain(key);
    expect(events.find((e) => e.type === 'auto_retry_start')).toMatchObject({
      errorMessage: 'invalid key [REDACTED] for this project',
    });
  });
});
