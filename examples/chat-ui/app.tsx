/**
 * The chat page: `useChat` against `/api/chat`. The chat id is in the address (`?chat=…`), so a reload shows the
 * messages the server persisted. Messages are rendered as `useChat` holds them, with no helper: when a stream was
 * cut and the recovered answer differs from what was already shown, the server sends the AI SDK's `reset-step` and
 * the words shown before the cut disappear. A run that failed ends with an error, shown below the messages.
 */
import { useChat } from '@ai-sdk/react';
import { isToolUIPart, type UIMessage } from 'ai';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

type Part = UIMessage['parts'][number];

function MessagePart({ part }: { part: Part }) {
  if (part.type === 'text') return <p>{part.text}</p>;
  if (!isToolUIPart(part)) return null;
  const failed = part.state === 'output-error';
  return (
    <div data-tool={part.type.slice('tool-'.length)} data-state={part.state}>
      {failed ? `tool failed: ${part.errorText}` : `tool: ${JSON.stringify(part.input)}`}
    </div>
  );
}

function Chat({ id, initialMessages }: { id: string; initialMessages: UIMessage[] }) {
  const { messages, sendMessage, status, error } = useChat({ id, messages: initialMessages });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  return (
    <main data-status={status}>
      {messages.map((message) => (
        <article key={message.id} data-role={message.role}>
          {message.parts.map((part, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id and never move
            <MessagePart key={index} part={part} />
          ))}
        </article>
      ))}
      {error && <p role="alert">Something went wrong: {error.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (busy || !input.trim()) return;
          sendMessage({ text: input });
          setInput('');
        }}
      >
        <input value={input} onChange={(event) => setInput(event.target.value)} placeholder="Ask something" />
        <button type="submit" disabled={busy}>
          Send
        </button>
      </form>
    </main>
  );
}

const id = new URLSearchParams(location.search).get('chat') ?? crypto.randomUUID();
history.replaceState(null, '', `?chat=${encodeURIComponent(id)}`);
const initialMessages = (await (await fetch(`/api/chats/${encodeURIComponent(id)}`)).json()) as UIMessage[];
createRoot(document.getElementById('root')!).render(<Chat id={id} initialMessages={initialMessages} />);
