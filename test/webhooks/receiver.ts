import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryIssues } from '@helpdesk/core/top/openapi/webhooks';
import { afterAll, expect } from 'vitest';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  /** When it arrived (epoch ms). */
  at: number;
}

type Reply = { status: number; delayMs?: number; headers?: Record<string, string> } | 'hang';

/**
 * A real HTTP receiver on 127.0.0.1: records every POST and answers as `reply` says for the n-th
 * request (0-based). 'hang' keeps the request open until `release()`. Every JSON delivery it gets is
 * checked against the event catalog (its type's schema) when the file's tests end: the test suite's
 * deliveries are the catalog's contract test.
 */
export async function startReceiver(reply: (n: number) => Reply = () => ({ status: 200 })) {
  const requests: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const n = requests.length;
      requests.push({ headers: req.headers, body, json, at: Date.now() });
      for (const w of waiters.filter((w) => requests.length >= w.count)) w.resolve();
      const r = reply(n);
      const answer = () => {
        if (r === 'hang') return;
        if (!res.destroyed) res.writeHead(r.status, r.headers).end('ok');
      };
      if (r === 'hang') hanging.push(() => res.destroyed || res.writeHead(200).end('late'));
      else if (r.delayMs) setTimeout(answer, r.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const release of hanging.splice(0)) release();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  afterAll(async () => {
    await close();
    const broken = requests
      .filter((r) => r.json && typeof r.json === 'object' && 'event' in r.json)
      .flatMap((r) => deliveryIssues(r.json).map((issue) => `${r.json.event}: ${issue}`));
    expect(broken, 'deliveries that break their catalog schema').toEqual([]);
  });
  return {
    url,
    requests,
    /** Resolves once `count` requests have arrived. */
    waitFor(count: number, timeoutMs = 15_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`Receiver got ${requests.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    /** Answers every hanging request. */
    release() {
      for (const release of hanging.splice(0)) release();
    },
    close,
  };
}
