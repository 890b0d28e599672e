import net from 'node:net';
import type { FaultCounts } from './http-proxy.js';
import { draw, type ServiceFaults } from './spec.js';

/**
 * A TCP proxy in front of the SMTP stand-in: per connection, the spec's throttle (a 421 greeting, as
 * a busy MTA answers), reset (dropped at once), timeout (silent until the sender gives up) or latency;
 * 5xx (a 451 after the message, the sender retries it) and lost (dropped after the message was
 * accepted) act once the message's end has been forwarded.
 */
export async function startSmtpFaultProxy(host: string, port: number, faults: ServiceFaults) {
  const counts: FaultCounts = {};
  const sockets = new Set<net.Socket>();
  const server = net.createServer(async (client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const verdict = draw(faults);
    counts[verdict] = (counts[verdict] ?? 0) + 1;
    const latency = faults.latency;
    if (latency && Math.random() < latency.rate) await new Promise((r) => setTimeout(r, latency.ms));
    if (verdict === 'reset') return client.destroy();
    if (verdict === 'timeout') return;
    if (verdict === 'throttle') return client.end('421 4.7.0 Busy (injected), try again later\r\n');
    const upstream = net.connect(port, host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    // The end of a message's data is "\r\n.\r\n" from the client; its answer is the next reply upstream.
    let tail = '';
    let afterData = false;
    client.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('latin1')).slice(-5);
      if (tail === '\r\n.\r\n') afterData = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (afterData && verdict === 'error5xx') {
        afterData = false;
        // The stand-in accepted the message; the sender hears a temporary failure and sends it again.
        return client.write('451 4.3.0 Temporary failure (injected)\r\n');
      }
      if (afterData && verdict === 'lost') return client.destroy();
      afterData = false;
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
