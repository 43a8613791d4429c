import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { classifyError, isContextOverflow } from '../../../src/classify/classify.js';

const apiError = (statusCode: number, body: unknown, responseHeaders?: Record<string, string>) =>
  new APICallError({
    message: 'request failed',
    url: 'https://api.example.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders,
    responseBody: JSON.stringify(body),
    data: body,
  });

describe('classifyError', () => {
  it('reads status, provider code and Node codes along the cause chain', () => {
    expect(classifyError(apiError(503, { error: { message: 'Service Unavailable' } }))).toEqual({
      kind: 'transient',
      reason: 'status:503',
    });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(classifyError(new TypeError('fetch failed', { cause: reset })).reason).toBe('code:ECONNRESET');
    expect(
      classifyError(apiError(400, { error: { code: 'context_length_exceeded', message: 'too long' } })).kind,
    ).toBe('overflow');
    expect(isContextOverflow(new Error('prompt is too long: 208000 tokens > 200000 maximum'))).toBe(true);
  });
});
