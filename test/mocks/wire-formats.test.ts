/**
 * Properties of the four wire formats, for any answer: every frame is an SSE frame with JSON data, the output each
 * frame carries is exactly the characters it claims (so fault positions count output characters), the frames in
 * order spell reasoning, text and arguments, and a fault position falls on a frame boundary wherever the wire can
 * split (everywhere but inside a Gemini function call, which arrives whole).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesFormat } from '../../mocks/anthropic-messages.js';
import { geminiFormat } from '../../mocks/gemini-generate-content.js';
import { chatFormat } from '../../mocks/openai-chat.js';
import { responsesFormat } from '../../mocks/openai-responses.js';
import { reply } from '../../mocks/script.js';
import type { AnswerStep } from '../../mocks/vocabulary.js';
import type { WireFormat } from '../../mocks/wire.js';

type Data = Record<string, unknown> & {
  choices?: { delta?: { content?: string; tool_calls?: { function?: { arguments?: string } }[] } }[];
  delta?: string | { thinking?: string; text?: string; partial_json?: string };
  type?: string;
  candidates?: { content: { parts: { text?: string; functionCall?: { args: unknown } }[] } }[];
};

/** The output characters a frame's data carries, read the way each provider's client reads them. */
const OUTPUT: Record<string, (data: Data) => string> = {
  chat: (data) => {
    const delta = data.choices?.[0]?.delta;
    return (delta?.content ?? '') + (delta?.tool_calls?.[0]?.function?.arguments ?? '');
  },
  responses: (data) => (data.type?.endsWith('.delta') && typeof data.delta === 'string' ? data.delta : ''),
  messages: (data) => {
    const delta = typeof data.delta === 'object' ? data.delta : undefined;
    return data.type === 'content_block_delta'
      ? (delta?.thinking ?? delta?.text ?? delta?.partial_json ?? '')
      : '';
  },
  generateContent: (data) =>
    (data.candidates?.[0]?.content.parts ?? [])
      .map((part) => part.text ?? (part.functionCall ? JSON.stringify(part.functionCall.args) : ''))
      .join(''),
};

const FORMATS: [string, WireFormat][] = [
  ['chat', chatFormat],
  ['responses', responsesFormat],
  ['messages', anthropicMessagesFormat],
  ['generateContent', geminiFormat],
];

const answer = fc.record({
  text: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
  reasoning: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
  args: fc.array(
    fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer())),
    {
      maxLength: 2,
    },
  ),
  chunkChars: fc.integer({ min: 1, max: 6 }),
  breakAt: fc.nat({ max: 80 }),
  // Chat: with and without the final usage chunk (stream_options.include_usage).
  includeUsage: fc.boolean(),
});

describe.each(FORMATS)('the %s wire format', (api, format) => {
  it('frames carry exactly the output characters they claim, spell the answer, and split at a fault position', () => {
    fc.assert(
      fc.property(answer, ({ text, reasoning, args, chunkChars, breakAt, includeUsage }) => {
        // Chat has no reasoning (the player refuses such a step before it reaches the format).
        const thinking = api === 'chat' ? undefined : reasoning;
        const options = { chunkChars, ...(thinking === undefined ? {} : { reasoning: thinking }) };
        const step: AnswerStep =
          args.length === 0
            ? reply.text(text ?? '', options)
            : reply.toolCalls(
                args.map((a, i) => ({ name: `t${i}`, args: a })),
                { ...options, ...(text === undefined ? {} : { text }) },
              );
        const body = { stream_options: { include_usage: includeUsage } };
        const events = format.events(step, { n: 1, model: 'm', created: 0, body }, breakAt);
        let spelled = '';
        const boundaries = new Set([0]);
        for (const event of events) {
          const match = /^(?:event: [\w.]+\n)?data: (.*)\n\n$/s.exec(event.frame);
          expect(match, event.frame).not.toBeNull();
          if (match![1] === '[DONE]') continue;
          const piece = OUTPUT[api]!(JSON.parse(match![1]!) as Data);
          expect(piece.length, event.frame).toBe(event.chars);
          spelled += piece;
          boundaries.add(spelled.length);
        }
        const argsText = args.map((a) => JSON.stringify(a)).join('');
        const splittable = (thinking ?? '') + (step.text ?? '');
        expect(spelled).toBe(splittable + argsText);
        const canSplit = api === 'generateContent' ? splittable.length : spelled.length;
        if (breakAt <= canSplit) expect(boundaries.has(breakAt)).toBe(true);
      }),
    );
  });
});
