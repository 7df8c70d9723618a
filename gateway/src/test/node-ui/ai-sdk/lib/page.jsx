// The page: useChat from @ai-sdk/react, unchanged, on POST /api/chat. It asks, waits for the answer, asks again (which
// sends the whole conversation back), then reports what it holds and shows to the test server.
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';

const QUESTIONS = JSON.parse(document.getElementById('questions').textContent);

function App() {
  const { messages, sendMessage, status, error } = useChat({ transport: new DefaultChatTransport({ api: '/api/chat' }) });
  const asked = useRef(0);
  const reported = useRef(false);
  useEffect(() => {
    if (reported.current || (status !== 'ready' && status !== 'error')) return;
    if (status === 'ready' && asked.current < QUESTIONS.length && messages.length === asked.current * 2) {
      sendMessage({ text: QUESTIONS[asked.current] });
      asked.current += 1;
      return;
    }
    if (status === 'error' || messages.length === QUESTIONS.length * 2) {
      reported.current = true;
      // after this render is on screen: report the DOM as shown
      setTimeout(() => fetch('/report', {
        method: 'POST',
        body: JSON.stringify({ messages, status, error: error?.message ?? null, shown: document.getElementById('log').innerText }),
      }), 0);
    }
  }, [status, messages, error, sendMessage]);
  return (
    <div id="log">
      {messages.map((m) => (
        <div key={m.id} className={m.role}>
          {m.parts.map((p, i) => {
            if (p.type === 'reasoning') return <details key={i} open><summary>Reasoning</summary><pre>{p.text}</pre></details>;
            if (p.type === 'text') return <p key={i}>{p.text}</p>;
            return null;
          })}
        </div>
      ))}
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
