import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ContextOverflowError } from '../../../src/errors/context-overflow-error.js';
import { GracefulError } from '../../../src/errors/graceful-error.js';

describe('ContextOverflowError', () => {
  const original = new APICallError({
    message: 'prompt is too long: 208310 tokens > 200000 maximum',
    url: 'https://api.anthropic.com/v1/messages',
    requestBodyValues: {},
    statusCode: 400,
  });

  it('carries the original error and says what happened and what to do', () => {
    const error = new ContextOverflowError({ cause: original });
    expect(error.cause).toBe(original);
    expect(error.name).toBe('ContextOverflowError');
    expect(error.message).toContain("no longer fits the model's context window");
    expect(error.message).toContain('prompt is too long: 208310 tokens > 200000 maximum');
    expect(error.message).toMatch(/compact|summarise/);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(GracefulError.isInstance(error)).toBe(true);
    expect(ContextOverflowError.isInstance(original)).toBe(false);
  });

  it('bounds the quoted cause and accepts a custom message', () => {
    const long = new ContextOverflowError({ cause: new Error('x'.repeat(10_000)) });
    expect(long.message.length).toBeLessThan(600);
    expect(
      new ContextOverflowError({ cause: 'raw', message: 'Still too long after compaction.' }).message,
    ).toBe('Still too long after compaction.');
    expect(new ContextOverflowError({ cause: undefined }).message).toMatch(
      /^The conversation no longer fits/,
    );
  });
});
