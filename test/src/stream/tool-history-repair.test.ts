import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelText } from '../../../src/model-text/model-text.js';
import { isInterruptedResult, repairToolHistory } from '../../../src/stream/tool-history-repair.js';

type Message = { role: string; content: unknown };

const user = (text = 'go'): Message => ({ role: 'user', content: text });
const call = (...ids: string[]): Message => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'tool-call', toolCallId: id, toolName: 'search', input: { q: id } })),
});
const results = (...ids: string[]): Message => ({
  role: 'tool',
  content: ids.map((id) => ({
    type: 'tool-result',
    toolCallId: id,
    toolName: 'search',
    output: { type: 'text', value: `found ${id}` },
  })),
});
const interrupted = (id: string) => ({
  type: 'tool-result',
  toolCallId: id,
  toolName: 'search',
  output: { type: 'error-text', value: modelText.interruptedToolCall },
  providerOptions: { 'graceful-ai': { interrupted: true } },
});

describe('repairToolHistory', () => {
  it('leaves a sound history alone: the same array, no repair', () => {
    const messages = [
      user(),
      call('a', 'b'),
      results('a'),
      results('b'),
      { role: 'assistant', content: 'done' },
      user(),
    ];
    expect(repairToolHistory(messages)).toEqual({ messages, repair: undefined });
    expect(repairToolHistory(messages).messages).toBe(messages);
  });

  it('a call without a result before the next user message gets a synthetic one, right after its call', () => {
    const messages = [user(), call('a'), user('and now?')];
    const { messages: repaired, repair } = repairToolHistory(messages);
    expect(repaired).toEqual([
      user(),
      call('a'),
      { role: 'tool', content: [interrupted('a')] },
      user('and now?'),
    ]);
    expect(repair).toEqual({ interrupted: ['search#a'], dropped: [] });
    expect(messages).toHaveLength(3); // the input is never changed
  });

  it('a trailing unanswered call is answered too; a partly answered step gets the answer in its tool message', () => {
    expect(repairToolHistory([user(), call('a')]).messages).toEqual([
      user(),
      call('a'),
      { role: 'tool', content: [interrupted('a')] },
    ]);
    const partly = repairToolHistory([user(), call('a', 'b'), results('b'), user()]);
    expect(partly.messages[2]).toEqual({
      role: 'tool',
      content: [interrupted('a'), ...(results('b').content as [])],
    });
    expect(partly.repair).toEqual({ interrupted: ['search#a'], dropped: [] });
  });

  it('a result without an open call is dropped, and a tool message left empty goes', () => {
    const { messages, repair } = repairToolHistory([
      user(),
      results('ghost'),
      call('a'),
      results('a', 'ghost2'),
    ]);
    expect(messages).toEqual([user(), call('a'), results('a')]);
    expect(repair).toEqual({ interrupted: [], dropped: ['search#ghost', 'search#ghost2'] });
  });

  it('a result after the user moved on is dropped; its call is answered in its place', () => {
    const { messages, repair } = repairToolHistory([user(), call('a'), user('hm?'), results('a')]);
    expect(messages).toEqual([user(), call('a'), { role: 'tool', content: [interrupted('a')] }, user('hm?')]);
    expect(repair).toEqual({ interrupted: ['search#a'], dropped: ['search#a'] });
  });

  it("leaves a provider-executed call and its results alone; a system message closes a turn as the SDK's check does", () => {
    const executed = {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'p', toolName: 'web_search', input: {}, providerExecuted: true },
      ],
    };
    const providerResult = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'p', toolName: 'web_search' }],
    };
    const sound = [user(), executed, providerResult, user()];
    expect(repairToolHistory(sound).messages).toBe(sound);
    expect(
      repairToolHistory([{ role: 'system', content: 's' }, call('a'), { role: 'system', content: 't' }])
        .repair,
    ).toEqual({ interrupted: ['search#a'], dropped: [] });
  });

  it('marks only its own results as interrupted', () => {
    const [synthetic] = (repairToolHistory([call('a')]).messages[1]!.content as unknown[]) ?? [];
    expect(isInterruptedResult(synthetic)).toBe(true);
    expect(isInterruptedResult((results('a').content as unknown[])[0])).toBe(false);
  });

  /** The AI SDK's own rule (ai 7 `convertToLanguageModelPrompt`), and what providers add: no result without its call. */
  const sendable = (messages: readonly Message[]) => {
    const open = new Set<unknown>();
    for (const message of messages) {
      const parts = Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : [];
      if (message.role === 'assistant')
        for (const p of parts) if (p.type === 'tool-call') open.add(p.toolCallId);
      if (message.role === 'tool') for (const p of parts) if (!open.delete(p.toolCallId)) return false;
      if ((message.role === 'user' || message.role === 'system') && open.size > 0) return false;
    }
    return open.size === 0;
  };

  it('property: any mix of calls, results and user messages comes out sendable, and a second repair changes nothing', () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd');
    const message = fc.oneof(
      fc.constant(user()),
      fc.array(id, { minLength: 1, maxLength: 3 }).map((ids) => call(...new Set(ids))),
      fc.array(id, { minLength: 1, maxLength: 3 }).map((ids) => results(...ids)),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        const once = repairToolHistory(messages);
        expect(sendable(once.messages)).toBe(true);
        expect(repairToolHistory(once.messages).messages).toBe(once.messages);
        expect(once.repair === undefined).toBe(sendable(messages));
      }),
    );
  });
});
