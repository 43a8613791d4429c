import { describe, expect, it } from 'vitest';
import { classifyError, isContextOverflow } from '../../../src/classify/classify.js';
import { realWorldCases, toApiCallError } from './real-world.js';

describe('classifyError over real provider errors (APICallError as the AI SDK throws it)', () => {
  it('covers at least 40 distinct messages across the providers the issue lists', () => {
    const messages = new Set(realWorldCases.map((c) => JSON.stringify(c.body)));
    expect(messages.size).toBe(realWorldCases.length);
    expect(realWorldCases.length).toBeGreaterThanOrEqual(40);
    const providers = new Set(realWorldCases.map((c) => c.provider));
    for (const provider of [
      'OpenAI',
      'Anthropic',
      'Gemini',
      'xAI',
      'Groq',
      'OpenRouter',
      'Mistral',
      'Bedrock',
      'llama.cpp',
      'LM Studio',
      'Ollama',
      'vLLM',
    ]) {
      expect(providers, provider).toContain(provider);
    }
  });

  it.each(realWorldCases)('$provider $status: $what → $kind', (c) => {
    const result = classifyError(toApiCallError(c), { unknown: 'permanent' });
    expect(result.kind).toBe(c.kind);
    expect(result.retryAfterMs).toBe(c.retryAfterMs);
    if (c.reason) expect(result.reason).toBe(c.reason);
    expect(isContextOverflow(toApiCallError(c))).toBe(c.kind === 'overflow');
  });

  it('classifies the bare messages alike when no status or body is left (e.g. re-thrown as plain Errors)', () => {
    const misread = realWorldCases
      .filter((c) => c.kind === 'overflow')
      .filter((c) => classifyError(new Error(toApiCallError(c).responseBody)).kind !== 'overflow')
      .map((c) => `${c.provider}: ${c.what}`);
    expect(misread).toEqual([]);
  });
});
