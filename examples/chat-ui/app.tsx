/**
 * The chat page: `useChat` against `/api/chat`. The chat id is in the address (`?chat=…`), so a reload shows the
 * messages the server persisted. Each message is rendered through `withoutDiscarded`: when a stream was cut and
 * the recovered answer differs from what was already shown, the text shown before the cut is dropped.
 */
import { useChat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { withoutDiscarded } from '../../adapters/ui/index.js';

function Chat({ id, initialMessages }: { id: string; initialMessages: UIMessage[] }) {
  const { messages, sendMessage, status, error } = useChat({ id, messages: initialMessages });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  return (
    <main data-status={status}>
      {messages.map(withoutDiscarded).map((message) => (
        <article key={message.id} data-role={message.role}>
          {message.parts.map((part, index) =>
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id and never move
            part.type === 'text' ? <p key={index}>{part.text}</p> : null,
          )}
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
