// Each client as its users write it: turn 1 streamed, what the client saw normalized for comparison, and turn 2 built
// by the client itself from its own turn-1 output.
import OpenAI6 from 'openai6';
import OpenAI7 from 'openai7';
import * as ai6 from 'ai6';
import * as ai7 from 'ai7';
import { createOpenAI as createOpenAI3 } from 'ai-sdk-openai3';
import { createOpenAI as createOpenAI4 } from 'ai-sdk-openai4';
import { createOpenResponses as createOpenResponses1 } from 'ai-sdk-open-responses1';
import { createOpenResponses as createOpenResponses2 } from 'ai-sdk-open-responses2';

const API_KEY = 'unused-the-gateway-runs-with-no-auth';

/** A fetch that keeps the request bodies a client sent, for failure messages that show what the client asked. */
function recordingFetch() {
  const bodies = [];
  const fetchAndRecord = (input, init) => {
    if (typeof init?.body === 'string') bodies.push(init.body);
    return fetch(input, init);
  };
  return { fetch: fetchAndRecord, lastBody: () => bodies[bodies.length - 1] };
}

/** What a client saw of turn 1, in one shape for every client. */
function observed({ reasoning, text, toolCalls, usage }) {
  return {
    reasoning: reasoning ?? '',
    text: text ?? '',
    toolCalls: toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args })),
    usage: {
      input: usage.input ?? 0,
      output: usage.output ?? 0,
      reasoning: usage.reasoning ?? 0,
      cached: usage.cached ?? 0,
    },
  };
}

function parseArguments(text) {
  return text == null || text.trim() === '' ? {} : JSON.parse(text);
}

// ---------------------------------------------------------------------------------------------------------------------
// OpenAI Node SDK, Responses: the responses.stream() helper (its accumulator is the strictest reader of the event
// sequence), turn 2 non-streaming.

/**
 * How an openai-node user carries turn 1 into turn 2:
 * - 'items': appends turn 1's output items verbatim to the input (store left to its default);
 * - 'stateless': the same with store:false and include reasoning.encrypted_content;
 * - 'previous': previous_response_id and only the new input.
 */
export const OPENAI_RESPONSES_MODES = ['items', 'stateless', 'previous'];

function responsesTools(kase) {
  return kase.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false }));
}

function reasoningOfResponse(response) {
  let reasoning = '';
  for (const item of response.output ?? []) {
    if (item.type !== 'reasoning') continue;
    const content = (item.content ?? []).map((c) => c.text).join('');
    const summary = (item.summary ?? []).map((s) => s.text).join('');
    // Raw reasoning when the item has it; the summary form otherwise (both may carry the same text).
    reasoning += content !== '' ? content : summary;
  }
  return reasoning;
}

function responsesUsage(usage) {
  return {
    input: usage?.input_tokens,
    output: usage?.output_tokens,
    reasoning: usage?.output_tokens_details?.reasoning_tokens,
    cached: usage?.input_tokens_details?.cached_tokens,
  };
}

export async function openaiResponses(OpenAI, url, kase, mode) {
  const recorder = recordingFetch();
  const client = new OpenAI({ baseURL: url, apiKey: API_KEY, maxRetries: 0, fetch: recorder.fetch });
  const input = [{ role: 'user', content: kase.prompt }];
  const tools = responsesTools(kase);
  const common = {
    model: kase.model,
    ...(tools.length > 0 ? { tools } : {}),
    ...(mode === 'stateless' ? { store: false, include: ['reasoning.encrypted_content'] } : {}),
  };
  const stream = client.responses.stream({ ...common, input });
  const streamed = { reasoningText: '', summaryText: '', outputText: '', types: [] };
  for await (const event of stream) {
    streamed.types.push(event.type);
    if (event.type === 'response.reasoning_text.delta') streamed.reasoningText += event.delta;
    if (event.type === 'response.reasoning_summary_text.delta') streamed.summaryText += event.delta;
    if (event.type === 'response.output_text.delta') streamed.outputText += event.delta;
  }
  const response = await stream.finalResponse();
  const calls = (response.output ?? []).filter((i) => i.type === 'function_call');
  const seen = observed({
    reasoning: reasoningOfResponse(response),
    text: response.output_text,
    toolCalls: calls.map((c) => ({ name: c.name, arguments: parseArguments(c.arguments) })),
    usage: responsesUsage(response.usage),
  });
  const followUps = calls.length > 0
    ? calls.map((c) => ({ type: 'function_call_output', call_id: c.call_id, output: kase.toolResult }))
    : [{ role: 'user', content: kase.followUp }];
  return {
    seen,
    streamed,
    response,
    lastRequest: recorder.lastBody,
    async turn2() {
      const body = mode === 'previous'
        ? { ...common, previous_response_id: response.id, input: followUps }
        : { ...common, input: [...input, ...response.output, ...followUps] };
      return client.responses.create(body);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// OpenAI Node SDK, Chat Completions: raw chunks (the stream() helper keeps only the last reasoning_content delta),
// turn 2 with the assistant message as DeepSeek documents it (reasoning_content beside content and tool_calls).

export async function openaiChat(OpenAI, url, kase) {
  const recorder = recordingFetch();
  const client = new OpenAI({ baseURL: url, apiKey: API_KEY, maxRetries: 0, fetch: recorder.fetch });
  const messages = [{ role: 'user', content: kase.prompt }];
  const tools = kase.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  const common = { model: kase.model, ...(tools.length > 0 ? { tools } : {}) };
  const stream = await client.chat.completions.create({ ...common, messages, stream: true, stream_options: { include_usage: true } });
  let reasoning = '';
  let text = '';
  let usage;
  const calls = [];
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage;
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) continue;
    if (typeof delta.reasoning_content === 'string') reasoning += delta.reasoning_content;
    if (typeof delta.content === 'string') text += delta.content;
    for (const call of delta.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { id: undefined, name: undefined, arguments: '' });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name = call.function.name;
      if (call.function?.arguments) slot.arguments += call.function.arguments;
    }
  }
  const seen = observed({
    reasoning,
    text,
    toolCalls: calls.map((c) => ({ name: c.name, arguments: parseArguments(c.arguments) })),
    usage: {
      input: usage?.prompt_tokens,
      output: usage?.completion_tokens,
      reasoning: usage?.completion_tokens_details?.reasoning_tokens,
      cached: usage?.prompt_tokens_details?.cached_tokens,
    },
  });
  const assistant = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    ...(reasoning !== '' ? { reasoning_content: reasoning } : {}),
    ...(calls.length > 0 ? {
      tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    } : {}),
  };
  const followUps = calls.length > 0
    ? calls.map((c) => ({ role: 'tool', tool_call_id: c.id, content: kase.toolResult }))
    : [{ role: 'user', content: kase.followUp }];
  return {
    seen,
    lastRequest: recorder.lastBody,
    async turn2() {
      return client.chat.completions.create({ ...common, messages: [...messages, assistant, ...followUps] });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Vercel AI SDK: streamText for turn 1, generateText for turn 2 from the SDK's own response messages.

export const AI_SDKS = {
  ai6: { ai: ai6, createOpenAI: createOpenAI3, createOpenResponses: createOpenResponses1, labels: '@ai-sdk/openai 3, @ai-sdk/open-responses 1' },
  ai7: { ai: ai7, createOpenAI: createOpenAI4, createOpenResponses: createOpenResponses2, labels: '@ai-sdk/openai 4, @ai-sdk/open-responses 2' },
};

/**
 * The AI SDK models a user points at the gateway:
 * - 'responses': @ai-sdk/openai's Responses model with its defaults (store on: turn 2 refers to turn 1 by item_reference);
 * - 'responses-stateless': the same with store:false and forceReasoning (so it asks for encrypted_content and sends it back);
 * - 'chat': @ai-sdk/openai's Chat Completions model;
 * - 'open-responses': @ai-sdk/open-responses.
 */
export const AI_SDK_MODES = ['responses', 'responses-stateless', 'chat', 'open-responses'];

function aiModel(sdk, url, kase, mode, fetch) {
  if (mode === 'open-responses') {
    return { model: sdk.createOpenResponses({ name: 'ruminate', url: `${url}/responses`, apiKey: API_KEY, fetch })(kase.model), providerOptions: undefined };
  }
  const openai = sdk.createOpenAI({ baseURL: url, apiKey: API_KEY, fetch });
  if (mode === 'chat') return { model: openai.chat(kase.model), providerOptions: undefined };
  if (mode === 'responses') return { model: openai.responses(kase.model), providerOptions: undefined };
  return { model: openai.responses(kase.model), providerOptions: { openai: { store: false, forceReasoning: true } } };
}

export async function aiSdk(sdk, url, kase, mode) {
  const { ai } = sdk;
  const recorder = recordingFetch();
  const { model, providerOptions } = aiModel(sdk, url, kase, mode, recorder.fetch);
  const tools = kase.tools.length === 0 ? undefined : Object.fromEntries(kase.tools.map((t) => [t.name,
    ai.tool({ description: t.description, inputSchema: ai.jsonSchema(t.parameters) })]));
  const messages = [{ role: 'user', content: kase.prompt }];
  const errors = [];
  const result = ai.streamText({
    model, messages, tools, providerOptions, maxRetries: 0,
    onError: ({ error }) => errors.push(error),
  });
  await result.consumeStream();
  if (errors.length > 0) throw errors[0];
  const toolCalls = await result.toolCalls;
  const usage = await result.usage;
  const response = await result.response;
  const seen = observed({
    reasoning: (await result.reasoningText) ?? '',
    text: await result.text,
    toolCalls: toolCalls.map((c) => ({ name: c.toolName, arguments: typeof c.input === 'string' ? parseArguments(c.input) : c.input })),
    usage: {
      input: usage.inputTokens,
      output: usage.outputTokens,
      reasoning: usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens,
      cached: usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens,
    },
  });
  const followUps = toolCalls.length > 0
    ? [{
      role: 'tool',
      content: toolCalls.map((c) => ({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, output: { type: 'text', value: kase.toolResult } })),
    }]
    : [{ role: 'user', content: kase.followUp }];
  return {
    seen,
    response,
    lastRequest: recorder.lastBody,
    async turn2() {
      return ai.generateText({ model, tools, providerOptions, maxRetries: 0, messages: [...messages, ...response.messages, ...followUps] });
    },
  };
}

export const OPENAI_NODE = { openai6: OpenAI6, openai7: OpenAI7 };
