import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parentPort } from 'node:worker_threads';
import { MAX_BODY_BYTES } from '../middleware/body-limit.middleware';
import type { LoadedPlan } from './catalogue';
import { sandboxAnswer } from './insurer-sandbox';
import type { SandboxThreadMessage, SandboxWorkerMessage } from './insurer-sandbox-thread';

/**
 * The insurer sandbox's thread (insurer-sandbox-thread.ts starts it): a plain HTTP server on a
 * loopback port of its own, answering POST /insurer-sandbox/quote from the catalogue copy the
 * server's thread sends it. Requests that come before the first copy wait for it.
 */

const port = parentPort!;
let plans: LoadedPlan[] | null = null;
let waiting: Array<() => void> = [];

port.on('message', (message: SandboxThreadMessage) => {
  if (message.type !== 'catalogue') return;
  plans = message.plans;
  for (const wake of waiting) wake();
  waiting = [];
});

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

function answer(req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST' || req.url !== '/insurer-sandbox/quote') return send(res, 404, { error: 'not_found' });
  const chunks: Buffer[] = [];
  let total = 0;
  req.on('data', (chunk: Buffer) => {
    total += chunk.byteLength;
    if (total > MAX_BODY_BYTES) {
      res.setHeader('connection', 'close');
      send(res, 413, { error: 'payload_too_large' });
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    const reply = () => {
      const { status, body } = sandboxAnswer(plans!, Buffer.concat(chunks).toString('utf8'));
      send(res, status, body);
    };
    if (plans) reply();
    else waiting.push(reply);
  });
}

const server = createServer(answer);
// As the main server (main.ts): idle connections outlive the client's, so a reused one is never closed under it.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const message: SandboxWorkerMessage = { type: 'listening', port: typeof address === 'object' && address ? address.port : 0 };
  port.postMessage(message);
});
