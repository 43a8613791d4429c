/**
 * Dangling tool calls: a history holding an assistant's tool call without its result (an aborted turn, a crash between
 * call and result, a client that dropped a message), or a result without its call. ai 7 refuses the first before
 * sending (`MissingToolResultsError`, checked where it converts the prompt, after `prepareStep`); providers answer the
 * second with a 400. Either way every later request of the conversation fails. The repair is one function over the
 * message shape the SDK's model messages and a middleware's prompt share, so the drop-ins, the agent and the session
 * apply the same rule.
 */

/**
 * What a repair changed, as `<tool>#<toolCallId>` (the turn deadline's notation). A type alias, not an interface,
 * so it is a JSON object to the AI SDK's metadata types.
 */
export type ToolHistoryRepair = {
  /** Tool calls that had no result: each got a synthetic error result saying it was interrupted. */
  interrupted: string[];
  /** Tool results without an open call before them (no call, or one the conversation had moved on from): dropped. */
  dropped: string[];
};

/**
 * The synthetic result's text: the call may have done its work, so the model must not assume either way. Listed with
 * every other sentence for the model in `modelText` (`interruptedToolCall`); defined here, so the stream guard,
 * which repairs the prompts it sends, bundles no tool layer.
 */
export const INTERRUPTED_TOOL_CALL =
  'Interrupted: this tool call has no result. It may or may not have taken effect; check before calling it again.';

/** The marker on a synthetic result (in its `providerOptions`): the failure is no tool's, so no budget counts it. */
const REPAIR_KEY = 'graceful-ai';

interface LooseMessage {
  role: string;
  content: unknown;
}

interface ToolPart {
  type?: unknown;
  toolCallId?: unknown;
  toolName?: unknown;
  providerExecuted?: unknown;
  providerOptions?: unknown;
}

const parts = (message: LooseMessage): ToolPart[] =>
  Array.isArray(message.content) ? (message.content as ToolPart[]) : [];
const label = (part: ToolPart) => `${String(part.toolName)}#${String(part.toolCallId)}`;

/** The synthetic result of a call that never got one. */
function interruptedResult(call: ToolPart) {
  return {
    type: 'tool-result' as const,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: { type: 'error-text' as const, value: INTERRUPTED_TOOL_CALL },
    providerOptions: { [REPAIR_KEY]: { interrupted: true } },
  };
}

/** Whether a tool-result part is a repair's synthetic result (see {@link repairToolHistory}). */
export function isInterruptedResult(part: unknown): boolean {
  const options = (part as ToolPart | undefined)?.providerOptions as Record<string, unknown> | undefined;
  return (options?.[REPAIR_KEY] as { interrupted?: unknown } | undefined)?.interrupted === true;
}

/**
 * `messages` with every tool call answered and every result matched, the SDK's rule (a call must be answered before
 * the next `user` or `system` message, or by the end; a call the provider executed is its own): a call without a
 * result gets a synthetic error result ("interrupted, no result", in the tool message right after its assistant
 * message, created if there is none), and a result that answers no open call is dropped (a tool message left empty
 * goes too). Returns the same array and no repair when nothing was wrong; never changes the messages it is given.
 */
export function repairToolHistory<M extends LooseMessage>(
  messages: readonly M[],
): { messages: readonly M[]; repair: ToolHistoryRepair | undefined } {
  // Calls awaiting a result since the last user/system message, by id; provider-executed calls are never awaited.
  const open = new Map<unknown, { call: ToolPart; at: number }>();
  const providerExecuted = new Set<unknown>();
  const unanswered = new Map<number, ToolPart[]>();
  const droppedParts = new Set<ToolPart>();
  const closeTurn = () => {
    for (const { call, at } of open.values()) unanswered.set(at, [...(unanswered.get(at) ?? []), call]);
    open.clear();
  };
  messages.forEach((message, at) => {
    if (message.role === 'user' || message.role === 'system') closeTurn();
    else if (message.role === 'assistant') {
      for (const part of parts(message)) {
        if (part.type !== 'tool-call') continue;
        if (part.providerExecuted === true) providerExecuted.add(part.toolCallId);
        else open.set(part.toolCallId, { call: part, at });
      }
    } else if (message.role === 'tool') {
      for (const part of parts(message)) {
        if (part.type !== 'tool-result' || providerExecuted.has(part.toolCallId)) continue;
        if (!open.delete(part.toolCallId)) droppedParts.add(part);
      }
    }
  });
  closeTurn();
  if (unanswered.size === 0 && droppedParts.size === 0) return { messages, repair: undefined };

  const repaired: M[] = [];
  messages.forEach((message, at) => {
    const kept =
      message.role === 'tool' && parts(message).some((part) => droppedParts.has(part))
        ? parts(message).filter((part) => !droppedParts.has(part))
        : undefined;
    const answers = at > 0 && message.role === 'tool' ? unanswered.get(at - 1) : undefined;
    if (kept === undefined && answers === undefined) repaired.push(message);
    else {
      const content = [...(answers ?? []).map(interruptedResult), ...(kept ?? parts(message))];
      if (content.length > 0) repaired.push({ ...message, content });
    }
    const calls = unanswered.get(at);
    // No tool message follows: the answers get their own.
    if (calls && messages[at + 1]?.role !== 'tool') {
      repaired.push({ role: 'tool', content: calls.map(interruptedResult) } as unknown as M);
    }
  });
  return {
    messages: repaired,
    repair: {
      interrupted: [...unanswered.values()].flat().map(label),
      dropped: [...droppedParts].map(label),
    },
  };
}
