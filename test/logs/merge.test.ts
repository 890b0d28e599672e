import { randomUUID } from 'node:crypto';
import { LogIssue } from '@helpdesk/core/areas/logs/entities';
import type { GroupingMessage } from '@helpdesk/core/areas/logs/events';
import { fingerprintOf, issueIdFor } from '@helpdesk/core/areas/logs/fingerprint';
import { fingerprintV1 } from '@helpdesk/core/areas/logs/fingerprint-v1';
import { MIN_VARIANTS } from '@helpdesk/core/areas/logs/templates';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/queue/log-grouping.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { sqsEvent } from './sqs-event.js';

const app = await startTestApp();

const stackAt = (fn: string) => `Error: x\n    at ${fn} (/app/src/${fn}.ts:10:3)`;
const post = (key: string, events: Record<string, unknown>[], project?: string) =>
  app.call('POST', '/logs', { key, body: { events }, ...(project ? { query: { project } } : {}) });
const get = async (key: string, id: string, project?: string) =>
  app.call('GET', `/log-issues/${id}`, { key, ...(project ? { query: { project } } : {}) });
const merge = (key: string, id: string, body: unknown, project?: string) =>
  app.call('POST', `/log-issues/${id}/merge`, { key, body, ...(project ? { query: { project } } : {}) });
const issues = async (key: string) =>
  (await app.call('GET', '/log-issues', { key })).body.issues as { id: string; title: string; count: number }[];
/** Each stored event's live issue, as a client finds it: the event's issueId, then `mergedInto`. */
const liveIssuesOfEvents = async (key: string) => {
  const { logs } = (await app.call('GET', '/logs', { key, query: { limit: 100 } })).body as {
    logs: { issueId: string }[];
  };
  return Promise.all(
    logs.map(
      async (e) =>
        ((await get(key, e.issueId)).body as { id: string; mergedInto: string | null }).mergedInto ?? e.issueId,
    ),
  );
};

/** Two issues by stack (no learning involved): A with events at 10:00 and 11:00, B with one fatal at 09:00. */
async function twoIssues(t: TenantFixture, project?: string) {
  await post(
    t.liveKey,
    [
      { level: 'error', message: 'a', stack: stackAt('alpha'), timestamp: '2026-03-01T10:00:00Z' },
      { level: 'error', message: 'a', stack: stackAt('alpha'), timestamp: '2026-03-01T11:00:00Z' },
      { level: 'fatal', message: 'b', stack: stackAt('beta'), timestamp: '2026-03-01T09:00:00Z' },
    ],
    project,
  );
  await app.drain();
  const list = (await app.call('GET', '/log-issues', { key: t.liveKey, ...(project ? { query: { project } } : {}) }))
    .body.issues as {
    id: string;
    count: number;
  }[];
  const a = list.find((i) => i.count === 2)!.id;
  const b = list.find((i) => i.count === 1)!.id;
  return { a, b };
}

describe('POST /log-issues/{id}/merge', () => {
  it('sums counts, keeps the earliest and latest times and the higher level, and later events follow the merge', async () => {
    const t = await createTenant();
    const { a, b } = await twoIssues(t);
    const merged = await merge(t.liveKey, b, { into: a });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({
      id: a,
      count: 3,
      level: 'fatal',
      firstSeenAt: '2026-03-01T09:00:00.000Z',
      lastSeenAt: '2026-03-01T11:00:00.000Z',
      mergedInto: null,
    });

    const source = await get(t.liveKey, b);
    expect(source.status).toBe(200);
    expect(source.body).toMatchObject({ id: b, mergedInto: a, count: 1 });
    expect((await issues(t.liveKey)).map((i) => [i.id, i.count])).toEqual([[a, 3]]);
    expect((await get(t.liveKey, a)).body.latestEvents.map((e: { message: string }) => e.message)).toEqual([
      'a',
      'a',
      'b',
    ]);

    // Merges stick: a later event of B's fingerprint counts in A, once.
    await post(t.liveKey, [
      { level: 'warn', message: 'b again', stack: stackAt('beta'), timestamp: '2026-03-02T09:00:00Z' },
    ]);
    await app.drain();
    const target = (await get(t.liveKey, a)).body;
    expect(target).toMatchObject({ count: 4, lastSeenAt: '2026-03-02T09:00:00.000Z' });
    expect(target.latestEvents[0].message).toBe('b again');
    expect((await get(t.liveKey, b)).body.count).toBe(1);
  });

  it('refuses merging into itself, into a merged issue, or a merged issue again (422), and validates the body', async () => {
    const t = await createTenant();
    const { a, b } = await twoIssues(t);
    const self = await merge(t.liveKey, a, { into: a });
    expect([self.status, self.body.error.code]).toEqual([422, 'log_issue.merge_into_self']);
    expect((await merge(t.liveKey, b, { into: a })).status).toBe(200);
    const intoMerged = await merge(t.liveKey, a, { into: b });
    expect([intoMerged.status, intoMerged.body.error.code, intoMerged.body.error.details]).toEqual([
      422,
      'log_issue.already_merged',
      { id: b, mergedInto: a },
    ]);
    expect((await merge(t.liveKey, b, { into: a })).body.error.code).toBe('log_issue.already_merged');
    // A merged issue has no status of its own any more: PATCH names the issue it went into.
    const patched = await app.call('PATCH', `/log-issues/${b}`, { key: t.liveKey, body: { status: 'resolved' } });
    expect([patched.status, patched.body.error.code, patched.body.error.details]).toEqual([
      422,
      'log_issue.already_merged',
      { id: b, mergedInto: a },
    ]);
    expect((await get(t.liveKey, b)).body.status).not.toBe('resolved');
    expect((await merge(t.liveKey, a, { into: 'not-a-uuid' })).status).toBe(422);
    expect((await merge(t.liveKey, a, {})).status).toBe(422);
    expect((await merge(t.liveKey, a, { into: b, extra: 1 })).status).toBe(422);
    expect((await get(t.liveKey, a)).body.count).toBe(3);
  });

  it('answers 404 for unknown ids and for issues of another project or environment, and needs logs:write', async () => {
    const t = await createTenant({ projects: ['main', 'other'] });
    const main = await twoIssues(t, 'main');
    const other = await twoIssues(t, 'other');
    expect((await merge(t.liveKey, main.b, { into: randomUUID() }, 'main')).status).toBe(404);
    expect((await merge(t.liveKey, randomUUID(), { into: main.a }, 'main')).status).toBe(404);
    expect((await merge(t.liveKey, main.b, { into: other.a }, 'main')).body.error.code).toBe('not_found');
    expect((await merge(t.liveKey, other.b, { into: main.a }, 'main')).status).toBe(404);
    expect((await merge(t.sandboxKey, main.b, { into: main.a }, 'main')).status).toBe(404);
    const reader = await t.key({ scopes: ['logs:read'] });
    expect((await merge(reader, main.b, { into: main.a }, 'main')).status).toBe(403);
    expect((await get(t.liveKey, main.b, 'main')).body).toMatchObject({ mergedInto: null, count: 1 });
    expect((await get(t.liveKey, other.a, 'other')).body).toMatchObject({ mergedInto: null, count: 2 });
  });
});

describe('automatic merges from template learning', () => {
  it('merges the issues of a word that varies into the first one, and every event reads back to it', async () => {
    const t = await createTenant();
    const users = ['root', 'bob', 'alice', 'carol', 'dave', 'erin'];
    for (const [i, user] of users.entries()) {
      await post(t.liveKey, [
        { level: 'info', message: `session opened for user ${user} by sshd`, timestamp: `2026-03-01T10:00:0${i}Z` },
      ]);
      await app.drain();
      // Before MIN_VARIANTS values, each user is its own issue.
      if (i === MIN_VARIANTS - 2) expect(await issues(t.liveKey)).toHaveLength(MIN_VARIANTS - 1);
    }
    await post(t.liveKey, [{ level: 'info', message: 'cupsd startup succeeded' }]);
    await app.drain();
    const list = await issues(t.liveKey);
    expect(list.map((i) => [i.title, i.count]).sort()).toEqual([
      ['cupsd startup succeeded', 1],
      // The general issue is retitled with its template.
      ['session opened for user <*> by sshd', users.length],
    ]);
    const sessions = list.find((i) => i.title.startsWith('session'))!.id;
    const live = await liveIssuesOfEvents(t.liveKey);
    expect(live.filter((id) => id === sessions)).toHaveLength(users.length);
    expect((await get(t.liveKey, sessions)).body.latestEvents).toHaveLength(users.length);
  });
});

describe('exactly-once counting with learning', () => {
  it('counts every event once when batches of varying messages are redelivered concurrently', async () => {
    const t = await createTenant();
    const projectId = t.projects.main!.id;
    const messages = Array.from({ length: 12 }, (_, i) => {
      const { fingerprint, title } = fingerprintOf({
        level: 'error',
        message: `Disk quota exceeded for user u${'abcdef'[i % 6]}x on volume home`,
      });
      return {
        projectId,
        env: 'live' as const,
        issueId: issueIdFor(projectId, 'live', fingerprint),
        fingerprint,
        title: title.replace(/u\w+x/, `user${'abcdef'[i % 6]}`),
        learn: true,
        events: Array.from({ length: 3 }, (_, j) => ({
          id: randomUUID(),
          level: 'error' as const,
          timestamp: `2026-03-01T10:${String(i).padStart(2, '0')}:0${j}.000Z`,
        })),
      } satisfies GroupingMessage;
    });
    const halves = [sqsEvent(messages.slice(0, 6)), sqsEvent(messages.slice(6)), sqsEvent(messages)];
    const results = await Promise.all([...halves, ...halves].map((e) => handler(e)));
    expect(results.flatMap((r) => r.batchItemFailures)).toEqual([]);
    await handler(sqsEvent(messages));
    const list = await issues(t.liveKey);
    expect(list).toHaveLength(1);
    expect(list[0]!.count).toBe(36);
  });
});

describe('upgrades do not split history', () => {
  it("lands a message's events in the issue grouping version 1 made for it", async () => {
    const t = await createTenant();
    const projectId = t.projects.main!.id;
    const event = { level: 'error' as const, scope: 'billing', message: 'Payment 1234 declined for card ending 42' };
    const v1Id = issueIdFor(projectId, 'live', fingerprintV1(event));
    await LogIssue.create({
      projectId,
      env: 'live',
      issueId: v1Id,
      fingerprint: fingerprintV1(event),
      title: 'Payment <num> declined for card ending <num>',
      level: 'error',
      scope: 'billing',
      count: 5,
      firstSeenAt: '2026-01-01T00:00:00.000Z',
      lastSeenAt: '2026-01-02T00:00:00.000Z',
      lastEventId: randomUUID(),
    }).go();
    expect((await get(t.liveKey, v1Id)).body).toMatchObject({ groupingVersion: 1, count: 5 });

    await post(t.liveKey, [
      { ...event, message: 'Payment 98 declined for card ending 17', timestamp: '2026-03-01T00:00:00Z' },
    ]);
    await app.drain();
    expect(await issues(t.liveKey)).toMatchObject([{ id: v1Id, count: 6 }]);
    expect(await liveIssuesOfEvents(t.liveKey)).toEqual([v1Id]);
    const v1 = (await get(t.liveKey, v1Id)).body;
    expect(v1).toMatchObject({ groupingVersion: 1, lastSeenAt: '2026-03-01T00:00:00.000Z' });
    expect(v1.latestEvents.map((e: { message: string }) => e.message)).toEqual([
      'Payment 98 declined for card ending 17',
    ]);
    // A kind version 1 never saw gets a version-2 issue.
    await post(t.liveKey, [{ level: 'error', message: 'Refund 5 failed' }]);
    await app.drain();
    expect((await issues(t.liveKey)).find((i) => i.title === 'Refund <num> failed')).toMatchObject({
      groupingVersion: 2,
      count: 1,
    });
  });
});
