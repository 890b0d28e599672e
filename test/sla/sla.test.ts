import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { addBusinessMinutes } from '@helpdesk/core/areas/sla/business-time';
import type { SlaClock } from '@helpdesk/core/areas/sla/clock';
import { Ticket, TicketDue, TicketMetricsDay } from '@helpdesk/core/areas/tickets/entities';
import { dueOf } from '@helpdesk/core/areas/tickets/sla';
import { env } from '@helpdesk/core/kernel/config';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import { fireDueSchedules, ScheduledJob } from '@helpdesk/core/kernel/ports/scheduler';
import { describe, expect, it, vi } from 'vitest';
import { mailsTo } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from '../tickets/event-spy.js';
import { createTicket, customerEmail } from '../tickets/helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) =>
  (await import('../tickets/event-spy.js')).spiedRelay(original),
);

const app = await startTestApp();
const MINUTE = 60_000;

const call = (t: TenantFixture, method: string, path: string, body?: unknown, key = t.liveKey) =>
  app.call(method, path, { key, ...(body === undefined ? {} : { body }) });
const sla = async (t: TenantFixture, id: string) => (await call(t, 'GET', `/tickets/${id}`)).body.sla;
async function policy(t: TenantFixture, body: Record<string, unknown>) {
  const res = await call(t, 'POST', '/sla-policies', { name: 'Default', ...body });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string };
}
/**
 * Fires the tickets' schedules due by `at` (the scheduler stand-in with a controllable clock; other tests'
 * schedules stay) and runs the consumers.
 */
async function timeTravel(at: number, ticketIds: string[]) {
  await app.relayed();
  await fireDueSchedules(new Date(at), (jobId) => ticketIds.some((id) => jobId.startsWith(`sla-${id}-`)));
  await app.drain();
}

describe('business calendars and SLA policies', () => {
  it('validates calendars and policies, and keeps them to their project and environment', async () => {
    const t = await createTenant();
    const bad = [
      { name: 'x', timeZone: 'Mars/Olympus', hours: [] },
      { name: 'x', timeZone: 'UTC', hours: [{ day: 'monday', start: '17:00', end: '09:00' }] },
      {
        name: 'x',
        timeZone: 'UTC',
        hours: [
          { day: 'monday', start: '09:00', end: '13:00' },
          { day: 'monday', start: '12:00', end: '17:00' },
        ],
      },
      { name: 'x', timeZone: 'UTC', hours: [], holidays: [{ date: '2026-02-30' }] },
    ];
    for (const body of bad) expect((await call(t, 'POST', '/business-calendars', body)).status).toBe(422);
    const cal = await call(t, 'POST', '/business-calendars', {
      name: 'Berlin office',
      timeZone: 'Europe/Berlin',
      hours: [{ day: 'monday', start: '09:00', end: '17:00' }],
      holidays: [{ date: '2026-12-25', recurring: true }],
    });
    expect(cal.status, cal.text).toBe(200);
    expect(cal.body.holidays).toEqual([{ date: '2026-12-25', recurring: true }]);
    expect((await call(t, 'POST', '/sla-policies', { name: 'x', targets: {} })).status).toBe(422);
    expect(
      (
        await call(t, 'POST', '/sla-policies', {
          name: 'x',
          targets: { firstReply: 5 },
          calendarId: crypto.randomUUID(),
        })
      ).status,
    ).toBe(422);
    const p = await policy(t, { targets: { firstReply: 60 }, calendarId: cal.body.id });
    const inUse = await call(t, 'DELETE', `/business-calendars/${cal.body.id}`);
    expect(inUse.status).toBe(422);
    expect(inUse.body.error).toMatchObject({ code: 'sla.calendar_in_use', details: { policyIds: [p.id] } });
    const stranger = await createTenant();
    for (const path of [`/sla-policies/${p.id}`, `/business-calendars/${cal.body.id}`]) {
      expect((await call(stranger, 'GET', path)).status).toBe(404);
      expect((await call(t, 'GET', path, undefined, t.sandboxKey)).status).toBe(404);
      expect((await call(stranger, 'DELETE', path)).status).toBe(404);
      expect((await call(t, 'GET', path)).status).toBe(200);
    }
    expect((await call(t, 'GET', '/sla-policies', undefined, t.sandboxKey)).body.policies).toEqual([]);
  });
});

describe('the SLA clock on tickets', () => {
  it('chooses the first matching policy, re-chooses it on a new priority, and meets the first reply', async () => {
    const t = await createTenant();
    const urgent = await policy(t, {
      name: 'Urgent',
      conditions: { priority: ['urgent'] },
      targets: { firstReply: 30 },
    });
    const normal = await policy(t, { targets: { firstReply: 240, resolution: 2880 } });
    const ticket = await createTicket(app, t.liveKey, { priority: 'low' });
    const created = Date.parse((await call(t, 'GET', `/tickets/${ticket.id}`)).body.createdAt);
    const clock = await sla(t, ticket.id);
    expect(clock).toMatchObject({ policyId: normal.id, time: 'calendar', targets: { nextReply: null } });
    expect(Date.parse(clock.targets.firstReply.dueAt)).toBe(created + 240 * MINUTE);
    expect(clock.targets.resolution).toMatchObject({ status: 'active', minutes: 2880 });

    await call(t, 'PATCH', `/tickets/${ticket.id}`, { priority: 'urgent' });
    const raised = await sla(t, ticket.id);
    expect(raised.policyId).toBe(urgent.id);
    expect(raised.targets.firstReply.minutes).toBe(30);
    expect(raised.targets.resolution).toBeNull();
    // The list shows it too.
    const row = (await call(t, 'GET', '/tickets')).body.tickets.find((r: { id: string }) => r.id === ticket.id);
    expect(row.sla.policyId).toBe(urgent.id);

    await call(t, 'POST', `/tickets/${ticket.id}/messages`, { body: 'On it.' });
    expect((await sla(t, ticket.id)).targets.firstReply).toMatchObject({ status: 'achieved', atRisk: false });
    const other = await createTenant();
    expect((await sla(other, ticket.id)) ?? null).toBeNull();
  });

  it('matches on tags and on customer metadata, and a tag change chooses the policy again', async () => {
    const t = await createTenant();
    for (const conditions of [
      { tags: [] },
      { customerMetadata: [] },
      { customerMetadata: { plan: [] } },
      { tags: 'vip' },
    ])
      expect(
        (await call(t, 'POST', '/sla-policies', { name: 'x', conditions, targets: { firstReply: 5 } })).status,
      ).toBe(422);
    const enterprise = await policy(t, {
      name: 'Enterprise',
      conditions: { customerMetadata: { plan: ['enterprise', 'premium'] } },
      targets: { firstReply: 15 },
    });
    const vip = await policy(t, { name: 'VIP', conditions: { tags: ['VIP', 'press'] }, targets: { firstReply: 30 } });
    const normal = await policy(t, { name: 'Normal', targets: { firstReply: 240 } });
    expect((await call(t, 'GET', `/sla-policies/${vip.id}`)).body.conditions).toEqual({ tags: ['VIP', 'press'] });

    const tagged = await createTicket(app, t.liveKey, { tags: ['billing', 'vip'] });
    expect((await sla(t, tagged.id)).policyId).toBe(vip.id);

    const plain = await createTicket(app, t.liveKey);
    expect((await sla(t, plain.id)).policyId).toBe(normal.id);
    const added = await call(t, 'POST', `/tickets/${plain.id}/tags`, { tag: 'Press' });
    expect(added.body.tags).toEqual(['Press']);
    const raised = await sla(t, plain.id);
    expect(raised.policyId).toBe(vip.id);
    expect(raised.targets.firstReply.minutes).toBe(30);
    // Adding it again (in another case) changes nothing; removing it gives the ticket back to Normal.
    await call(t, 'POST', `/tickets/${plain.id}/tags`, { tag: 'PRESS' });
    const again = await sla(t, plain.id);
    expect([again.policyId, again.targets.firstReply.dueAt]).toEqual([vip.id, raised.targets.firstReply.dueAt]);
    const removed = await call(t, 'DELETE', `/tickets/${plain.id}/tags`, undefined);
    expect(removed.status).toBe(422); // the tag to remove is a required query parameter
    expect(
      (await app.call('DELETE', `/tickets/${plain.id}/tags`, { key: t.liveKey, query: { tag: 'press' } })).body.tags,
    ).toEqual([]);
    expect((await sla(t, plain.id)).policyId).toBe(normal.id);

    // The customer's metadata, as the customers API stores it.
    const email = customerEmail('ent');
    const customer = await call(t, 'POST', '/customers', { email, metadata: { plan: 'premium', region: 'eu' } });
    expect(customer.status, customer.text).toBe(200);
    const theirs = await createTicket(app, t.liveKey, { customer: { email } });
    expect((await sla(t, theirs.id)).policyId).toBe(enterprise.id);
    // A priority change chooses again with the customer's metadata read again: still theirs.
    await call(t, 'PATCH', `/tickets/${theirs.id}`, { priority: 'high' });
    expect((await sla(t, theirs.id)).policyId).toBe(enterprise.id);
    await call(t, 'PATCH', `/customers/${customer.body.id}`, { metadata: { plan: 'free' } });
    await call(t, 'PATCH', `/tickets/${theirs.id}`, { priority: 'low' });
    expect((await sla(t, theirs.id)).policyId).toBe(normal.id);
    // A key reaching another project's tags or customers cannot move this one's clock: it is a 404 there.
    const other = await createTenant();
    expect((await call(other, 'POST', `/tickets/${plain.id}/tags`, { tag: 'vip' })).status).toBe(404);
    expect((await sla(t, plain.id)).policyId).toBe(normal.id);
  });

  it('pauses while pending, resumes on the customer message, and a note moves nothing', async () => {
    const t = await createTenant();
    await policy(t, { targets: { firstReply: 60, nextReply: 30, resolution: 600 } });
    const ticket = await createTicket(app, t.liveKey);
    await call(t, 'POST', `/tickets/${ticket.id}/messages`, { body: 'Internal', visibility: 'internal' });
    expect((await sla(t, ticket.id)).targets.firstReply.status).toBe('active');
    await call(t, 'POST', `/tickets/${ticket.id}/messages`, { body: 'Which browser?' });
    await call(t, 'PATCH', `/tickets/${ticket.id}`, { status: 'pending' });
    const paused = await sla(t, ticket.id);
    expect(paused.targets.resolution).toMatchObject({ status: 'paused', dueAt: null });
    await call(t, 'POST', `/tickets/${ticket.id}/messages`, { body: 'Firefox.', senderType: 'customer' });
    const resumed = await sla(t, ticket.id);
    expect(resumed.targets.resolution.status).toBe('active');
    expect(resumed.targets.nextReply).toMatchObject({ status: 'active', minutes: 30 });
    await call(t, 'PATCH', `/tickets/${ticket.id}`, { status: 'resolved' });
    expect((await sla(t, ticket.id)).targets.resolution.status).toBe('achieved');
    await call(t, 'PATCH', `/tickets/${ticket.id}`, { status: 'open' });
    expect((await sla(t, ticket.id)).targets.resolution).toMatchObject({ status: 'active', achievedAt: null });
  });

  it('gives two calendars in different zones their own due times, chosen by priority', async () => {
    const t = await createTenant();
    const hours = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({
      day,
      start: '09:00',
      end: '17:00',
    }));
    const zones = { high: 'Europe/Berlin', low: 'America/New_York' } as const;
    for (const [priority, timeZone] of Object.entries(zones)) {
      const cal = await call(t, 'POST', '/business-calendars', { name: timeZone, timeZone, hours });
      await policy(t, {
        name: priority,
        conditions: { priority: [priority] },
        targets: { firstReply: 240 },
        calendarId: cal.body.id,
      });
    }
    for (const [priority, timeZone] of Object.entries(zones)) {
      const ticket = await createTicket(app, t.liveKey, { priority });
      const detail = (await call(t, 'GET', `/tickets/${ticket.id}`)).body;
      const expected = addBusinessMinutes(
        { timeZone, hours: hours as never, holidays: [] },
        Date.parse(detail.createdAt),
        240,
      );
      expect(Date.parse(detail.sla.targets.firstReply.dueAt), timeZone).toBe(expected);
    }
    // The same instant, the same target: different due times in the two zones.
    const [berlin, newYork] = Object.values(zones).map((timeZone) =>
      addBusinessMinutes({ timeZone, hours: hours as never, holidays: [] }, Date.parse('2026-11-30T15:00:00Z'), 240),
    );
    expect(berlin).not.toBe(newYork);
  });

  it('uses the calendar for business time', async () => {
    const t = await createTenant();
    const hours = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({
      day,
      start: '09:00',
      end: '17:00',
    }));
    const cal = await call(t, 'POST', '/business-calendars', { name: 'Tokyo', timeZone: 'Asia/Tokyo', hours });
    await policy(t, { targets: { firstReply: 90 }, calendarId: cal.body.id });
    const ticket = await createTicket(app, t.liveKey);
    const detail = (await call(t, 'GET', `/tickets/${ticket.id}`)).body;
    const expected = addBusinessMinutes(
      { timeZone: 'Asia/Tokyo', hours: hours as never, holidays: [] },
      Date.parse(detail.createdAt),
      90,
    );
    expect(detail.sla.time).toBe('business');
    expect(Date.parse(detail.sla.targets.firstReply.dueAt)).toBe(expected);
  });

  it('fires the warning and the breach at their times, ignores stale timers, and outlives its deleted policy', async () => {
    const t = await createTenant();
    // Past SQS's 15-minute delay, so both timers are schedules (sooner ones are delayed queue messages), and
    // past the 100 days other tests move the shared scheduler stand-in's clock (their timers fire all due jobs).
    const p = await policy(t, { targets: { firstReply: 500_000 } });
    const admin = await t.member({ email: customerEmail('admin'), role: 'admin' });
    const agent = await t.member({ email: customerEmail('agent'), role: 'agent' });
    const late = await createTicket(app, t.liveKey, { assignedTo: agent.memberId });
    const answered = await createTicket(app, t.liveKey);
    const orphan = await createTicket(app, t.liveKey, { subject: 'Nobody assigned' });
    const due = Date.parse((await sla(t, late.id)).targets.firstReply.dueAt);
    // The tickets were opened one after another: the last one's timers are the last due (seconds later on a slow machine).
    const lastDue = Date.parse((await sla(t, orphan.id)).targets.firstReply.dueAt);
    await call(t, 'POST', `/tickets/${answered.id}/messages`, { body: 'Answered in time.' });
    expect((await call(t, 'DELETE', `/sla-policies/${p.id}`)).status).toBe(200);

    await timeTravel(due - 99_000 * MINUTE, [late.id, answered.id, orphan.id]); // past the warning point (the last 100,000 minutes)
    const events = async (name: string, id: string) =>
      (await emitted(app)).filter((e) => e.name === name && e.data.ticket.id === id);
    expect(await events('ticket.sla_warning', late.id)).toHaveLength(1);
    expect(await events('ticket.sla_breached', late.id)).toHaveLength(0);
    expect((await sla(t, late.id)).targets.firstReply.breachedAt).toBeNull();

    await timeTravel(lastDue + 1_000, [late.id, answered.id, orphan.id]);
    const breached = await events('ticket.sla_breached', late.id);
    expect(breached).toHaveLength(1);
    expect(breached[0]!.data.sla).toMatchObject({ target: 'firstReply', policyId: p.id });
    expect(Date.parse(breached[0]!.data.sla.dueAt)).toBe(due);
    // The clock itself says so (the stored breach, not only the view of a passed due time).
    const clock = await sla(t, late.id);
    expect(clock.targets.firstReply).toMatchObject({ status: 'breached' });
    expect(Date.parse(clock.targets.firstReply.breachedAt)).toBe(due);
    // The assignee heard of both, once each; the admins hear of the unassigned ticket's only. The notices
    // are mailed by the consumer of the events the timers committed: wait for the last of the four.
    for (let i = 0; i < 50 && (await mailsTo(admin.email)).length + (await mailsTo(agent.email)).length < 4; i++) {
      await app.drain();
      await new Promise((r) => setTimeout(r, 200));
    }
    const subjects = (await mailsTo(agent.email)).map((m) => m.subject);
    expect(subjects.filter((x) => x === `SLA at risk: #${late.number} ${late.subject}`)).toHaveLength(1);
    expect(subjects.filter((x) => x === `SLA breached: #${late.number} ${late.subject}`)).toHaveLength(1);
    expect((await mailsTo(admin.email)).map((m) => m.subject).sort()).toEqual([
      `SLA at risk: #${orphan.number} Nobody assigned`,
      `SLA breached: #${orphan.number} Nobody assigned`,
    ]);
    // The answered ticket's timers fired too, and did nothing.
    expect(await events('ticket.sla_breached', answered.id)).toHaveLength(0);
    expect(await events('ticket.sla_warning', answered.id)).toHaveLength(0);
    // A late answer is recorded, the breach stays.
    await call(t, 'POST', `/tickets/${late.id}/messages`, { body: 'Sorry for the wait.' });
    expect((await sla(t, late.id)).targets.firstReply).toMatchObject({ status: 'breached' });
    expect((await sla(t, late.id)).targets.firstReply.achievedAt).not.toBeNull();
  }, 90_000);

  it('deletes the schedules a change made stale', async () => {
    const t = await createTenant();
    await policy(t, { targets: { firstReply: 500_000, resolution: 520_000 } });
    const ticket = await createTicket(app, t.liveKey);
    const clock = await sla(t, ticket.id);
    await app.relayed();
    const jobs = (target: string, dueAt: string) =>
      ['breach', 'warning'].map((kind) => `sla-${ticket.id}-${target}-${kind}-${dueAt}`);
    const first = jobs('firstReply', clock.targets.firstReply.dueAt);
    const resolution = jobs('resolution', clock.targets.resolution.dueAt);
    const exists = async (jobId: string) => (await ScheduledJob.get({ jobId }).go()).data !== null;
    for (const jobId of [...first, ...resolution]) expect(await exists(jobId), jobId).toBe(true);
    // The answer meets the first reply: its two schedules go; the resolution's stay.
    await call(t, 'POST', `/tickets/${ticket.id}/messages`, { body: 'On it.' });
    await app.relayed();
    await app.drain();
    for (const jobId of first) expect(await exists(jobId), jobId).toBe(false);
    for (const jobId of resolution) expect(await exists(jobId), jobId).toBe(true);
  });

  it('lists breached, at-risk and active tickets from the due index, soonest due first', async () => {
    const t = await createTenant();
    await policy(t, { targets: { firstReply: 60 } });
    const [late, close, fresh, answered] = [
      await createTicket(app, t.liveKey, { subject: 'late' }),
      await createTicket(app, t.liveKey, { subject: 'close', priority: 'high' }),
      await createTicket(app, t.liveKey, { subject: 'fresh' }),
      await createTicket(app, t.liveKey, { subject: 'answered' }),
    ];
    await call(t, 'POST', `/tickets/${answered.id}/messages`, { body: 'Done.' });
    // Opened 2 hours and 50 minutes ago, as a controllable clock would have it: the clock and its index item move back.
    const age = async (id: string, minutes: number) => {
      const key = { projectId: t.projects.main!.id, env: 'live' as const, ticketId: id };
      const { data } = await Ticket.get(key).go();
      const clock = data!.sla as SlaClock;
      const back = (iso?: string) => (iso ? new Date(Date.parse(iso) - minutes * MINUTE).toISOString() : undefined);
      const aged: SlaClock = {
        ...clock,
        targets: Object.fromEntries(
          Object.entries(clock.targets).map(([name, x]) => [
            name,
            { ...x, startedAt: back(x.startedAt)!, runningSince: back(x.runningSince), dueAt: back(x.dueAt) },
          ]),
        ),
      };
      await TicketDue.delete({ ...key, dueAt: dueOf(clock)!.dueAt }).go();
      await TicketDue.put({ ...key, ...dueOf(aged)! }).go();
      await Ticket.patch(key).set({ sla: aged }).go();
    };
    await age(late.id, 120);
    await age(close.id, 50);
    const list = async (query: Record<string, string>, key = t.liveKey) => {
      const res = await app.call('GET', '/tickets', { key, query });
      expect(res.status, res.text).toBe(200);
      return res.body as {
        tickets: { id: string; sla: { targets: { firstReply: { status: string; atRisk: boolean } } } }[];
        total: number;
      };
    };
    const ids = (r: Awaited<ReturnType<typeof list>>) => r.tickets.map((x) => x.id);
    const breached = await list({ sla: 'breached' });
    expect(ids(breached)).toEqual([late.id]);
    expect(breached.tickets[0]!.sla.targets.firstReply.status).toBe('breached');
    const risky = await list({ sla: 'at_risk' });
    expect(ids(risky)).toEqual([close.id]);
    expect(risky.tickets[0]!.sla.targets.firstReply.atRisk).toBe(true);
    expect(ids(await list({ sort: 'sla_due' }))).toEqual([late.id, close.id, fresh.id]);
    expect((await list({ sla: 'active' })).total).toBe(3);
    expect(ids(await list({ sla: 'active', priority: 'high' }))).toEqual([close.id]);
    expect(ids(await list({ sort: 'sla_due', limit: '1', page: '2' }))).toEqual([close.id]);
    expect((await app.call('GET', '/tickets', { key: t.liveKey, query: { sla: 'late' } })).status).toBe(422);
    // Other tenants and the other environment see none of them.
    expect((await list({ sla: 'active' }, t.sandboxKey)).total).toBe(0);
    expect((await list({ sla: 'active' }, (await createTenant()).liveKey)).total).toBe(0);
    // The answer of the late one takes it off the index; deleting one takes it off too.
    await call(t, 'POST', `/tickets/${late.id}/messages`, { body: 'Sorry.' });
    await call(t, 'DELETE', `/tickets/${fresh.id}`);
    expect(ids(await list({ sort: 'sla_due' }))).toEqual([close.id]);
  });

  it('keeps per-ticket metrics and reports them per day, priority and assignee from counters', async () => {
    const t = await createTenant();
    const agent = await t.member({ email: customerEmail('agent'), role: 'agent' });
    await policy(t, { targets: { firstReply: 600, resolution: 6000 } });
    const a = await createTicket(app, t.liveKey, { priority: 'high', assignedTo: agent.memberId });
    const b = await createTicket(app, t.liveKey);
    for (const id of [a.id, b.id]) await call(t, 'POST', `/tickets/${id}/messages`, { body: 'Looking.' });
    await call(t, 'POST', `/tickets/${a.id}/messages`, { body: 'Note', visibility: 'internal' });
    await call(t, 'PATCH', `/tickets/${a.id}`, { status: 'resolved' });
    await call(t, 'PATCH', `/tickets/${a.id}`, { status: 'open' });
    await call(t, 'PATCH', `/tickets/${a.id}`, { status: 'closed' });
    const detail = (await call(t, 'GET', `/tickets/${a.id}`)).body;
    expect(detail.metrics).toMatchObject({ replies: 1, reopens: 1 });
    expect(detail.metrics.firstReply.calendarMinutes).toBeGreaterThanOrEqual(0);
    expect(detail.metrics.firstReply.businessMinutes).toBeNull();
    expect(detail.metrics.resolution.calendarMinutes).toBeGreaterThanOrEqual(detail.metrics.firstReply.calendarMinutes);

    const today = new Date().toISOString().slice(0, 10);
    const report = async (query: Record<string, string>, key = t.liveKey) =>
      app.call('GET', '/tickets/metrics', { key, query: { from: today, to: today, ...query } });
    const byDay = (await report({})).body;
    expect(byDay.groups).toEqual([
      expect.objectContaining({
        key: today,
        firstReply: expect.objectContaining({ count: 2 }),
        // The first resolution was taken back by the reopen: one resolution counts.
        resolution: expect.objectContaining({ count: 1 }),
        sla: { met: 3, missed: 0, achievementRate: 1 },
        breaches: 0,
      }),
    ]);
    const byPriority = (await report({ groupBy: 'priority' })).body.groups;
    expect(byPriority.map((g: { key: string; firstReply: { count: number } }) => [g.key, g.firstReply.count])).toEqual([
      ['high', 1],
      ['medium', 1],
    ]);
    const byAssignee = (await report({ groupBy: 'assignee' })).body.groups;
    expect(byAssignee.map((g: { key: string }) => g.key).sort()).toEqual([agent.memberId, 'unassigned'].sort());
    // The default range is the last 30 days; bad ranges are 422; other tenants see nothing of it.
    expect((await app.call('GET', '/tickets/metrics', { key: t.liveKey })).body.groups).toHaveLength(1);
    expect((await report({ from: '2026-12-31', to: '2026-01-01' })).status).toBe(422);
    expect((await report({ from: '2024-01-01', to: '2026-01-01' })).status).toBe(422);
    expect((await report({ groupBy: 'week' })).status).toBe(422);
    expect((await report({}, t.sandboxKey)).body.groups).toEqual([]);
    expect((await report({}, (await createTenant()).liveKey)).body.groups).toEqual([]);
  });

  it("keeps a day's counters in one small item per group, and still reads days written in one item", async () => {
    const t = await createTenant();
    const agents = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.member({ email: customerEmail(`agent${i}`), role: 'agent' })),
    );
    for (const agent of agents) {
      const ticket = await createTicket(app, t.liveKey, { assignedTo: agent.memberId });
      await call(t, 'POST', `/tickets/${ticket.id}/messages`, { body: 'Looking.' });
    }
    const today = new Date().toISOString().slice(0, 10);
    const key = TicketMetricsDay.get({ projectId: t.projects.main!.id, env: 'live', day: today }).params().Key as {
      pk: string;
      sk: string;
    };
    const { Items = [] } = await documentClient.send(
      new QueryCommand({
        TableName: env.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :day)',
        ExpressionAttributeValues: { ':pk': key.pk, ':day': key.sk },
      }),
    );
    // One item per group: all, the one priority used, each assignee; none grows with the team.
    expect(Items.map((i) => (i.sk as string).slice(key.sk.length)).sort()).toEqual(
      ['#all', '#p:medium', ...agents.map((a) => `#a:${a.memberId}`)].sort(),
    );
    for (const item of Items) expect(JSON.stringify(item).length).toBeLessThan(1024);
    // A day written before the split (every group in the day's own item) is summed with the rest.
    await documentClient.send(
      new PutCommand({
        TableName: env.tableName,
        Item: { ...key, day: today, 'fr#all#3': 2, 'fr#p:low#3': 2, [`fr#a:${agents[0]!.memberId}#3`]: 2 },
      }),
    );
    const report = async (groupBy: string) =>
      (await app.call('GET', '/tickets/metrics', { key: t.liveKey, query: { from: today, to: today, groupBy } })).body
        .groups as { key: string; firstReply: { count: number } }[];
    expect((await report('day')).map((g) => g.firstReply.count)).toEqual([14]);
    expect((await report('priority')).map((g) => [g.key, g.firstReply.count])).toEqual([
      ['low', 2],
      ['medium', 12],
    ]);
    const byAssignee = await report('assignee');
    expect(byAssignee).toHaveLength(12);
    expect(byAssignee.find((g) => g.key === agents[0]!.memberId)?.firstReply.count).toBe(3);
  });

  it('applies a policy to open tickets on request, in the background, without moving their activity', async () => {
    const t = await createTenant();
    const [a, b, done] = [
      await createTicket(app, t.liveKey),
      await createTicket(app, t.liveKey, { priority: 'urgent' }),
      await createTicket(app, t.liveKey),
    ];
    await call(t, 'PATCH', `/tickets/${done.id}`, { status: 'resolved' });
    const activity = (await call(t, 'GET', `/tickets/${a.id}`)).body.updatedAt;
    const p = await policy(t, { targets: { firstReply: 120 }, position: 5, applyToOpen: true });
    await app.drain();
    expect((await sla(t, a.id))?.targets.firstReply).toMatchObject({ minutes: 120, status: 'active' });
    expect((await sla(t, b.id))?.policyId).toBe(p.id);
    expect(await sla(t, done.id)).toBeNull();
    expect((await call(t, 'GET', `/tickets/${a.id}`)).body.updatedAt).toBe(activity);
    // A narrower policy on PATCH: the urgent ticket moves to it, keeping the minutes it used.
    const urgent = await policy(t, {
      name: 'Urgent',
      position: 0,
      conditions: { priority: ['urgent'] },
      targets: { firstReply: 30 },
    });
    expect((await sla(t, b.id))?.policyId).toBe(p.id);
    const patched = await call(t, 'PATCH', `/sla-policies/${urgent.id}`, { applyToOpen: true });
    expect(patched.status, patched.text).toBe(200);
    await app.drain();
    expect((await sla(t, b.id))?.targets.firstReply.minutes).toBe(30);
    expect((await sla(t, a.id))?.targets.firstReply.minutes).toBe(120);
    expect((await call(t, 'PATCH', `/sla-policies/${crypto.randomUUID()}`, { applyToOpen: true })).status).toBe(404);
  });

  it("hands a merged ticket's waiting customer to the target's clock", async () => {
    const t = await createTenant();
    await policy(t, { targets: { firstReply: 60, nextReply: 30 } });
    const target = await createTicket(app, t.liveKey);
    await call(t, 'POST', `/tickets/${target.id}/messages`, { body: 'Answered.' });
    expect((await sla(t, target.id)).targets.nextReply).toBeNull();
    const source = await createTicket(app, t.liveKey);
    expect((await call(t, 'POST', `/tickets/${source.id}/merge`, { into: target.id })).status).toBe(200);
    expect((await sla(t, target.id)).targets.nextReply).toMatchObject({ status: 'active', minutes: 30 });
    // The source's clock stopped as it closed.
    expect((await sla(t, source.id)).targets.firstReply.status).toBe('paused');
    // Unmerged, the wait goes back with its customer: the target's own customer was answered.
    expect((await call(t, 'POST', `/tickets/${source.id}/unmerge`)).status).toBe(200);
    expect((await sla(t, target.id)).targets.nextReply).toBeNull();
    expect((await sla(t, source.id)).targets.firstReply.status).toBe('active');
    const active = await call(t, 'GET', '/tickets?sla=active');
    expect(active.body.tickets.map((x: { id: string }) => x.id)).toEqual([source.id]);
  });

  it('keeps a handed wait that an answer met before the unmerge, and the wait the target had itself', async () => {
    const t = await createTenant();
    await policy(t, { targets: { firstReply: 60, nextReply: 30 } });
    const target = await createTicket(app, t.liveKey);
    await call(t, 'POST', `/tickets/${target.id}/messages`, { body: 'Answered.' });
    const source = await createTicket(app, t.liveKey);
    await call(t, 'POST', `/tickets/${source.id}/merge`, { into: target.id });
    await call(t, 'POST', `/tickets/${target.id}/messages`, { body: 'Answered both.' });
    expect((await sla(t, target.id)).targets.nextReply.status).toBe('achieved');
    await call(t, 'POST', `/tickets/${source.id}/unmerge`);
    expect((await sla(t, target.id)).targets.nextReply.status).toBe('achieved');
    // A target whose own customer already waited keeps that wait through a merge and an unmerge.
    const busy = await createTicket(app, t.liveKey);
    await call(t, 'POST', `/tickets/${busy.id}/messages`, { body: 'Answered.' });
    await call(t, 'POST', `/tickets/${busy.id}/messages`, { body: 'One more thing', senderType: 'customer' });
    const own = (await sla(t, busy.id)).targets.nextReply;
    expect(own).toMatchObject({ status: 'active' });
    const other = await createTicket(app, t.liveKey);
    await call(t, 'POST', `/tickets/${other.id}/merge`, { into: busy.id });
    await call(t, 'POST', `/tickets/${other.id}/unmerge`);
    expect((await sla(t, busy.id)).targets.nextReply).toMatchObject({ status: 'active', dueAt: own.dueAt });
  });
});
