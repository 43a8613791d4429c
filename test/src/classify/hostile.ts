import fc from 'fast-check';

const boom = (): never => {
  throw new Error('hostile');
};

/** A proxy whose every trap throws (`instanceof`, `in`, `Object.keys`, property reads, calls). */
const throwingProxy = (target: object): object =>
  new Proxy(target, {
    get: boom,
    has: boom,
    ownKeys: boom,
    getPrototypeOf: boom,
    getOwnPropertyDescriptor: boom,
    apply: boom,
  });

const revokedProxy = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

/** An object whose property `key` throws when read (and whose conversions to a primitive throw). */
const throwingGetter = (key: string): object =>
  Object.defineProperties(
    {},
    {
      [key]: { get: boom, enumerable: true },
      toString: { value: boom },
      valueOf: { value: boom },
      [Symbol.toPrimitive]: { value: boom },
    },
  );

const unprintable = (): object => ({ toString: boom, valueOf: boom, [Symbol.toPrimitive]: boom });

/** The keys the classifier and the retry-after parser read. */
const readKeys = [
  'message',
  'name',
  'code',
  'type',
  'status',
  'statusCode',
  'cause',
  'errors',
  'lastError',
  'data',
  'value',
  'isRetryable',
  'responseBody',
  'responseHeaders',
  'headers',
  'response',
  'retryAfterMs',
  'failureReason',
  'error',
  'metadata',
  'details',
  'retry-after',
  'retry-after-ms',
  'x-ratelimit-reset',
  'x-ratelimit-remaining',
] as const;

/**
 * A recipe for a value nobody can read safely: proxies, throwing getters and conversions, bigints, symbols, huge
 * strings. Recipes, not values: fast-check itself probes what it generates, and a hostile value throws at it.
 */
export type Hostile = () => unknown;

const hostileLeaf: fc.Arbitrary<Hostile> = fc.oneof(
  fc.constant(() => throwingProxy({})),
  fc.constant(() => throwingProxy(() => undefined)),
  fc.constant(revokedProxy),
  fc.constantFrom(...readKeys).map((key) => () => throwingGetter(key)),
  fc.constant(unprintable),
  fc.bigInt().map((n) => () => n),
  fc.string().map((description) => () => Symbol(description)),
  fc
    .constantFrom(
      '9'.repeat(100_000),
      `retry in ${'9'.repeat(100_000)}s`,
      ' '.repeat(100_000),
      `1m${'0'.repeat(50_000)}s`,
    )
    .map((text) => () => text),
  fc.anything().map((value) => () => value),
);

/**
 * Hostile values, alone or planted anywhere the classifier reads: on an error's fields, in its headers, in a
 * provider payload, down its cause chain. Call the recipe inside the property to get the value.
 */
export const hostileValue: fc.Arbitrary<Hostile> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, hostileLeaf, tie('error'), tie('headers')),
  error: fc
    .dictionary(fc.constantFrom(...readKeys), tie('value') as fc.Arbitrary<Hostile>, { maxKeys: 6 })
    .map(
      (fields) => () =>
        Object.assign(
          new Error('hostile'),
          Object.fromEntries(Object.entries(fields).map(([key, recipe]) => [key, recipe()])),
        ),
    ),
  headers: fc
    .dictionary(
      fc.constantFrom(
        'retry-after',
        'Retry-After-Ms',
        'x-ratelimit-reset',
        'x-ratelimit-remaining',
        'x-amzn-errortype',
      ),
      tie('value') as fc.Arbitrary<Hostile>,
      { maxKeys: 4 },
    )
    .map(
      (fields) => () => Object.fromEntries(Object.entries(fields).map(([key, recipe]) => [key, recipe()])),
    ),
})).value as fc.Arbitrary<Hostile>;
