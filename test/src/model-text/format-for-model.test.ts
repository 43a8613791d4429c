import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AggregateToolError } from '../../../src/errors/aggregate-tool-error.js';
import { ModelRetry } from '../../../src/errors/model-retry.js';
import { UnexpectedModelBehavior } from '../../../src/errors/unexpected-model-behavior.js';
import { attachModelText, formatToolError } from '../../../src/model-text/format-for-model.js';

const GUIDE = '\n\nFix the errors and try again.';

describe('error classes', () => {
  it('have stable names, markers and the documented fields', () => {
    const cause = new Error('last');
    const umb = new UnexpectedModelBehavior({ toolName: 'search', retries: 2, cause });
    expect(umb.message).toBe("Tool 'search' exceeded max retries count of 2");
    expect([umb.name, umb.toolName, umb.retries, umb.cause]).toEqual([
      'UnexpectedModelBehavior',
      'search',
      2,
      cause,
    ]);
    expect(UnexpectedModelBehavior.isInstance(umb)).toBe(true);
    expect(ModelRetry.isInstance(umb)).toBe(false);
    const retry = new ModelRetry('try a date', { cause });
    expect([retry.name, retry.cause, retry instanceof Error]).toEqual(['ModelRetry', cause, true]);
    const agg = new AggregateToolError({
      errors: [
        { toolName: 'a', toolCallId: '1', error: cause },
        { toolName: 'b', toolCallId: '2', error: 'x' },
      ],
    });
    expect(AggregateToolError.isInstance(agg)).toBe(true);
    expect(agg.errors.map((e) => e.toolName)).toEqual(['a', 'b']);
    expect(agg.message).toContain("'a' (1), 'b' (2)");
  });
});

describe('formatToolError', () => {
  it('renders a ModelRetry as its message plus the guidance, never twice', () => {
    const retry = new ModelRetry('No city called "Pariss". Did you mean "Paris"?');
    expect(formatToolError(retry)).toBe(`No city called "Pariss". Did you mean "Paris"?${GUIDE}`);
    expect(formatToolError(new ModelRetry(`already guided${GUIDE}`))).toBe(`already guided${GUIDE}`);
    const text = formatToolError(retry);
    attachModelText(retry, text);
    expect(formatToolError(retry)).toBe(text);
    expect(String(retry)).toBe(text);
  });

  it('renders a 3-deep cause chain one line per cause', () => {
    const root = Object.assign(new Error("ENOENT: no such file or directory, open '/data/q3.csv'"), {
      name: 'FsError',
    });
    const mid = new Error('could not load the sales table', { cause: root });
    const top = new TypeError('report failed', { cause: mid });
    expect(formatToolError(top)).toBe(
      [
        'TypeError: report failed',
        'Caused by: Error: could not load the sales table',
        "Caused by: FsError: ENOENT: no such file or directory, open '/data/q3.csv'",
      ].join('\n') + GUIDE,
    );
  });

  it('limits the depth and detects cycles', () => {
    let deep: Error = new Error('level 0');
    for (let i = 1; i < 20; i++) deep = new Error(`level ${i}`, { cause: deep });
    const text = formatToolError(deep);
    expect(text.match(/Caused by/g)).toHaveLength(6);
    expect(text).toContain('deeper causes omitted');
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(formatToolError(a)).toBe(
      `Error: a\nCaused by: Error: b\nCaused by: (cycle: an earlier error in this chain)${GUIDE}`,
    );
  });

  it('skips a cause that repeats its parent and renders validation issues compactly', () => {
    const parsed = z.object({ city: z.string(), days: z.number().max(14) }).safeParse({ days: 30 });
    const zodError = parsed.error!;
    const text = formatToolError(new Error(`Invalid input: ${zodError.message}`, { cause: zodError }));
    expect(text).toContain(
      'Caused by: ZodError: city: Invalid input: expected string, received undefined; days: Too big',
    );
    const wrapped = new Error('wrapper', { cause: new Error('wrapper') });
    expect(formatToolError(wrapped)).toBe(`Error: wrapper${GUIDE}`);
  });

  it.each([
    ['a string', 'disk full', 'disk full'],
    ['a number', 42, 'Thrown value: 42'],
    ['null', null, 'Unknown error (the tool threw null)'],
    ['undefined', undefined, 'Unknown error (the tool threw undefined)'],
    ['a plain object', { code: 'E_QUOTA', left: 0 }, 'Thrown object: {"code":"E_QUOTA","left":0}'],
    ['an object with a message', { message: 'quota exceeded' }, 'Error: quota exceeded'],
    ['an array', ['a', 1], 'Thrown value: ["a",1]'],
    ['a Symbol', Symbol('stop'), 'Thrown value: Symbol(stop)'],
    ['a boolean', false, 'Thrown value: false'],
    ['a bigint', 10n, 'Thrown value: 10'],
  ])('renders %s', (_label, value, expected) => {
    expect(formatToolError(value)).toBe(`${expected}${GUIDE}`);
  });

  it('renders an AggregateError with its inner errors', () => {
    const agg = new AggregateError([new Error('mirror 1 down'), 'mirror 2 down', null], 'all mirrors failed');
    expect(formatToolError(agg)).toBe(
      [
        'AggregateError: all mirrors failed',
        '  [1] Error: mirror 1 down',
        '  [2] mirror 2 down',
        '  [3] Unknown error (the tool threw null)',
      ].join('\n') + GUIDE,
    );
  });

  it('never throws: hostile getters, toString, proxies, circular objects', () => {
    const hostile = Object.create(Error.prototype, {
      message: {
        get() {
          throw new Error('getter');
        },
      },
      name: {
        get() {
          throw new Error('getter');
        },
      },
    });
    expect(formatToolError(hostile)).toBe(`Error${GUIDE}`);
    const badToString = {
      toString() {
        throw new Error('no');
      },
      toJSON() {
        throw new Error('no');
      },
    };
    expect(formatToolError(badToString)).toBe(`Thrown value: [object Object]${GUIDE}`);
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    expect(() => formatToolError(proxy)).not.toThrow();
    const circular: Record<string, unknown> = { id: 1 };
    circular.self = circular;
    expect(formatToolError(circular)).toBe(`Thrown object: {"id":1,"self":"[Circular]"}${GUIDE}`);
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true }),
        (v) => {
          const text = formatToolError(v, { maxErrorChars: 300 });
          return (
            typeof text === 'string' && text.length <= 300 && text.endsWith('Fix the errors and try again.')
          );
        },
      ),
    );
  });

  it('bounds a 1 MB message, marks the cut and keeps the guidance', () => {
    const huge = new Error(`x${'y'.repeat(1_000_000)}`);
    const text = formatToolError(huge);
    expect(text.length).toBe(2000);
    expect(text).toMatch(/… \[truncated \d+ chars\]\n\nFix the errors and try again\.$/);
    expect(formatToolError(huge, { maxErrorChars: 500 })).toHaveLength(500);
  });

  it('drops stack traces and never shows the stack property', () => {
    const err = new Error('failed\n    at run (/app/tool.js:10:5)\n    at main (/app/index.js:2:1)');
    expect(formatToolError(err)).toBe(`Error: failed${GUIDE}`);
    expect(formatToolError(new Error('plain'))).not.toContain(' at ');
  });

  it('redacts secrets and applies details and guidance kinds', () => {
    const err = new Error('401 for key sk-proj-abcdefghijklmnopqrstuvwx');
    expect(formatToolError(err, { details: 'Available tools: a, b.' })).toBe(
      `Error: 401 for key [REDACTED]\nAvailable tools: a, b.${GUIDE}`,
    );
    expect(formatToolError(err, { guidance: 'none' })).toBe('Error: 401 for key [REDACTED]');
    expect(formatToolError(new Error('order 12345'), { redact: /\d{5}/ })).toBe(
      `Error: order [REDACTED]${GUIDE}`,
    );
  });

  it('redacts a key split between two messages of the chain in both, keeping the lines', () => {
    const error = new Error('auth failed with sk-proj-AbCdEf', {
      cause: new Error('GhIjKl0123456789 rejected'),
    });
    expect(formatToolError(error, { guidance: 'none' })).toBe(
      'Error: auth failed with [REDACTED]\nCaused by: Error: [REDACTED] rejected',
    );
  });

  it('redacts a token whose Bearer ended the message before (the space between them was trimmed)', () => {
    const error = new Error('sent Authorization: Bearer ', {
      cause: new Error('abc123DEF456ghi789 was rejected'),
    });
    expect(formatToolError(error, { guidance: 'none' })).toBe(
      'Error: sent Authorization: Bearer\nCaused by: Error: [REDACTED] was rejected',
    );
  });

  it('does not continue a message that ends a clause into the next one', () => {
    const error = new Error('Invalid value for password: Required.', { cause: new Error('400 Bad Request') });
    expect(formatToolError(error, { guidance: 'none' })).toBe(
      'Error: Invalid value for password: Required.\nCaused by: Error: 400 Bad Request',
    );
  });

  it('continues a message that stops mid-token into the next one (which may lose its first word)', () => {
    const error = new Error('bad key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234', {
      cause: new Error('Unauthorized'),
    });
    expect(formatToolError(error, { guidance: 'none' })).toBe(
      'Error: bad key [REDACTED]\nCaused by: Error: [REDACTED]',
    );
  });

  it('never leaves the first half of a key the per-message bound cut through', () => {
    // Nine project keys shrink to nine `[REDACTED]`, so what stands near the cut (at twice maxErrorChars) is shown.
    const keys = Array.from({ length: 9 }, (_, i) => `sk-proj-${String(i).repeat(80)}`).join(' ');
    const legacy = 'sk-AbCdEfGhIjKlMnOpQrStT3BlbkFJAbCdEfGhIjKlMnOpQrSt';
    // The legacy key starts 15 characters before the cut: 12 characters of its body would be left.
    const message = `${keys} ${'x'.repeat(1000 - keys.length - 17)} ${legacy} tail`;
    const text = formatToolError(new Error(message), { maxErrorChars: 500, guidance: 'none' });
    expect(text).not.toContain('sk-');
    expect(text).not.toContain('AbCdEf');
    expect(text).toMatch(/^Error: (\[REDACTED\] ){9}x+$/);
  });
});
