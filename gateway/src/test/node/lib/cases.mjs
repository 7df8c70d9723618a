// The recordings the clients are tried on, and each backend's rule for what turn 2 must carry of turn 1's reasoning
// (shared/sendback/RULES-OBSERVED.md).
import assert from 'node:assert/strict';
import path from 'node:path';
import { FIXTURES } from './gateway.mjs';

const WEATHER = {
  name: 'weather',
  description: 'The current weather at a location.',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'], additionalProperties: false },
};

const GET_COUNTRY = {
  name: 'get_country',
  description: 'The country the user is asking about.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

/** The text of an OpenAI-style message content: a string or an array of text parts. */
function contentText(content) {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (typeof p === 'string' ? p : p.text ?? '')).join('');
}

function onlyOne(list, what) {
  assert.equal(list.length, 1, `expected exactly one ${what}, found ${list.length}`);
  return list[0];
}

/** Base64 or base64url, decoded: Gemini's requests may use the URL-safe alphabet for the same bytes. */
function base64Bytes(text) {
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** DeepSeek thinking mode: every earlier assistant message carries its reasoning_content, identical. */
function deepseekRule(body, expected, carries) {
  const assistant = onlyOne((body.messages ?? []).filter((m) => m.role === 'assistant'), 'assistant message upstream');
  const calls = assistant.tool_calls ?? [];
  assert.deepEqual(calls.map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) })), expected.toolCalls,
    'the assistant turn sent upstream keeps the tool calls');
  const results = (body.messages ?? []).filter((m) => m.role === 'tool');
  assert.deepEqual(results.map((m) => m.tool_call_id), calls.map((c) => c.id), 'each tool result answers its call');
  if (carries) {
    assert.equal(assistant.reasoning_content, expected.reasoning, 'reasoning_content on the assistant turn, identical to turn 1');
  }
}

/** A think-tag backend (DeepSeek-R1 family on Chutes): the reasoning goes back as <think> text before the answer. */
function thinkTagRule(body, expected, carries) {
  const assistant = onlyOne((body.messages ?? []).filter((m) => m.role === 'assistant'), 'assistant message upstream');
  assert.equal(assistant.reasoning_content, undefined, 'a tags-only backend gets no reasoning_content field');
  const content = contentText(assistant.content);
  if (carries) {
    const match = /^<think>\n([\s\S]*)\n<\/think>\n\n([\s\S]*)$/.exec(content);
    assert.ok(match, `assistant content is "<think>\\nR\\n</think>\\n\\n" + answer, was: ${JSON.stringify(content.slice(0, 120))}…`);
    assert.equal(match[1].trim(), expected.reasoning.trim(), 'the reasoning inside the tags is turn 1\'s');
    assert.equal(match[2].trim(), expected.text.trim(), 'the answer after the tags is turn 1\'s');
  } else {
    assert.equal(content.trim().endsWith(expected.text.trim()), true, 'the answer is sent back');
  }
}

/** Anthropic: the thinking block goes back first, text and signature byte for byte. */
function anthropicRule(body, expected, carries) {
  const assistant = onlyOne((body.messages ?? []).filter((m) => m.role === 'assistant'), 'assistant message upstream');
  const blocks = typeof assistant.content === 'string' ? [{ type: 'text', text: assistant.content }] : assistant.content;
  const thinking = blocks.filter((b) => b.type === 'thinking');
  for (const block of thinking) {
    assert.ok(typeof block.signature === 'string' && block.signature !== '', 'no thinking block goes to Anthropic unsigned');
  }
  assert.equal(blocks.filter((b) => b.type === 'text').map((b) => b.text).join(''), expected.text, 'the answer is sent back');
  if (carries) {
    const block = onlyOne(thinking, 'thinking block');
    assert.equal(blocks[0], block, 'the thinking block comes first');
    assert.equal(block.thinking, expected.reasoning, 'thinking text identical to turn 1');
    assert.equal(block.signature, expected.signatures[0].signature, 'signature byte for byte');
  }
}

/** Gemini: thoughtSignature stays on the part it arrived on (here the functionCall); same bytes. */
function geminiRule(body, expected, carries) {
  const model = onlyOne((body.contents ?? []).filter((c) => c.role === 'model'), 'model turn upstream');
  const callParts = model.parts.filter((p) => p.functionCall);
  assert.deepEqual(callParts.map((p) => ({ name: p.functionCall.name, arguments: p.functionCall.args ?? {} })), expected.toolCalls,
    'the model turn keeps the function call');
  const responses = (body.contents ?? []).flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse);
  assert.deepEqual(responses.map((p) => p.functionResponse.name), expected.toolCalls.map((c) => c.name), 'each call has its response');
  if (carries) {
    const signature = callParts[0].thoughtSignature;
    assert.ok(typeof signature === 'string', 'the functionCall part carries its thoughtSignature');
    assert.ok(base64Bytes(signature).equals(base64Bytes(expected.signatures[0].signature)), 'thoughtSignature has turn 1\'s bytes');
  }
}

/**
 * Each case: a recording, the provider kind that decodes it, the options that make `ruminate replay` (the oracle) and
 * `ruminate serve` (the gateway) decode it alike (the think-tag model's answers need tag parsing on both), the tools
 * the prompt offers, and the backend's send-back rule.
 */
export const CASES = [
  {
    title: 'DeepSeek reasoning_content with a tool call',
    provider: 'deepseek',
    fixture: path.join(FIXTURES, 'deepseek/vercel-deepseek-reasoning-tool-call-stream.sse'),
    replayArgs: [],
    serveArgs: [],
    tools: [WEATHER],
    prompt: 'What is the weather in San Francisco?',
    toolResult: '{"temperature_c": 18, "sky": "fog"}',
    followUp: 'Thanks. Anything else?',
    rule: deepseekRule,
    // Which clients can carry turn 1's reasoning back at all (by design of the client, not of the gateway).
    chatCarries: true,
  },
  {
    title: 'a think-tag model (DeepSeek-R1 distill) on Chutes',
    provider: 'chutes',
    fixture: path.join(FIXTURES, 'think-tags/pydantic-groq-deepseek-r1-distill-think-tags-stream.sse'),
    replayArgs: ['--think-tags'],
    serveArgs: ['--think-tags'],
    tools: [],
    prompt: 'How do I make Uruguayan alfajores?',
    toolResult: '',
    followUp: 'Thanks. How long do they keep?',
    rule: thinkTagRule,
    chatCarries: true,
  },
  {
    title: 'Anthropic thinking with a signature',
    provider: 'anthropic',
    fixture: path.join(FIXTURES, 'anthropic/pydantic-thinking-stream.sse'),
    replayArgs: [],
    serveArgs: [],
    tools: [],
    prompt: 'How do I cross the street safely?',
    toolResult: '',
    followUp: 'And at night?',
    rule: anthropicRule,
    // Chat Completions has no place for the signature, so a Chat client cannot carry Anthropic thinking back.
    chatCarries: false,
  },
  {
    title: 'Gemini thoughtSignature on a function call',
    provider: 'gemini',
    fixture: path.join(FIXTURES, 'gemini/pydantic-gemini-tool-call-thought-signature.turn1.sse'),
    replayArgs: [],
    serveArgs: [],
    tools: [GET_COUNTRY],
    prompt: 'What is the capital of the country?',
    toolResult: 'Mexico',
    followUp: 'Thanks.',
    rule: geminiRule,
    chatCarries: false,
  },
].map((kase) => ({ ...kase, model: kase.provider }));
