import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUEUE_NAMES } from '@helpdesk/core/top/queues/registry';
import { type DynamoRequest, readUnits, writeUnits } from './capacity.js';
import { WEBHOOK_TARGET_MS } from './cost.js';
import { progress, type Stack } from './stack.js';

export interface ChainCost {
  /** What the work is counted in (emails, events, deliveries). */
  units: number;
  /** The API calls that started the work. */
  api: { calls: number; requests: DynamoRequest[]; cpuMs: number };
  /** Every consumer that ran until the queues were empty. */
  consumers: { messages: number; requests: DynamoRequest[]; cpuMs: number };
  /** Waits outside AWS of all the consumers' work, in ms (webhook endpoints' answers). */
  waitMs?: number;
}

const cpuOf = async <T>(fn: () => Promise<T>) => {
  const before = process.cpuUsage();
  const result = await fn();
  const used = process.cpuUsage(before);
  return { result, cpuMs: (used.user + used.system) / 1000 };
};

/** Runs `produce` (API calls) with the consumers stopped, then drains every queue with them running. */
async function chain(stack: Stack, calls: number, produce: () => Promise<void>) {
  await stack.purge(...QUEUE_NAMES);
  const api = await cpuOf(() => stack.recorder.record(produce));
  let messages = 0;
  for (const q of QUEUE_NAMES) messages += await stack.waiting(q);
  const drained = await cpuOf(() =>
    stack.recorder.record(async () => {
      await stack.startConsumers().drain(120_000);
      await stack.stopConsumers();
    }),
  );
  return {
    api: { calls, requests: api.result.requests, cpuMs: api.cpuMs },
    consumers: { messages, requests: drained.result.requests, cpuMs: drained.cpuMs },
  };
}

/**
 * The whole path of three kinds of background work, API call to last consumer: emails sent, log
 * events ingested and grouped, webhook deliveries (to a local receiver that answers 200 at once; each
 * delivery is counted as waiting WEBHOOK_TARGET_MS for a real endpoint).
 */
export async function measureChains(stack: Stack, project: string) {
  const call = (method: string, path: string, body?: unknown) => stack.call(method, path, { body, project });
  const EMAILS = 20;
  progress(`chains: ${EMAILS} emails sent`);
  const emails: ChainCost = {
    units: EMAILS,
    ...(await chain(stack, EMAILS, async () => {
      for (let i = 0; i < EMAILS; i++)
        await call('POST', '/emails/send', {
          to: `chain-${i}@bench.example`,
          subject: 'Hello',
          body: `Plain *body* ${i}`,
        });
    })),
  };

  // A receipt or statement: a body of about 10 KB, which the row and its four index copies once carried.
  const statement = `Your statement\n\n${'| 2026-11-01 | Order 1042 | $19.00 |\n'.repeat(250)}`;
  progress(`chains: ${EMAILS} emails sent with a ${Math.round(statement.length / 1024)} KB body`);
  const longEmails: ChainCost = {
    units: EMAILS,
    ...(await chain(stack, EMAILS, async () => {
      for (let i = 0; i < EMAILS; i++)
        await call('POST', '/emails/send', {
          to: `chain-long-${i}@bench.example`,
          subject: 'Statement',
          body: statement,
        });
    })),
  };

  const POSTS = 5;
  const EVENTS = 100;
  progress(`chains: ${POSTS * EVENTS} log events ingested and grouped`);
  const logs: ChainCost = {
    units: POSTS * EVENTS,
    ...(await chain(stack, POSTS, async () => {
      for (let p = 0; p < POSTS; p++) {
        const events = Array.from({ length: EVENTS }, (_, i) => ({
          level: 'error',
          message: `Payment ${p * EVENTS + i} failed for order ${i % 7}`,
          scope: `billing-${i % 4}`,
        }));
        await call('POST', '/logs', { events });
      }
    })),
  };

  let delivered = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const TICKETS = 10;
  try {
    progress(`chains: webhook deliveries of ${TICKETS} tickets' events`);
    const hook = await call('POST', '/webhooks', {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    });
    const measured = await chain(stack, TICKETS, async () => {
      for (let i = 0; i < TICKETS; i++)
        await call('POST', '/tickets', {
          subject: `Hook ${i}`,
          body: 'Deliver me',
          customer: { email: `hook-${i}@bench.example` },
        });
    });
    await call('DELETE', `/webhooks/${hook.body?.id}`);
    const webhooks: ChainCost = { units: delivered, ...measured, waitMs: delivered * WEBHOOK_TARGET_MS };
    return { emails, longEmails, logs, webhooks };
  } finally {
    receiver.close();
  }
}

export const unitsOf = (rs: DynamoRequest[]) => ({
  readUnits: readUnits(rs),
  writeUnits: writeUnits(rs),
  awsRequests: rs.length,
});
