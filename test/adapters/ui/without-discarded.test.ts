import type { UIMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { withoutDiscarded } from '../../../adapters/ui/index.js';

type Part = UIMessage['parts'][number];

/** A reset part as `toUIMessageStream` forwards it (a custom UI part). */
function reset(toolInputIds: string[] = []): Part {
  return {
    type: 'custom',
    kind: 'graceful-ai.reset',
    providerMetadata: {
      'graceful-ai': { reset: { textIds: ['0'], reasoningIds: [], toolInputIds, discardedChars: 12 } },
    },
  };
}

const text = (t: string): Part => ({ type: 'text', text: t, state: 'done' });
const reasoning = (t: string): Part => ({ type: 'reasoning', text: t, state: 'done' });
const stepStart: Part = { type: 'step-start' };
const toolPart = (toolCallId: string, state: 'input-streaming' | 'output-available' = 'output-available') =>
  (state === 'input-streaming'
    ? { type: 'tool-add', toolCallId, state, input: { a: 1 } }
    : { type: 'tool-add', toolCallId, state, input: { a: 1, b: 2 }, output: 3 }) as Part;

const message = (parts: Part[]): UIMessage => ({ id: 'm1', role: 'assistant', parts });

describe('withoutDiscarded', () => {
  it('drops the discarded text and the reset part: what useChat shows after a divergent recovery', () => {
    const shown = message([stepStart, text('Hmm, let me '), reset(), text('The answer is 42.')]);
    const clean = withoutDiscarded(shown);
    expect(clean.parts).toEqual([stepStart, text('The answer is 42.')]);
    expect(clean).toMatchObject({ id: 'm1', role: 'assistant' });
    // The input is not mutated.
    expect(shown.parts).toHaveLength(4);
  });

  it('drops reasoning shown before the reset and keeps everything after it', () => {
    const after = [reasoning('New thoughts'), text('Answer')];
    const clean = withoutDiscarded(message([reasoning('Old thoughts'), text('Part'), reset(), ...after]));
    expect(clean.parts).toEqual(after);
  });

  it('returns the very same object when there is nothing to remove', () => {
    const plain = message([stepStart, text('Hello'), toolPart('c1')]);
    expect(withoutDiscarded(plain)).toBe(plain);
    const user: UIMessage = { id: 'u1', role: 'user', parts: [text('hi')] };
    expect(withoutDiscarded(user)).toBe(user);
  });

  it('a reset in a later step discards only that step’s parts before it', () => {
    const clean = withoutDiscarded(
      message([
        stepStart,
        text('Let me add them.'),
        toolPart('c1'),
        stepStart,
        text('The sum is'),
        reset(),
        text('1 + 2 = 3.'),
      ]),
    );
    expect(clean.parts).toEqual([
      stepStart,
      text('Let me add them.'),
      toolPart('c1'),
      stepStart,
      text('1 + 2 = 3.'),
    ]);
  });

  it('handles several resets: one per step, and two in one step (everything before the last goes)', () => {
    const clean = withoutDiscarded(
      message([
        stepStart,
        text('A1'),
        reset(),
        text('A2'),
        toolPart('c1'),
        stepStart,
        text('B1'),
        reset(),
        text('B2'),
        reset(),
        text('B3'),
      ]),
    );
    expect(clean.parts).toEqual([stepStart, text('A2'), toolPart('c1'), stepStart, text('B3')]);
  });

  it('keeps tool calls, sources and data from before the reset; drops the incomplete tool inputs it lists', () => {
    const source: Part = { type: 'source-url', sourceId: 's1', url: 'https://example.com' };
    const data = { type: 'data-progress', data: { done: 1 } } as Part;
    const clean = withoutDiscarded(
      message([
        stepStart,
        text('Let me '),
        toolPart('done-call'),
        source,
        data,
        toolPart('cut-call', 'input-streaming'),
        reset(['cut-call']),
        text('I will add them.'),
        toolPart('new-call'),
      ]),
    );
    expect(clean.parts).toEqual([
      stepStart,
      toolPart('done-call'),
      source,
      data,
      text('I will add them.'),
      toolPart('new-call'),
    ]);
  });

  it('a reset whose details were lost (a stored message) still discards the text before it', () => {
    const bare: Part = { type: 'custom', kind: 'graceful-ai.reset' };
    expect(withoutDiscarded(message([text('Old'), bare, text('New')])).parts).toEqual([text('New')]);
  });

  it('other custom parts are not resets', () => {
    const other: Part = { type: 'custom', kind: 'anthropic.message_start' };
    const plain = message([other, text('Hello')]);
    expect(withoutDiscarded(plain)).toBe(plain);
  });

  it('a message without a parts array (malformed storage) is returned as it is', () => {
    const malformed = { id: 'x', role: 'assistant' } as unknown as UIMessage;
    expect(withoutDiscarded(malformed)).toBe(malformed);
  });

  it('keeps the caller’s message type, also through messages.map(withoutDiscarded)', () => {
    type MyMessage = UIMessage<{ createdAt: number }, { progress: { done: number } }>;
    const messages: MyMessage[] = [{ id: 'a', role: 'assistant', metadata: { createdAt: 1 }, parts: [] }];
    const clean = messages.map(withoutDiscarded);
    expectTypeOf(clean).toEqualTypeOf<MyMessage[]>();
    expectTypeOf(withoutDiscarded(messages[0]!)).toEqualTypeOf<MyMessage>();
    expect(clean[0]).toBe(messages[0]);
  });
});

// ---- properties ----

type Kind = 'text' | 'reasoning' | 'tool' | 'tool-input' | 'reset' | 'source' | 'step-start';
const kinds = fc.array(
  fc.constantFrom<Kind>('text', 'reasoning', 'tool', 'tool-input', 'reset', 'source', 'step-start'),
  { maxLength: 30 },
);

/** Parts with unique texts and ids; each reset lists the incomplete tool inputs of its step so far. */
function build(sequence: Kind[]): Part[] {
  let inputsInStep: string[] = [];
  return sequence.map((kind, i): Part => {
    switch (kind) {
      case 'text':
        return text(`text-${i}`);
      case 'reasoning':
        return reasoning(`reasoning-${i}`);
      case 'tool':
        return toolPart(`call-${i}`);
      case 'tool-input':
        inputsInStep.push(`call-${i}`);
        return toolPart(`call-${i}`, 'input-streaming');
      case 'reset':
        return reset([...inputsInStep]);
      case 'source':
        return { type: 'source-url', sourceId: `s-${i}`, url: `https://example.com/${i}` };
      default: // 'step-start'
        inputsInStep = [];
        return { type: 'step-start' };
    }
  });
}

const isReset = (part: Part) => part.type === 'custom';
const isShownText = (part: Part) => part.type === 'text' || part.type === 'reasoning';

/** The steps of a part list (split at `step-start`). */
function steps(parts: Part[]): Part[][] {
  const out: Part[][] = [[]];
  parts.forEach((part, i) => {
    if (part.type === 'step-start' && i > 0) out.push([]);
    out.at(-1)!.push(part);
  });
  return out;
}

describe('withoutDiscarded: properties', () => {
  it('never keeps text or reasoning from before a reset in the same step, nor a reset part', () => {
    fc.assert(
      fc.property(kinds, (sequence) => {
        const parts = build(sequence);
        const kept = new Set(withoutDiscarded(message(parts)).parts);
        for (const step of steps(parts)) {
          const lastReset = step.findLastIndex(isReset);
          step.forEach((part, i) => {
            if (isReset(part) || (i < lastReset && isShownText(part))) expect(kept.has(part)).toBe(false);
          });
        }
      }),
    );
  });

  it('keeps, in order, every part a reset does not discard', () => {
    fc.assert(
      fc.property(kinds, (sequence) => {
        const parts = build(sequence);
        const expected = steps(parts).flatMap((step) => {
          const lastReset = step.findLastIndex(isReset);
          // Before the step's last reset: text, reasoning and the incomplete tool inputs (each reset lists them).
          const discarded = (part: Part, i: number) =>
            i < lastReset && (isShownText(part) || (part as { state?: string }).state === 'input-streaming');
          return step.filter((part, i) => !isReset(part) && !discarded(part, i));
        });
        expect(withoutDiscarded(message(parts)).parts).toEqual(expected);
      }),
    );
  });

  it('a message without a reset is returned unchanged (the same object)', () => {
    fc.assert(
      fc.property(kinds, (sequence) => {
        const plain = message(build(sequence.filter((kind) => kind !== 'reset')));
        expect(withoutDiscarded(plain)).toBe(plain);
      }),
    );
  });
});
