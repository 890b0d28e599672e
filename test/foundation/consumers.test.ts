import { randomUUID } from 'node:crypto';
import { articleIndexQueue } from '@helpdesk/core/areas/articles/queue';
import { issueIdFor } from '@helpdesk/core/areas/logs/fingerprint';
import { PLAN_ALLOWANCES } from '@helpdesk/core/identity/plans';
import { logger } from '@helpdesk/core/kernel/logger';
import { consumer } from '@helpdesk/core/top/queues/consumer';
import type { QueueInput } from '@helpdesk/core/top/queues/registry';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as articleIndex } from '../../functions/queue/article-index.js';
import { handler as emails } from '../../functions/queue/emails.js';
import { handler as logGrouping } from '../../functions/queue/log-grouping.js';
import { handler as sesEvents } from '../../functions/queue/ses-events.js';
import { handler as webhooks } from '../../functions/queue/webhooks.js';
import { uniqueAddress } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';

// Consumers off: every batch below reaches a consumer only through the handler call the test makes.
const app = await startTestApp({ consumers: false });

const record = (body: string, messageId = randomUUID()) => ({
  messageId,
  receiptHandle: 'r',
  body,
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: '0',
    SenderId: 's',
    ApproximateFirstReceiveTimestamp: '0',
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q',
  awsRegion: 'us-east-1',
});

/** A batch of the given valid messages between a body that is not JSON and one that is JSON but not the queue's message. */
function mixedBatch(valid: unknown[], wrongShape: unknown) {
  const malformed = record('{"emailId": "cut off');
  const offSchema = record(JSON.stringify(wrongShape));
  const good = valid.map((m) => record(JSON.stringify(m)));
  const event: SQSEvent = { Records: [malformed, good[0]!, offSchema, ...good.slice(1)] };
  return { event, poison: [malformed.messageId, offSchema.messageId].sort() };
}

const failedIds = (result: { batchItemFailures: { itemIdentifier: string }[] }) =>
  result.batchItemFailures.map((f) => f.itemIdentifier).sort();

const spyOnErrors = () => vi.spyOn(logger, 'error').mockImplementation(() => undefined);

/** Every poison message was logged with its id, as a poison message. */
function expectPoisonLogged(spy: ReturnType<typeof spyOnErrors>, ids: string[]) {
  const logged = spy.mock.calls
    .filter(([message]) => String(message).startsWith('Poison message'))
    .map(([, attrs]) => (attrs as { messageId: string }).messageId)
    .sort();
  expect(logged).toEqual(ids);
}

afterEach(() => {
  vi.restoreAllMocks();
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined }); // the receiver listens on 127.0.0.1
});

/** Runs the batch through the handler: only the two poison records fail, and both are logged as poison with their ids. */
async function expectOnlyPoisonFailed(
  handler: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>,
  valid: unknown[],
  wrongShape: unknown,
) {
  const { event, poison } = mixedBatch(valid, wrongShape);
  const spy = spyOnErrors();
  expect(failedIds(await handler(event))).toEqual(poison);
  expectPoisonLogged(spy, poison);
}

/** Two custom sends through the API; with consumers off they wait on the emails queue. */
const twoSends = (key: string) =>
  Promise.all(
    [uniqueAddress(), uniqueAddress()].map((to) =>
      app.call('POST', '/emails/send', { key, body: { to, subject: 'Hello', body: 'Hi there' } }),
    ),
  );
const statusesOf = async (key: string, sends: { body: { id: string } }[]) =>
  Promise.all(sends.map(async (s) => (await app.call('GET', `/emails/${s.body.id}`, { key })).body.status));

const tenantOf = (t: TenantFixture) => ({ projectId: t.projects.main!.id, env: 'live' as const });

describe('consumer()', () => {
  it('validates each record, runs the valid ones, and reports only the failed ones', async () => {
    const seen: string[] = [];
    const handle = consumer(articleIndexQueue, {
      groupBy: (m) => m.projectId,
      together: (messages) => {
        if (messages.some((m) => m.articleId === 'boom')) return Promise.reject(new Error('index down'));
        seen.push(...messages.map((m) => m.articleId));
        return Promise.resolve();
      },
    });
    const spy = spyOnErrors();
    const ok = (projectId: string, articleId: string): QueueInput<'articleIndex'> => ({
      projectId,
      env: 'live',
      articleId,
    });
    const { event, poison } = mixedBatch([ok('p1', 'a'), ok('p1', 'b'), ok('p2', 'boom'), ok('p2', 'c')], {
      projectId: 'p1',
      env: 'staging',
      articleId: 'x',
    });
    const result = await handle(event);
    // p1's group ran together; p2's group failed as a whole (both its records), the poison ones on their own.
    expect(seen.sort()).toEqual(['a', 'b']);
    const p2 = event.Records.filter((r) => r.body.includes('"p2"')).map((r) => r.messageId);
    expect(failedIds(result)).toEqual([...poison, ...p2].sort());
    expectPoisonLogged(spy, poison);
    const reasons = spy.mock.calls
      .filter(([m]) => String(m).startsWith('Poison'))
      .map(([, a]) => (a as { reason: string }).reason);
    expect(reasons.sort()).toEqual([
      'Not a articleIndex message: env: Expected one of live, sandbox',
      'The body is not JSON',
    ]);
  });

  it('runs messages of one key in order and different keys side by side; a failure fails only its record', async () => {
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const handle = consumer(articleIndexQueue, {
      inOrderBy: (m) => m.projectId,
      each: async (m) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        if (m.articleId === 'a2') throw new Error('fails once');
        order.push(m.articleId);
      },
    });
    spyOnErrors();
    const bodies = ['a1', 'a2', 'a3']
      .map((id) => ({ projectId: 'A', env: 'live', articleId: id }))
      .concat([{ projectId: 'B', env: 'live', articleId: 'b1' }]);
    const event: SQSEvent = { Records: bodies.map((b) => record(JSON.stringify(b))) };
    const result = await handle(event);
    expect(order.filter((id) => id.startsWith('a'))).toEqual(['a1', 'a3']);
    expect(order).toContain('b1');
    expect(most).toBe(2);
    expect(failedIds(result)).toEqual([event.Records[1]!.messageId]);
  });
});

describe('every queue consumer with one malformed and one off-schema message in its batch', () => {
  it('emails: delivers the valid sends', async () => {
    const t = await createTenant();
    const sends = await twoSends(t.sandboxKey);
    const project = { ...t.projects.main! };
    const ctx = {
      accountId: t.accountId,
      plan: 'pro' as const,
      allowances: PLAN_ALLOWANCES.pro,
      projectId: project.id,
      projectSlug: project.slug,
      project,
      env: 'sandbox' as const,
    };
    await expectOnlyPoisonFailed(
      emails,
      sends.map((s): QueueInput<'emails'> => ({ emailId: s.body.id, ctx })),
      { emailId: sends[0]!.body.id },
    );
    expect(await statusesOf(t.sandboxKey, sends)).toEqual(['captured', 'captured']);
  });

  it('sesEvents: applies the valid events, bare and SNS-wrapped', async () => {
    const t = await createTenant();
    const sends = await twoSends(t.liveKey);
    const bounce = (emailId: string, to: string): QueueInput<'sesEvents'> => ({
      eventType: 'Bounce',
      mail: {
        messageId: randomUUID(),
        tags: { accountId: [t.accountId], projectId: [t.projects.main!.id], env: ['live'], emailId: [emailId] },
      },
      bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: to }] },
    });
    const bare = bounce(sends[0]!.body.id, sends[0]!.body.to);
    const wrapped = { Type: 'Notification', Message: JSON.stringify(bounce(sends[1]!.body.id, sends[1]!.body.to)) };
    await expectOnlyPoisonFailed(sesEvents, [bare, wrapped], { Type: 'Notification', Message: 'not json' });
    expect(await statusesOf(t.liveKey, sends)).toEqual(['bounced', 'bounced']);
  });

  it('webhooks: delivers the valid jobs', async () => {
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' });
    const receiver = await startReceiver();
    const t = await createTenant();
    const hook = await app.call('POST', '/webhooks', { key: t.liveKey, body: { url: receiver.url } });
    expect(hook.status).toBe(200);
    const job = (n: number): QueueInput<'webhooks'> => ({
      kind: 'delivery',
      deliveryId: randomUUID(),
      webhookId: hook.body.id,
      accountId: t.accountId,
      ...tenantOf(t),
      event: 'ticket.created',
      timestamp: new Date().toISOString(),
      data: { n },
      attempt: 1,
    });
    await expectOnlyPoisonFailed(webhooks, [job(1), job(2)], { kind: 'delivery', webhookId: hook.body.id });
    expect(receiver.requests.map((r) => r.json.data.n).sort()).toEqual([1, 2]);
  });

  it('logs: groups the valid events into their issues', async () => {
    const t = await createTenant();
    const message = (fingerprint: string): QueueInput<'logs'> => ({
      ...tenantOf(t),
      issueId: issueIdFor(t.projects.main!.id, 'live', fingerprint),
      fingerprint,
      title: `Failure ${fingerprint}`,
      events: [{ id: randomUUID(), level: 'error', timestamp: '2026-03-01T10:00:00.000Z' }],
    });
    const valid = [message('fp-1'), message('fp-2')];
    await expectOnlyPoisonFailed(logGrouping, valid, {
      ...message('fp-3'),
      events: [{ id: 'e', level: 'loud', timestamp: 'x' }],
    });
    for (const m of valid) {
      expect((await app.call('GET', `/log-issues/${m.issueId}`, { key: t.liveKey })).body).toMatchObject({
        id: m.issueId,
        count: 1,
      });
    }
  });

  it('articleIndex: indexes the valid articles', async () => {
    const t = await createTenant();
    const ids: string[] = [];
    for (const word of ['zephyrine', 'quillwort']) {
      const res = await app.call('POST', '/articles', {
        key: t.liveKey,
        body: { title: `About ${word}`, body: `All about ${word}.`, status: 'published' },
      });
      ids.push(res.body.id);
    }
    await expectOnlyPoisonFailed(
      articleIndex,
      ids.map((articleId): QueueInput<'articleIndex'> => ({ ...tenantOf(t), articleId })),
      tenantOf(t),
    );
    for (const [i, word] of ['zephyrine', 'quillwort'].entries()) {
      const found = await app.call('GET', '/articles/search', { key: t.liveKey, query: { q: word, mode: 'keyword' } });
      expect(found.body.results.map((r: { id: string }) => r.id)).toEqual([ids[i]]);
    }
  });
});
