// Serves the useChat page (bundled from npm with esbuild at test time) next to a proxy of /api/chat to the gateway, opens
// it in headless Chromium and resolves with the report the page POSTs to /report once its turns are done.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Debian's chromium, or $CHROMIUM; null when there is none (the browser test is then skipped, as in examples/webflux-chat). */
export function chromiumBinary() {
  const candidates = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  return candidates.find((c) => c && existsSync(c)) ?? null;
}

async function bundle() {
  const out = await build({
    entryPoints: [path.join(HERE, 'page.jsx')],
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    minify: true,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return out.outputFiles[0].text;
}

/** Runs the page against `apiBase` (the gateway's origin) with the given questions; resolves with the page's report. */
export async function runPage({ apiBase, questions, timeoutMs = 60_000 }) {
  const script = await bundle();
  const html = '<!doctype html><meta charset="utf-8"><title>useChat</title><div id="root"></div>'
    + `<script id="questions" type="application/json">${JSON.stringify(questions)}</script><script src="/app.js"></script>`;
  let resolveReport;
  const report = new Promise((resolve) => { resolveReport = resolve; });
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (req.method === 'GET' && req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else if (req.method === 'POST' && req.url === '/report') {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => { res.writeHead(204).end(); resolveReport(JSON.parse(body)); });
    } else if (req.url === '/api/chat') {
      // same origin for the page: pass the request to the gateway and its stream back as it comes
      const upstream = http.request(new URL('/api/chat', apiBase), { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode, up.headers);
        up.pipe(res);
      });
      upstream.on('error', (e) => res.destroy(e));
      req.pipe(upstream);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const profile = mkdtempSync(path.join(tmpdir(), 'ruminate-aisdk-chromium-'));
  const browser = spawn(chromiumBinary(), ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
    `--user-data-dir=${profile}`, '--no-proxy-server', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--disable-extensions', '--no-first-run', '--no-default-browser-check', url],
  { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  browser.stderr.on('data', (c) => { stderr = (stderr + c).slice(-20_000); });
  const exited = new Promise((resolve) => browser.once('exit', resolve));
  try {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the page reported nothing within ${timeoutMs} ms; chromium said:\n${stderr}`)), timeoutMs);
    });
    try {
      return await Promise.race([report, timeout, exited.then((code) => {
        throw new Error(`chromium ended (code ${code}) before the page reported; it said:\n${stderr}`);
      })]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    if (browser.exitCode === null && browser.signalCode === null) {
      browser.kill('SIGTERM');
      const kill = setTimeout(() => browser.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(kill);
    }
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    // Chromium's helper processes (crashpad, utility) can outlive the browser process for a moment and still write
    // to the profile: removal retries on ENOTEMPTY/EBUSY, and a profile left behind in the temp directory is not a
    // failure of the page under test.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (e) {
      process.stderr.write(`left the chromium profile ${profile} behind: ${e.message}\n`);
    }
  }
}
