/**
 * The stream guard's scenarios on one provider package's real wire, written once for every provider: each
 * `stream-guard.<provider>.test.ts` describes its wire (which frames open an answer, carry a text piece, complete
 * it; its non-streamed answer, its HTTP error body, its in-band error frame) and calls {@link describeGuardOnWire}.
 * The drop-in `streamText` runs on the package itself, through its `fetch` option (`provider-wire.ts`); the sleep is
 * injected and only recorded, so nothing waits.
 */
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { TextStreamPart, ToolSet } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { streamText } from '../../../../../adapters/ai-sdk/drop-in/stream-text.js';
import { type JsonReply, type Reply, replayFetch, type StreamReply } from '../../provider-wire.js';

/** One frame on the wire: SSE text, or a binary AWS event-stream message. */
export type Frame = string | Uint8Array;

/**
 * What a package's own stream reports when the body closes after some text without the provider's completion
 * event: a finish reason, an error part (with its message), or nothing at all.
 */
export type EarlyEndReport =
  | { finishReason: { unified: string; raw: string | undefined } }
  | { errorPart: string }
  | 'no finish part';

/** The HTTP errors the scenarios send. */
export type Rejection = 'auth' | 'rate-limit' | 'unavailable';

/** A provider's wire, as the scenarios need it. `n` numbers the attempt (ids differ per answer). */
export interface ProviderWire {
  /** The package's language model, sending its requests through `fetch`. */
  model(fetch: typeof globalThis.fetch): LanguageModelV4;
  /** Where the package sends a streamed request, and a non-streamed one (the recovery). */
  urls: { stream: string; generate: string };
  framing: 'sse' | 'aws-event-stream';
  /** The frames before the first visible token (nothing the consumer can see). */
  head(n: number): Frame[];
  /** The frame carrying one piece of text. */
  text(n: number, piece: string): Frame;
  /** The frames that complete the answer `text` (its finish). */
  tail(n: number, text: string): Frame[];
  /** The same answer, non-streamed. */
  generated(n: number, text: string): JsonReply;
  /**
   * The provider's HTTP error response: a failed authentication (permanent), a rate limit, an overload (its 503).
   * `headers` are added to the response's own.
   */
  rejection(kind: Rejection, headers?: Record<string, string>): JsonReply;
  /** The provider's in-band error frame and the message the package reports for it, or why its wire has none. */
  inBandError: { frame: Frame; message: string } | { none: string };
  /** What the package reports for an early end after content (pinned by a test: docs/streaming.md's table). */
  earlyEnd: EarlyEndReport;
}

/** `urls` for a package that streams and answers non-streamed at the same URL (most do). */
export const sameUrl = (url: string) => ({ stream: url, generate: url });

const question = 'What is the weather in Paris?';
/** The answer every scenario streams, in two pieces: a cut comes after the first. */
export const pieces = ['Sunny', ' in Paris.'];
export const answer = pieces.join('');

export function streamReply(
  wire: ProviderWire,
  frames: Frame[],
  end: 'close' | 'reset' = 'close',
): StreamReply {
  const sse = frames.filter((f): f is string => typeof f === 'string');
  const eventStream = frames.filter((f): f is Uint8Array => typeof f !== 'string');
  if ((wire.framing === 'sse' ? eventStream : sse).length > 0) {
    throw new Error(`test script: a frame that is not ${wire.framing}`);
  }
  return wire.framing === 'sse' ? { sse, end } : { eventStream, end };
}

/** Attempt `n` of a streamed answer: its head, the text pieces, and its tail unless it ends early. */
export const answerFrames = (wire: ProviderWire, n: number, texts: string[], complete = true): Frame[] => [
  ...wire.head(n),
  ...texts.map((piece) => wire.text(n, piece)),
  ...(complete ? wire.tail(n, texts.join('')) : []),
];

/** The drop-in `streamText` on `wire`'s package, each request answered by the next of `replies`. */
export async function run(wire: ProviderWire, replies: Reply[]) {
  const fake = replayFetch(replies);
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {});
  const result = streamText({
    model: wire.model(fake.fetch),
    prompt: question,
    streamGuard: { sleep, random: () => 0.5 },
    onError: () => {},
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return {
    result,
    parts,
    requests: fake.requests,
    /** Whether each request asked for a stream: a spent stream is never asked again. */
    streamed: fake.requests.map((r) => r.stream),
    delays: sleep.mock.calls.map(([ms]) => ms),
    /** Every character the consumer was shown, in order. */
    shown: parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join(''),
    /** The guard's record of each request (`providerMetadata['graceful-ai'].attempts`). */
    attempts: async () =>
      ((await result.providerMetadata)?.['graceful-ai']?.attempts ?? []) as Array<Record<string, unknown>>,
  };
}

/** A promise's outcome, for a test that must tell a resolved partial answer from a rejection. */
const settle = (value: PromiseLike<unknown>) =>
  Promise.resolve(value).then(
    (resolved) => ({ resolved }),
    (rejected: unknown) => ({ rejected }),
  );

/** What the package alone (no guard) reports when the body closes after the first text piece. */
async function earlyEndReport(wire: ProviderWire): Promise<EarlyEndReport> {
  const fake = replayFetch([streamReply(wire, answerFrames(wire, 1, pieces.slice(0, 1), false))]);
  const { stream } = await wire.model(fake.fetch).doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: question }] }],
  });
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  const error = parts.find((p) => p.type === 'error');
  if (error) return { errorPart: (error.error as { message: string }).message };
  const finish = parts.find((p) => p.type === 'finish');
  if (!finish) return 'no finish part';
  return { finishReason: { unified: finish.finishReason.unified, raw: finish.finishReason.raw } };
}

/** `report` in words, for a test's title. */
function describeReport(report: EarlyEndReport): string {
  if (report === 'no finish part') return 'no finish part';
  if ('errorPart' in report) return `an error part ("${report.errorPart}")`;
  const { unified, raw } = report.finishReason;
  return `finish reason '${unified}' (raw ${raw === undefined ? 'undefined' : `'${raw}'`})`;
}

/** The guard's scenarios on `wire` (issue 20: every provider's early end, cut, in-band error, 429 and 503). */
export function describeGuardOnWire(name: string, wire: ProviderWire): void {
  const clean = (n: number) => streamReply(wire, answerFrames(wire, n, pieces));
  const cutAfterContent = (end: 'close' | 'reset') =>
    streamReply(wire, answerFrames(wire, 1, pieces.slice(0, 1), false), end);

  describe(`streamGuard + ${name}`, () => {
    it(`the package alone reports an early end after content as ${describeReport(wire.earlyEnd)}`, async () => {
      expect(await earlyEndReport(wire)).toEqual(wire.earlyEnd);
    });

    it('a clean answer passes untouched: one streamed request, the whole text, finish reason stop', async () => {
      const { result, parts, streamed, delays, shown } = await run(wire, [clean(1)]);
      expect(streamed).toEqual([true]);
      expect(delays).toEqual([]);
      expect(shown).toBe(answer);
      expect(await result.text).toBe(answer);
      expect(await result.finishReason).toBe('stop');
      expect(parts.some((p) => p.type === 'error')).toBe(false);
      expect((await result.providerMetadata)?.['graceful-ai']).toBeUndefined();
    });

    it('a socket reset after content → the remainder only, from one non-streamed request', async () => {
      const { result, requests, delays, shown, attempts } = await run(wire, [
        cutAfterContent('reset'),
        wire.generated(2, answer),
      ]);
      expect(requests.map((r) => [r.url, r.stream])).toEqual([
        [wire.urls.stream, true],
        [wire.urls.generate, false],
      ]);
      expect(delays).toEqual([]);
      expect(shown).toBe(answer);
      expect(await result.text).toBe(answer);
      expect((await attempts()).map((a) => a.outcome)).toEqual(['failed', 'ok']);
    });

    it('a clean early end after content (no completion event) → recovered like a cut: each character once', async () => {
      const { result, streamed, shown } = await run(wire, [
        cutAfterContent('close'),
        wire.generated(2, answer),
      ]);
      expect(streamed).toEqual([true, false]);
      expect(shown).toBe(answer);
      expect(await result.text).toBe(answer);
      expect(await result.finishReason).toBe('stop');
    });

    it('a clean early end after content, the recovery request rejected for good (auth) → result.text rejects, never the partial', async () => {
      const { result, streamed, parts } = await run(wire, [cutAfterContent('close'), wire.rejection('auth')]);
      expect(streamed).toEqual([true, false]);
      expect(await settle(result.text)).toEqual({ rejected: expect.anything() });
      expect(parts.filter((p) => p.type === 'error')).toHaveLength(1);
    });

    it('a clean early end before content → a new streamed request after the backoff', async () => {
      const { result, streamed, delays, shown } = await run(wire, [
        streamReply(wire, wire.head(1)),
        clean(2),
      ]);
      expect(streamed).toEqual([true, true]);
      expect(delays).toEqual([1000]);
      expect(shown).toBe(answer);
      expect(await result.text).toBe(answer);
    });

    const inBand = wire.inBandError;
    if ('frame' in inBand) {
      it("the provider's in-band error after content → the remainder only, from one non-streamed request", async () => {
        const { result, streamed, shown, attempts } = await run(wire, [
          streamReply(wire, [...answerFrames(wire, 1, pieces.slice(0, 1), false), inBand.frame]),
          wire.generated(2, answer),
        ]);
        expect(streamed).toEqual([true, false]);
        expect(shown).toBe(answer);
        expect(await result.text).toBe(answer);
        expect((await attempts())[0]).toMatchObject({
          outcome: 'failed',
          error: { message: inBand.message },
          classification: { kind: 'transient' },
        });
      });
    }

    it('a 429 with retry-after before content → the guard waits the requested 3 s, then streams anew', async () => {
      const { result, streamed, delays } = await run(wire, [
        wire.rejection('rate-limit', { 'retry-after': '3' }),
        clean(2),
      ]);
      expect(streamed).toEqual([true, true]);
      expect(delays).toEqual([3000]);
      expect(await result.text).toBe(answer);
    });

    it('a 503 (overloaded) before content → a new streamed request after the backoff', async () => {
      const { result, streamed, delays } = await run(wire, [wire.rejection('unavailable'), clean(2)]);
      expect(streamed).toEqual([true, true]);
      expect(delays).toEqual([1000]);
      expect(await result.text).toBe(answer);
    });
  });
}
