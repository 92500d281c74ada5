import type { PeerRequest } from './port-peer.js';

// The far end of the bare IPC baselines: a plain child process on Node's IPC channel, with no
// engine, no framing of ours and no leaf. Started only by ipc-peer.ts.
if (process.send === undefined) throw new Error('ipc-peer-child.js runs only as the child ipc-peer.ts starts');
const send = process.send.bind(process);

process.on('message', (request: PeerRequest) => {
  if (request.type === 'ping') return void send(request.id);
  const chunk = 'x'.repeat(request.size);
  for (let i = 0; i < request.count; i++) send(chunk);
  send(null);
});
