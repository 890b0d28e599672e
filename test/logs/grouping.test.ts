import { randomUUID } from 'node:crypto';
import type { GroupingMessage } from '@helpdesk/core/areas/logs/events';
import { issueIdFor } from '@helpdesk/core/areas/logs/fingerprint';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/queue/log-grouping.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { sqsEvent } from './sqs-event.js';

const app = await startTestApp();

const message = (t: TenantFixture, fingerprint: string, events: GroupingMessage['events']): GroupingMessage => ({
  projectId: t.projects.main!.id,
  env: 'live',
  issueId: issueIdFor(t.projects.main!.id, 'live', fingerprint),
  fingerprint,
  title: `Failure ${fingerprint}`,
  events,
});

const events = (n: number, level: GroupingMessage['events'][number]['level'] = 'error', day = '2026-03-01') =>
  Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    level,
    timestamp: `${day}T10:00:${String(i).padStart(2, '0')}.000Z`,
  }));

const deliver = async (event: SQSEvent) => {
  const result = await handler(event);
  expect(result.batchItemFailures).toEqual([]);
};
const run = (messages: GroupingMessage[]) => deliver(sqsEvent(messages));

const post = (key: string, evts: Record<string, unknown>[]) =>
  app.call('POST', '/logs', { key, body: { events: evts } });
const issueOf = async (key: string, id: string) => (await app.call('GET', `/log-issues/${id}`, { key })).body;

describe('grouping consumer', () => {
  it('counts each event once when the same SQS batch is delivered twice', async () => {
    const t = await createTenant();
    const a = message(t, 'fp-a', events(3));
    const b = message(t, 'fp-b', events(2, 'warn'));
    const aMore = message(t, 'fp-a', events(4, 'fatal', '2026-03-02'));
    const batch = sqsEvent([a, b, aMore]);
    await deliver(batch);
    await deliver(batch);
    await run([aMore]);

    const issueA = await issueOf(t.liveKey, a.issueId);
    expect(issueA).toMatchObject({
      id: a.issueId,
      fingerprint: 'fp-a',
      title: 'Failure fp-a',
      count: 7,
      level: 'fatal',
      status: 'open',
      regressed: false,
      firstSeenAt: '2026-03-01T10:00:00.000Z',
      lastSeenAt: '2026-03-02T10:00:03.000Z',
      lastEventId: aMore.events[3]!.id,
    });
    expect((await issueOf(t.liveKey, b.issueId)).count).toBe(2);
  });

  it('counts every event of concurrent deliveries for one issue', async () => {
    const t = await createTenant();
    const batches = Array.from({ length: 6 }, () => message(t, 'hot', events(5)));
    await Promise.all(batches.map((m) => run([m])));
    await Promise.all(batches.map((m) => run([m])));
    expect((await issueOf(t.liveKey, batches[0]!.issueId)).count).toBe(30);
  });

  it('keeps the highest level and the earliest and latest times whatever the order', async () => {
    const t = await createTenant();
    const late = message(t, 'order', [{ id: randomUUID(), level: 'info', timestamp: '2026-03-05T00:00:00.000Z' }]);
    const early = message(t, 'order', [{ id: randomUUID(), level: 'error', timestamp: '2026-03-01T00:00:00.000Z' }]);
    await run([late]);
    await run([early]);
    expect(await issueOf(t.liveKey, late.issueId)).toMatchObject({
      level: 'error',
      firstSeenAt: '2026-03-01T00:00:00.000Z',
      lastSeenAt: '2026-03-05T00:00:00.000Z',
      lastEventId: late.events[0]!.id,
      count: 2,
    });
  });
});

describe('log issues through the API', () => {
  it('groups ingested events into one issue per fingerprint, with its latest events', async () => {
    const t = await createTenant();
    await post(t.liveKey, [
      {
        level: 'error',
        scope: 'billing',
        message: 'Invoice 17 failed for bob@example.com',
        timestamp: '2026-03-01T10:00:00Z',
      },
      {
        level: 'error',
        scope: 'billing',
        message: 'Invoice 18 failed for alice@example.com',
        timestamp: '2026-03-01T11:00:00Z',
      },
      {
        level: 'warn',
        scope: 'billing',
        message: 'Invoice 19 failed for carol@example.com',
        timestamp: '2026-03-01T12:00:00Z',
      },
      { level: 'error', scope: 'auth', message: 'Login failed', timestamp: '2026-03-01T09:00:00Z' },
    ]);
    await app.drain();
    const list = await app.call('GET', '/log-issues', { key: t.liveKey });
    // One issue whatever the level (issue 17: the level is no part of a message's grouping); its level is the highest.
    expect(
      list.body.issues.map((i: { title: string; level: string; count: number }) => [i.title, i.level, i.count]),
    ).toEqual([
      ['Invoice <num> failed for <email>', 'error', 3],
      ['Login failed', 'error', 1],
    ]);
    const { id } = list.body.issues[0];
    const logs = await app.call('GET', '/logs', { key: t.liveKey, query: { scope: 'billing' } });
    expect(logs.body.logs.map((e: { issueId: string }) => e.issueId)).toEqual([id, id, id]);
    const issue = await issueOf(t.liveKey, id);
    expect(issue).toMatchObject({
      id,
      fingerprint: logs.body.logs[0].fingerprint,
      scope: 'billing',
      count: 3,
      firstSeenAt: '2026-03-01T10:00:00.000Z',
      lastSeenAt: '2026-03-01T12:00:00.000Z',
      lastEventId: logs.body.logs[0].id,
      groupingVersion: 2,
      mergedInto: null,
    });
    expect(issue.latestEvents.map((e: { message: string }) => e.message)).toEqual([
      'Invoice 19 failed for carol@example.com',
      'Invoice 18 failed for alice@example.com',
      'Invoice 17 failed for bob@example.com',
    ]);
  });

  it('makes one issue of the first two events of a scope that differ only in email, URL, IP, UUID and quoted text', async () => {
    const t = await createTenant();
    // Two requests, so each event is the first of its fingerprint when grouped.
    for (const [who, url, ip, id, why] of [
      ['anna@example.com', 'https://a.example.com/x?y=1', '10.0.0.1', randomUUID(), 'disk is full'],
      ['bob@example.org', 'https://b.example.net/', '192.168.1.20', randomUUID(), 'quota exceeded on volume'],
    ]) {
      const res = await post(t.liveKey, [
        { level: 'error', scope: 'sync', message: `Sync for ${who} from ${url} via ${ip} job ${id} failed: "${why}"` },
      ]);
      expect(res.status).toBe(200);
      await app.drain();
    }
    const list = (await app.call('GET', '/log-issues', { key: t.liveKey })).body.issues;
    expect(list).toHaveLength(1);
    expect(list[0].count).toBe(2);
    const logs = (await app.call('GET', '/logs', { key: t.liveKey })).body.logs;
    // Each event keeps its own fingerprint; the second's issue went into the first's.
    expect(new Set(logs.map((e: { fingerprint: string }) => e.fingerprint)).size).toBe(2);
    for (const e of logs) {
      const issue = await issueOf(t.liveKey, e.issueId);
      expect(issue.mergedInto ?? issue.id).toBe(list[0].id);
    }
  });

  it('reopens a resolved issue as regressed, and keeps an ignored one ignored while counting', async () => {
    const t = await createTenant();
    const stack = 'Error: x\n    at charge (/app/src/billing.ts:10:3)';
    const send = () => post(t.liveKey, [{ level: 'error', message: `Charge ${randomUUID()} failed`, stack }]);
    await send();
    await app.drain();
    const [{ id }] = (await app.call('GET', '/log-issues', { key: t.liveKey })).body.issues;

    const resolved = await app.call('PATCH', `/log-issues/${id}`, { key: t.liveKey, body: { status: 'resolved' } });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ id, status: 'resolved', regressed: false, count: 1 });
    await send();
    await app.drain();
    expect(await issueOf(t.liveKey, id)).toMatchObject({ status: 'open', regressed: true, count: 2 });

    expect(
      (await app.call('PATCH', `/log-issues/${id}`, { key: t.liveKey, body: { status: 'acknowledged' } })).body,
    ).toMatchObject({
      status: 'acknowledged',
      regressed: false,
    });
    await send();
    await app.drain();
    expect(await issueOf(t.liveKey, id)).toMatchObject({ status: 'acknowledged', regressed: false, count: 3 });

    await app.call('PATCH', `/log-issues/${id}`, { key: t.liveKey, body: { status: 'ignored' } });
    await send();
    await send();
    await app.drain();
    const ignored = await issueOf(t.liveKey, id);
    expect(ignored).toMatchObject({ status: 'ignored', regressed: false, count: 5 });
    expect(ignored.latestEvents).toHaveLength(5);
  });

  it('validates the status and needs logs:write to change it', async () => {
    const t = await createTenant();
    await post(t.liveKey, [{ level: 'error', message: 'x' }]);
    await app.drain();
    const [{ id }] = (await app.call('GET', '/log-issues', { key: t.liveKey })).body.issues;
    expect((await app.call('PATCH', `/log-issues/${id}`, { key: t.liveKey, body: { status: 'closed' } })).status).toBe(
      422,
    );
    expect(
      (await app.call('PATCH', `/log-issues/${id}`, { key: t.liveKey, body: { status: 'open', x: 1 } })).status,
    ).toBe(422);
    const reader = await t.key({ scopes: ['logs:read'] });
    expect((await app.call('PATCH', `/log-issues/${id}`, { key: reader, body: { status: 'resolved' } })).status).toBe(
      403,
    );
  });

  it('answers 404 for an issue of another project or environment, or a malformed id', async () => {
    const t = await createTenant({ projects: ['main', 'other'] });
    await app.call('POST', '/logs', {
      key: t.liveKey,
      query: { project: 'main' },
      body: { events: [{ level: 'error', message: 'x' }] },
    });
    await app.drain();
    const [{ id }] = (await app.call('GET', '/log-issues', { key: t.liveKey, query: { project: 'main' } })).body.issues;
    expect((await app.call('GET', `/log-issues/${id}`, { key: t.liveKey, query: { project: 'main' } })).status).toBe(
      200,
    );
    const otherProject = { key: t.liveKey, query: { project: 'other' } };
    expect((await app.call('GET', `/log-issues/${id}`, otherProject)).body.error.code).toBe('not_found');
    expect(
      (await app.call('PATCH', `/log-issues/${id}`, { ...otherProject, body: { status: 'resolved' } })).status,
    ).toBe(404);
    const sandbox = { key: t.sandboxKey, query: { project: 'main' } };
    expect((await app.call('GET', `/log-issues/${id}`, sandbox)).status).toBe(404);
    expect((await app.call('PATCH', `/log-issues/${id}`, { ...sandbox, body: { status: 'resolved' } })).status).toBe(
      404,
    );
    expect(
      (await app.call('GET', '/log-issues/not-a-uuid', { key: t.liveKey, query: { project: 'main' } })).status,
    ).toBe(404);
    expect(
      (await app.call('GET', `/log-issues/${id}`, { key: t.liveKey, query: { project: 'main' } })).body.status,
    ).toBe('open');
  });
});
