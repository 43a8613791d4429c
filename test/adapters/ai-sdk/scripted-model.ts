import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { MockLanguageModelV4, simulateReadableStream } from 'ai/test';

/** One scripted model answer: text, or tool calls (`[name, args, id?]`). */
export type Turn = { text: string } | { calls: [name: string, args: unknown, id?: string][] };

const usage: LanguageModelV4Usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The tool results the model received in its latest prompt, as `toolName → output`. */
export function lastToolOutputs(call: LanguageModelV4CallOptions): { toolName: string; output: unknown }[] {
  const last = call.prompt.at(-1);
  if (last?.role !== 'tool') return [];
  return last.content.flatMap((p) =>
    p.type === 'tool-result' ? [{ toolName: p.toolName, output: p.output }] : [],
  );
}

function content(turn: Turn, step: number): LanguageModelV4Content[] {
  if ('text' in turn) return [{ type: 'text', text: turn.text }];
  return turn.calls.map(([toolName, args, id], i) => ({
    type: 'tool-call',
    toolCallId: id ?? `call-${step}-${i}`,
    toolName,
    input: typeof args === 'string' ? args : JSON.stringify(args),
  }));
}

/**
 * A MockLanguageModelV4 answering turn by turn (generate and stream); `script(step, call)` may look at the
 * prompt. Each run of the same model restarts at step 0 when `perRun` counts prompts without tool messages.
 */
export function scriptedModel(script: (step: number, call: LanguageModelV4CallOptions) => Turn) {
  const stepOf = (call: LanguageModelV4CallOptions) =>
    call.prompt.filter((m) => m.role === 'assistant').length;
  return new MockLanguageModelV4({
    doGenerate: async (call) => {
      const step = stepOf(call);
      const turn = script(step, call);
      return {
        content: content(turn, step),
        finishReason: { unified: 'text' in turn ? 'stop' : 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
    doStream: async (call) => {
      const step = stepOf(call);
      const turn = script(step, call);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const c of content(turn, step)) {
        if (c.type === 'text') {
          parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: c.text });
          parts.push({ type: 'text-end', id: 't' });
        } else if (c.type === 'tool-call') parts.push(c);
      }
      parts.push({
        type: 'finish',
        finishReason: { unified: 'text' in turn ? 'stop' : 'tool-calls', raw: undefined },
        usage,
      });
      return { stream: simulateReadableStream({ chunks: parts }) };
    },
  });
}
