import { describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from '../tickets/event-spy.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) =>
  (await import('../tickets/event-spy.js')).spiedRelay(original),
);

const app = await startTestApp();

/** Posts events of one message shape (so one issue) in the given releases, and waits for grouping. */
async function logIn(t: TenantFixture, message: string, releases: (string | undefined)[]) {
  const res = await app.call('POST', '/logs', {
    key: t.liveKey,
    body: {
      events: releases.map((release) => ({
        level: 'error',
        message,
        environment: 'production',
        ...(release ? { release } : {}),
      })),
    },
  });
  expect(res.status, res.text).toBe(200);
  await app.drain();
}
async function issueOf(t: TenantFixture, message: string) {
  const list = await app.call('GET', '/log-issues', { key: t.liveKey, query: { search: message } });
  const [issue] = list.body.issues;
  return (await app.call('GET', `/log-issues/${issue.id}`, { key: t.liveKey })).body;
}
const resolve = (t: TenantFixture, id: string, body: Record<string, unknown>) =>
  app.call('PATCH', `/log-issues/${id}`, { key: t.liveKey, body: { status: 'resolved', ...body } });

describe('releases', () => {
  it('records the first and last release, and keeps release and environment on events', async () => {
    const t = await createTenant();
    await logIn(t, 'Payment provider timed out', ['1.0.0']);
    await logIn(t, 'Payment provider timed out', ['1.1.0']);
    const issue = await issueOf(t, 'Payment provider timed out');
    expect(issue).toMatchObject({ firstRelease: '1.0.0', lastRelease: '1.1.0', resolvedIn: null, regressedIn: null });
    expect(issue.latestEvents[0]).toMatchObject({ release: '1.1.0', environment: 'production' });
    const bad = await app.call('POST', '/logs', {
      key: t.liveKey,
      body: { events: [{ level: 'error', message: 'x', release: ' 1.0', environment: 'prod uction' }] },
    });
    expect(bad.status).toBe(422);
  });

  it('resolved in the next release: old releases keep it resolved, a later one reopens it and says which', async () => {
    const t = await createTenant();
    for (const release of ['2.0', '2.1']) await logIn(t, 'Cache miss storm', [release]);
    const issue = await issueOf(t, 'Cache miss storm');
    const resolved = await resolve(t, issue.id, { resolvedIn: 'next' });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedIn: 'next' });
    // Late events of the releases it was seen in (old deployments still running) are counted, not a regression.
    await logIn(t, 'Cache miss storm', ['2.0', '2.1']);
    expect(await issueOf(t, 'Cache miss storm')).toMatchObject({ status: 'resolved', count: 4, regressed: false });
    // A late event of an old deployment does not move the last release back.
    expect((await issueOf(t, 'Cache miss storm')).lastRelease).toBe('2.1');
    await logIn(t, 'Cache miss storm', ['2.2']);
    const reopened = await issueOf(t, 'Cache miss storm');
    expect(reopened).toMatchObject({ status: 'open', regressed: true, regressedIn: '2.2', resolvedIn: null });
    const events = (await emitted(app)).filter((e) => e.name === 'log_issue.regressed' && e.data.issue.id === issue.id);
    expect(events).toHaveLength(1);
  });

  it('resolved in a named release: earlier releases, even new to the project, do not reopen it; that one does', async () => {
    const t = await createTenant();
    for (const release of ['3.0', '3.1', '3.2']) await logIn(t, 'Disk quota exceeded', [release]);
    const issue = await issueOf(t, 'Disk quota exceeded');
    // 3.1 is the fix: 3.0 still runs somewhere.
    await resolve(t, issue.id, { resolvedIn: '3.1' });
    await logIn(t, 'Disk quota exceeded', ['3.0']);
    expect(await issueOf(t, 'Disk quota exceeded')).toMatchObject({ status: 'resolved' });
    await logIn(t, 'Disk quota exceeded', ['3.1']);
    expect(await issueOf(t, 'Disk quota exceeded')).toMatchObject({ status: 'open', regressedIn: '3.1' });

    // Resolved in a release not deployed yet: everything seen so far is older; the new one reopens it.
    await logIn(t, 'Socket closed early', ['4.0']);
    const other = await issueOf(t, 'Socket closed early');
    await resolve(t, other.id, { resolvedIn: '4.1' });
    await logIn(t, 'Socket closed early', ['3.2', '4.0']);
    expect(await issueOf(t, 'Socket closed early')).toMatchObject({ status: 'resolved' });
    await logIn(t, 'Socket closed early', ['4.1']);
    expect(await issueOf(t, 'Socket closed early')).toMatchObject({ status: 'open', regressedIn: '4.1' });
  });

  it('reopens on any event without resolvedIn or without a release, and refuses resolvedIn with another status', async () => {
    const t = await createTenant();
    await logIn(t, 'Queue backlog', ['5.0']);
    const issue = await issueOf(t, 'Queue backlog');
    await resolve(t, issue.id, {});
    await logIn(t, 'Queue backlog', ['5.0']);
    expect(await issueOf(t, 'Queue backlog')).toMatchObject({ status: 'open', regressedIn: '5.0' });
    await resolve(t, issue.id, { resolvedIn: 'next' });
    await logIn(t, 'Queue backlog', [undefined]);
    expect(await issueOf(t, 'Queue backlog')).toMatchObject({ status: 'open', regressed: true });
    const wrong = await app.call('PATCH', `/log-issues/${issue.id}`, {
      key: t.liveKey,
      body: { status: 'acknowledged', resolvedIn: 'next' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details.fields[0].field).toBe('resolvedIn');
    // Acknowledging after a release resolve clears it.
    await resolve(t, issue.id, { resolvedIn: 'next' });
    const ack = await app.call('PATCH', `/log-issues/${issue.id}`, {
      key: t.liveKey,
      body: { status: 'acknowledged' },
    });
    expect(ack.body).toMatchObject({ status: 'acknowledged', resolvedIn: null });
  });
});
