import { describe, expect, it } from 'vitest';
import { trimContext } from '../../../src/session/compaction.js';
import type { SessionMessage } from '../../../src/session/message.js';

const m = (role: SessionMessage['role'], content: string): SessionMessage => ({ role, content });

describe('trimContext', () => {
  it('keeps system messages, the latest user turn and the newer half of earlier exchanges', () => {
    const messages = [
      m('system', 'sys'),
      m('user', 'u1'),
      m('assistant', 'a1'),
      m('user', 'u2'),
      m('assistant', 'a2'),
      m('user', 'u3'),
      m('assistant', 'call'),
      m('tool', 'result'),
    ];
    expect(trimContext(messages).map((x) => x.content)).toEqual(['sys', 'u2', 'a2', 'u3', 'call', 'result']);
  });

  it('never separates an assistant tool call from its tool results', () => {
    const messages = [
      m('user', 'u1'),
      m('assistant', 'call1'),
      m('tool', 'r1a'),
      m('tool', 'r1b'),
      m('assistant', 'a1'),
      m('user', 'u2'),
    ];
    // Units: [u1] [call1 r1a r1b] [a1] → the oldest two (ceil of 3/2) go, whole.
    expect(trimContext(messages).map((x) => x.content)).toEqual(['a1', 'u2']);
    // Units: [u0] [u1] [call1 r1a r1b] [a1] → u0 and u1 go; the call keeps its results.
    const kept = trimContext([m('user', 'u0'), ...messages]).map((x) => x.content);
    expect(kept).toEqual(['call1', 'r1a', 'r1b', 'a1', 'u2']);
  });

  it('is deterministic and leaves a lone turn unchanged', () => {
    const turn = [m('system', 's'), m('user', 'u'), m('assistant', 'call'), m('tool', 'r')];
    expect(trimContext(turn)).toEqual(turn);
    expect(trimContext([])).toEqual([]);
  });
});
