import { isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import type { PeerRequest } from './port-peer.js';

// The far end of the bare MessagePort baselines: a plain worker thread with no piscina, no
// comlink and no leaf. Started only by port-peer.ts.
if (isMainThread) throw new Error('port-peer-worker.js runs only inside the worker port-peer.ts starts');

const port = (workerData as { port: MessagePort }).port;
port.on('message', (request: PeerRequest) => {
  if (request.type === 'ping') return port.postMessage(request.id);
  const chunk = 'x'.repeat(request.size);
  for (let i = 0; i < request.count; i++) port.postMessage(chunk);
  port.postMessage(null);
});
