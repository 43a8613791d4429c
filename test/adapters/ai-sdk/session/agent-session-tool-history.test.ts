/**
 * A session whose history holds a tool call without a result — here a client-side tool (no `execute`): the turn ends
 * at the call, and the user answers with a new message instead — keeps working: each request is sent repaired, a
 * `tool_history_repaired` event says so, and the session file keeps what really happened.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ModelMessage, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentSession } from '../../../../adapters/ai-sdk/session/agent-session.js';
import { modelText } from '../../../../src/model-text/model-text.js';
import type { SessionEvent } from '../../../../src/session/events.js';
import { scriptedModel } from '../scripted-model.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('AgentSession with a dangling tool call in its history', () => {
  it('the next turn is sent repaired, an event says so, and the file keeps the call without a result', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'graceful-ai-history-')), 'session.jsonl');
    const model = scriptedModel((step) =>
      step === 0 ? { calls: [['ask_user', { question: 'Which city?' }]] } : { text: 'Oslo it is.' },
    );
    const session = AgentSession.load(path, {
      model,
      logger: quiet,
      // A client-side tool: the app would show the question and add the answer as the tool's result.
      tools: { ask_user: tool({ inputSchema: z.object({ question: z.string() }) }) },
    });
    const events: SessionEvent<ModelMessage>[] = [];
    session.subscribe((event) => events.push(event));
    try {
      await session.prompt('What is the weather?');
      // The user typed an answer instead of the tool's result.
      const turn = await session.prompt('Oslo');
      expect(turn.text).toBe('Oslo it is.');
      const sent = model.doStreamCalls[1]!.prompt;
      expect(sent.filter((m) => m.role === 'tool')).toMatchObject([
        {
          content: [
            { toolName: 'ask_user', output: { type: 'error-text', value: modelText.interruptedToolCall } },
          ],
        },
      ]);
      const repaired = events.filter((e) => e.type === 'tool_history_repaired');
      expect(repaired).toEqual([
        { type: 'tool_history_repaired', interrupted: ['ask_user#call-0-0'], dropped: [] },
      ]);
      // What the session holds and stores: the call, no result (nothing was ever answered).
      expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      const stored = readFileSync(path, 'utf8');
      expect(stored).toContain('"toolName":"ask_user"');
      expect(stored).not.toContain(modelText.interruptedToolCall);
      expect(stored).not.toContain('"role":"tool"');
    } finally {
      session.close();
    }
  });
});
