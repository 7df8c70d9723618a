// The Vercel AI SDK's own client code against `./ruminate serve`'s POST /api/chat, on recorded upstream streams: the
// `ai` package's DefaultChatTransport + readUIMessageStream (the reader useChat runs), and useChat itself in headless
// Chromium. Both must see the recording's reasoning and answer, never its opaque state, and the second turn they send
// back must reach the upstream with the server's stored turn (Anthropic: the thinking signature, byte for byte).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DefaultChatTransport, readUIMessageStream } from 'ai';
import { startGateway, FIXTURES } from '../../node/lib/gateway.mjs';
import { reduceRecording } from '../../node/lib/expected.mjs';
import { chromiumBinary, runPage } from './lib/browser.mjs';

const ANTHROPIC = { provider: 'anthropic', file: path.join(FIXTURES, 'anthropic/pydantic-thinking-stream.sse') };
const DEEPSEEK_TOOL = { provider: 'deepseek', file: path.join(FIXTURES, 'deepseek/vercel-deepseek-reasoning-tool-call-stream.sse') };

function userMessage(id, text) {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** One turn through the AI SDK's own transport and reader: the last UIMessage it built. */
async function turn(api, chatId, messages) {
  const transport = new DefaultChatTransport({ api });
  const chunks = await transport.sendMessages({ chatId, messages, trigger: 'submit-message', messageId: undefined,
    abortSignal: undefined });
  let last;
  for await (const message of readUIMessageStream({ stream: chunks, onError: (e) => { throw e; } })) last = message;
  return last;
}

function partsOf(message, type) {
  return message.parts.filter((p) => p.type === type);
}

/** The upstream request the gateway made for one exchange. */
async function upstreamOf(gateway, exchange) {
  const mark = gateway.mark();
  const result = await exchange();
  const requests = gateway.requestsSince(mark);
  assert.equal(requests.length, 1, 'one upstream request per turn');
  return { result, upstream: requests[0].body };
}

describe('Anthropic thinking with a signature, on POST /api/chat', () => {
  let gateway;
  let expected;
  let api;

  before(async () => {
    expected = reduceRecording(ANTHROPIC);
    assert.ok(expected.signatures.length > 0 && expected.signatures[0].signature.length > 20, 'the recording is signed');
    gateway = await startGateway({ provider: ANTHROPIC.provider, replay: ANTHROPIC.file });
    api = gateway.url.replace(/\/v1$/, '') + '/api/chat';
  });

  after(async () => {
    await gateway?.stop();
  });

  it('answers with the UI message stream headers and no opaque state in the bytes', async () => {
    const response = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'raw-chat', messages: [userMessage('u1', 'How do I cross the street safely?')],
        trigger: 'submit-message' }) });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-vercel-ai-ui-message-stream'), 'v1');
    assert.match(response.headers.get('content-type'), /^text\/event-stream/);
    const body = await response.text();
    assert.ok(body.trimEnd().endsWith('data: [DONE]'), 'the stream ends with [DONE]');
    for (const { signature } of expected.signatures) assert.ok(!body.includes(signature), 'no signature in the stream');
    assert.ok(!body.includes('providerMetadata'), 'no providerMetadata in the stream');
  });

  it('a bad body is a 400 that names the place', async () => {
    const response = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c', messages: [{ id: 'x', role: 'user' }] }) });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /messages\[0\]\.parts/);
  });

  it('the ai package\'s reader sees reasoning then answer, and turn 2 sends the stored signature upstream', async () => {
    const first = await turn(api, 'chat-reader', [userMessage('u1', 'How do I cross the street safely?')]);
    assert.equal(first.role, 'assistant');
    assert.match(first.id, /^msg-/);
    assert.equal(partsOf(first, 'reasoning').map((p) => p.text).join(''), expected.reasoning, 'reasoning text');
    assert.equal(partsOf(first, 'text').map((p) => p.text).join(''), expected.text, 'answer text');
    assert.ok(first.parts.findIndex((p) => p.type === 'reasoning') < first.parts.findIndex((p) => p.type === 'text'),
      'reasoning comes before the answer');
    assert.ok(!JSON.stringify(first).includes(expected.signatures[0].signature), 'the client holds no signature');

    const { upstream } = await upstreamOf(gateway, () => turn(api, 'chat-reader',
      [userMessage('u1', 'How do I cross the street safely?'), first, userMessage('u2', 'And at night?')]));
    const assistant = upstream.messages.filter((m) => m.role === 'assistant');
    assert.equal(assistant.length, 1);
    const thinking = assistant[0].content.filter((b) => b.type === 'thinking');
    assert.equal(thinking.length, 1, 'one thinking block goes back');
    assert.equal(thinking[0].thinking, expected.reasoning, 'thinking text identical to turn 1');
    assert.equal(thinking[0].signature, expected.signatures[0].signature, 'signature byte for byte');
  });

  it('a turn the server did not issue goes back without opaque state', async () => {
    const forged = { id: 'msg-not-issued', role: 'assistant', parts: [{ type: 'step-start' },
      { type: 'reasoning', text: expected.reasoning }, { type: 'text', text: expected.text }] };
    const { upstream } = await upstreamOf(gateway, () => turn(api, 'chat-forged',
      [userMessage('u1', 'How do I cross the street safely?'), forged, userMessage('u2', 'And at night?')]));
    const assistant = upstream.messages.filter((m) => m.role === 'assistant');
    const blocks = typeof assistant[0].content === 'string' ? [{ type: 'text', text: assistant[0].content }] : assistant[0].content;
    assert.ok(!JSON.stringify(upstream).includes(expected.signatures[0].signature), 'no signature upstream');
    assert.equal(blocks.filter((b) => b.type === 'thinking').length, 0, 'no unsigned thinking block goes to Anthropic');
    assert.ok(JSON.stringify(blocks).includes(expected.text.slice(0, 40)), 'the answer goes back');
  });

  it('useChat in headless Chromium shows reasoning and answer, and its second turn carries the signature upstream',
    { skip: chromiumBinary() ? false : 'no chromium' }, async () => {
      const mark = gateway.mark();
      const report = await runPage({ apiBase: api.replace(/\/api\/chat$/, ''),
        questions: ['How do I cross the street safely?', 'And at night?'] });
      assert.equal(report.error, null, 'useChat reported no error');
      assert.equal(report.messages.length, 4);
      for (const answer of [report.messages[1], report.messages[3]]) {
        assert.equal(answer.role, 'assistant');
        assert.equal(partsOf(answer, 'reasoning').map((p) => p.text).join(''), expected.reasoning);
        assert.equal(partsOf(answer, 'text').map((p) => p.text).join(''), expected.text);
      }
      assert.ok(report.shown.includes('Reasoning'), 'the page shows the reasoning');
      assert.ok(report.shown.includes(expected.reasoning.trim().split('\n')[0]), 'the reasoning text is on screen');
      assert.ok(report.shown.includes(expected.text.trim().split('\n')[0]), 'the answer is on screen');
      assert.ok(!JSON.stringify(report.messages).includes(expected.signatures[0].signature), 'the page holds no signature');
      const requests = gateway.requestsSince(mark);
      assert.equal(requests.length, 2, 'two turns, two upstream requests');
      const second = requests[1].body.messages.filter((m) => m.role === 'assistant');
      assert.equal(second.length, 1);
      const thinking = second[0].content.filter((b) => b.type === 'thinking');
      assert.equal(thinking[0]?.signature, expected.signatures[0].signature, 'signature byte for byte');
    });
});

describe('DeepSeek reasoning with a tool call, on POST /api/chat', () => {
  let gateway;
  let expected;
  let api;

  before(async () => {
    expected = reduceRecording(DEEPSEEK_TOOL);
    gateway = await startGateway({ provider: DEEPSEEK_TOOL.provider, replay: DEEPSEEK_TOOL.file });
    api = gateway.url.replace(/\/v1$/, '') + '/api/chat';
  });

  after(async () => {
    await gateway?.stop();
  });

  it('the ai package\'s reader sees the reasoning and the call with its streamed input', async () => {
    const message = await turn(api, 'chat-tool', [userMessage('u1', 'What is the weather in Paris?')]);
    assert.equal(partsOf(message, 'reasoning').map((p) => p.text).join(''), expected.reasoning);
    const calls = partsOf(message, 'dynamic-tool');
    assert.deepEqual(calls.map((c) => ({ name: c.toolName, arguments: c.input })), expected.toolCalls);
    assert.ok(calls.every((c) => c.state === 'input-available'), 'each call\'s input is complete');
  });
});
