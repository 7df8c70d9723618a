// Ruminate's own reduction of a recording, from `./ruminate replay --format json`: the oracle the clients must match.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './gateway.mjs';

/**
 * Reduces a recording with the real provider client, decoder and reducer of the Java SDK and returns what a client
 * of the gateway must see: all reasoning text, all answer text, the tool calls with parsed arguments, the usage and
 * the signatures in part order.
 */
export function reduceRecording({ provider, file, replayArgs = [] }) {
  const out = execFileSync(path.join(REPO_ROOT, 'ruminate'),
    ['replay', '--provider', provider, '--format', 'json', '--no-color', ...replayArgs, file],
    { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const message = JSON.parse(out);
  const parts = message.parts ?? [];
  return {
    message,
    reasoning: parts.filter((p) => p.type === 'reasoning').map((p) => p.text).join(''),
    text: parts.filter((p) => p.type === 'text').map((p) => p.text).join(''),
    toolCalls: parts.filter((p) => p.type === 'tool_call').map((p) => ({ name: p.name, arguments: p.arguments })),
    signatures: parts.filter((p) => p.signature != null).map((p) => ({ type: p.type, signature: p.signature })),
    usage: {
      input: message.usage?.inputTokens ?? 0,
      output: message.usage?.outputTokens ?? 0,
      reasoning: message.usage?.reasoningTokens ?? 0,
      cached: message.usage?.cachedTokens ?? 0,
    },
  };
}
