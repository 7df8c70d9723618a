// @ag-ui/client 1.0's HttpAgent against `./ruminate serve`'s POST /ag-ui, replaying real upstream recordings: the
// reasoning, text and tool-call events arrive and validate against @ag-ui/core's schemas, the browser never sees the
// provider's opaque state (only handles), and the next run, built by the agent from its own messages, reaches the
// backend with that state byte for byte.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { HttpAgent } from '@ag-ui/client';
import { EventSchemas, MessageSchema } from '@ag-ui/core/schemas';
import { CASES } from '../node/lib/cases.mjs';
import { reduceRecording } from '../node/lib/expected.mjs';
import { startGateway } from '../node/lib/gateway.mjs';

const HANDLE = /^ruminate-turn:[0-9a-f-]{36}:\d+$/;

/** The cases with opaque state: Anthropic's signed thinking, Gemini's thoughtSignature on a function call. */
const OPAQUE = CASES.filter((kase) => kase.provider === 'anthropic' || kase.provider === 'gemini');

function agUiTools(kase) {
  return kase.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** Runs the agent once, keeping every event it applied; fails on a RUN_ERROR or an event the schemas refuse. */
async function run(agent, kase) {
  const events = [];
  await agent.runAgent({ runId: randomUUID(), tools: agUiTools(kase) }, {
    onEvent: ({ event }) => {
      events.push(event);
    },
  });
  for (const event of events) {
    const parsed = EventSchemas.safeParse(event);
    assert.ok(parsed.success, `event ${event.type} validates: ${parsed.error?.message}`);
  }
  const failure = events.find((e) => e.type === 'RUN_ERROR');
  assert.equal(failure, undefined, `the run failed: ${JSON.stringify(failure)}`);
  assert.equal(events[0].type, 'RUN_STARTED');
  assert.equal(events[events.length - 1].type, 'RUN_FINISHED');
  return events;
}

function text(events, type) {
  return events.filter((e) => e.type === type).map((e) => e.delta).join('');
}

function assertNoOpaqueState(value, expected, what) {
  const json = JSON.stringify(value);
  for (const { signature } of expected.signatures) {
    assert.equal(json.includes(signature), false, `${what} holds none of the recording's opaque state`);
  }
}

for (const kase of OPAQUE) {
  describe(`AG-UI: ${kase.title}`, () => {
    let gateway;
    let expected;
    let url;

    before(async () => {
      expected = reduceRecording({ provider: kase.provider, file: kase.fixture, replayArgs: kase.replayArgs });
      assert.ok(expected.signatures.length > 0, 'the recording holds opaque state');
      gateway = await startGateway({ provider: kase.provider, replay: kase.fixture, extraArgs: kase.serveArgs });
      url = `${gateway.url.replace(/\/v1$/, '')}/ag-ui`;
    });

    after(async () => {
      await gateway?.stop();
    });

    it('streams reasoning, text and tool calls the client validates; the next run carries the opaque state back', async () => {
      const agent = new HttpAgent({ url, threadId: randomUUID(),
        initialMessages: [{ id: randomUUID(), role: 'user', content: kase.prompt }] });
      const events = await run(agent, kase);

      assert.equal(text(events, 'REASONING_MESSAGE_CONTENT'), expected.reasoning, 'the reasoning, streamed');
      assert.equal(text(events, 'TEXT_MESSAGE_CONTENT'), expected.text, 'the answer, streamed');
      if (expected.reasoning !== '') {
        assert.ok(events.some((e) => e.type === 'REASONING_START') && events.some((e) => e.type === 'REASONING_END'),
          'reasoning comes as a span');
      }
      const starts = events.filter((e) => e.type === 'TOOL_CALL_START');
      assert.deepEqual(starts.map((e) => e.toolCallName), expected.toolCalls.map((c) => c.name), 'the tool calls');
      const handles = events.filter((e) => e.type === 'REASONING_ENCRYPTED_VALUE');
      assert.equal(handles.length, expected.signatures.length, 'one encrypted value per part with opaque state');
      for (const h of handles) assert.match(h.encryptedValue, HANDLE, 'the encrypted value is a server handle');
      assertNoOpaqueState(events, expected, 'the events');
      assertNoOpaqueState(agent.messages, expected, 'the agent\'s messages');
      for (const m of agent.messages) assert.ok(MessageSchema.safeParse(m).success, `message ${m.role} validates`);

      // the next run, as the agent builds it: a tool result for a frontend tool call, or the user's follow-up
      const calls = agent.messages.flatMap((m) => m.toolCalls ?? []);
      if (calls.length > 0) {
        for (const call of calls) agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: call.id, content: kase.toolResult });
      } else {
        agent.addMessage({ id: randomUUID(), role: 'user', content: kase.followUp });
      }
      const mark = gateway.mark();
      await run(agent, kase);
      const requests = gateway.requestsSince(mark);
      assert.equal(requests.length, 1, 'the next run made one upstream request');
      kase.rule(requests[0].body, expected, true);

      // another thread naming the same turn and handles gets the visible parts only: turns are scoped by thread
      const stranger = new HttpAgent({ url, threadId: randomUUID(), initialMessages: structuredClone(agent.messages) });
      const before2 = gateway.mark();
      await run(stranger, kase);
      const foreign = gateway.requestsSince(before2);
      assert.equal(foreign.length, 1);
      assertNoOpaqueState(foreign[0].body, expected, 'an upstream request from another thread');
    });
  });
}

describe('AG-UI: a body that is not a RunAgentInput', () => {
  let gateway;
  before(async () => {
    const kase = OPAQUE[0];
    gateway = await startGateway({ provider: kase.provider, replay: kase.fixture, extraArgs: kase.serveArgs });
  });
  after(async () => {
    await gateway?.stop();
  });

  it('is answered 400, naming the place', async () => {
    const response = await fetch(`${gateway.url.replace(/\/v1$/, '')}/ag-ui`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 't', runId: 'r', messages: [{ id: 'm', role: 'wizard', content: 'secret-value' }] }),
    });
    assert.equal(response.status, 400);
    const body = await response.text();
    assert.match(body, /messages\[0\]\.role/);
    assert.equal(body.includes('secret-value'), false, 'the error quotes no value');
  });
});
