// Starts `./ruminate serve` on a recording and reads what it sent upstream.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The repository root: this file is gateway/src/test/node/lib/gateway.mjs. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** Where the recordings live, copied into the gateway module's test resources with their provenance. */
export const FIXTURES = path.join(REPO_ROOT, 'gateway/src/test/resources/fixtures');

const LISTENING = /^ruminate gateway listening on (http:\/\/\S+\/v1)$/;

// The first `./ruminate` call may build the command line, which takes minutes on a cold machine.
const STARTUP_MS = Number(process.env.RUMINATE_SERVE_STARTUP_MS ?? 600_000);

// Servers still running when this process ends (a crash, an interrupted run, an after() hook that never ran): killed
// then rather than left listening. stop() is the ordinary way; this is the safety net.
const running = new Set();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    process.kill(process.pid, signal);
  });
}

/**
 * Runs `./ruminate serve --provider P --replay FILE --port 0 --no-auth --upstream-requests DIR` and resolves once the
 * first stdout line names the URL. The process is stopped with stop().
 */
export async function startGateway({ provider, replay, model, extraArgs = [] }) {
  const requestsDir = mkdtempSync(path.join(tmpdir(), `ruminate-upstream-${provider}-`));
  const args = ['serve', '--provider', provider, '--replay', replay, '--port', '0', '--no-auth',
    '--upstream-requests', requestsDir, ...(model ? ['--model', model] : []), ...extraArgs];
  const child = spawn(path.join(REPO_ROOT, 'ruminate'), args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ruminate serve printed no URL within ${STARTUP_MS} ms; stderr:\n${stderr}`));
    }, STARTUP_MS);
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = LISTENING.exec(line);
      if (match) resolve(match[1]);
      else {
        child.kill('SIGKILL');
        reject(new Error(`ruminate serve's first line was not its URL: ${JSON.stringify(line)}; stderr:\n${stderr}`));
      }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`ruminate serve ended (code ${code}, signal ${signal}) before printing its URL; stderr:\n${stderr}`));
    });
  });
  // Keep draining stdout so that the server never blocks on a full pipe.
  lines.on('line', () => {});

  return {
    url,
    /** What the gateway logged so far, for failure messages. */
    stderr: () => stderr,
    /** The names of the upstream request files written so far: pass to requestsSince() after the next exchange. */
    mark: () => new Set(readdirSync(requestsDir)),
    /** The upstream request bodies written since mark, oldest first, parsed as JSON. */
    requestsSince(mark) {
      const fresh = readdirSync(requestsDir).filter((name) => !mark.has(name));
      fresh.sort((a, b) => statSync(path.join(requestsDir, a)).mtimeMs - statSync(path.join(requestsDir, b)).mtimeMs
        || a.localeCompare(b, 'en', { numeric: true }));
      return fresh.map((name) => {
        const text = readFileSync(path.join(requestsDir, name), 'utf8');
        try {
          return { name, body: JSON.parse(text) };
        } catch (e) {
          throw new Error(`upstream request ${name} is not JSON: ${text.slice(0, 500)}`);
        }
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(requestsDir, { recursive: true, force: true });
    },
  };
}
