import { fireDueSchedules } from '@helpdesk/core/kernel/ports/scheduler';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { emitted } from '../tickets/event-spy.js';
import { createTicket } from '../tickets/helpers.js';

vi.mock('@helpdesk/core/kernel/ports/relay', async (original) =>
  (await import('../tickets/event-spy.js')).spiedRelay(original),
);

/**
 * The SLA clock over HTTP with a controllable clock: the local stack runs its handlers in this process, so
 * faking `Date` (only Date: timers, sockets and the stand-ins' polling run on real time) moves the
 * server's clock. The instants are in 2031, far past the 100 days other test files move the shared
 * scheduler stand-in, so no other file fires these tickets' timers. Every expected instant is written out
 * by hand from the zone's rules, not computed by the code under test.
 */
const app = await startTestApp();
afterEach(() => vi.useRealTimers());
afterAll(() => vi.useRealTimers());

/** Sets the server's wall clock; it runs on from there in real time. */
const setClock = (iso: string) => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(iso));
};

const call = (t: TenantFixture, method: string, path: string, body?: unknown) =>
  app.call(method, path, { key: t.liveKey, ...(body === undefined ? {} : { body }) });
const sla = async (t: TenantFixture, id: string) => (await call(t, 'GET', `/tickets/${id}`)).body.sla;
/** A due time within ten seconds of the expected minute: the clock runs on in real time after it is set. */
const expectNear = (iso: string, minute: string) =>
  expect(Math.abs(Date.parse(iso) - Date.parse(`${minute}:00Z`)), `${iso} ≈ ${minute}`).toBeLessThan(10_000);

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
async function calendarPolicy(
  t: TenantFixture,
  timeZone: string,
  targets: Record<string, number>,
  extra: Record<string, unknown> = {},
) {
  const hours = WEEKDAYS.map((day) => ({ day, start: '09:00', end: '17:00' }));
  const cal = await call(t, 'POST', '/business-calendars', { name: timeZone, timeZone, hours, ...extra });
  expect(cal.status, cal.text).toBe(200);
  const p = await call(t, 'POST', '/sla-policies', { name: 'Business', targets, calendarId: cal.body.id });
  expect(p.status, p.text).toBe(200);
  return p.body as { id: string };
}

describe('the SLA clock against a controllable clock, over HTTP', () => {
  it('skips a weekend across the spring-forward change in the calendar zone', async () => {
    const t = await createTenant();
    await calendarPolicy(t, 'Europe/Berlin', { firstReply: 120 });
    // Friday 28 March 2031, 16:00 CET (UTC+1); Berlin moves to CEST (UTC+2) on Sunday 30 March.
    setClock('2031-03-28T15:00:00Z');
    const ticket = await createTicket(app, t.liveKey);
    // One business hour on Friday, one on Monday from 09:00 CEST = 07:00 UTC.
    expectNear((await sla(t, ticket.id)).targets.firstReply.dueAt, '2031-03-31T08:00');
  });

  it('skips a weekend across the fall-back change in the calendar zone', async () => {
    const t = await createTenant();
    await calendarPolicy(t, 'America/New_York', { firstReply: 120 });
    // Friday 31 October 2031, 16:00 EDT (UTC-4); New York moves to EST (UTC-5) on Sunday 2 November.
    setClock('2031-10-31T20:00:00Z');
    const ticket = await createTicket(app, t.liveKey);
    // One business hour on Friday, one on Monday from 09:00 EST = 14:00 UTC.
    expectNear((await sla(t, ticket.id)).targets.firstReply.dueAt, '2031-11-03T15:00');
  });

  it('counts no time on a holiday inside a target, dated or recurring', async () => {
    const t = await createTenant();
    await calendarPolicy(
      t,
      'Europe/London',
      { firstReply: 240 },
      // Monday 5 May 2031 (dated) and Tuesday 6 May every year (recurring).
      { holidays: [{ date: '2031-05-05' }, { date: '2030-05-06', recurring: true }] },
    );
    // Friday 2 May 2031, 15:00 BST (UTC+1): two hours on Friday, then Wednesday 09:00–11:00 BST.
    setClock('2031-05-02T14:00:00Z');
    const ticket = await createTicket(app, t.liveKey);
    expectNear((await sla(t, ticket.id)).targets.firstReply.dueAt, '2031-05-07T10:00');
  });

  it('starts a ticket opened outside hours at the next opening', async () => {
    const t = await createTenant();
    await calendarPolicy(t, 'Asia/Tokyo', { firstReply: 30 });
    // Saturday 14 June 2031, 12:00 JST (UTC+9): nothing counts until Monday 09:00 JST = 00:00 UTC.
    setClock('2031-06-14T03:00:00Z');
    const ticket = await createTicket(app, t.liveKey);
    const clock = await sla(t, ticket.id);
    expectNear(clock.targets.firstReply.dueAt, '2031-06-16T00:30');
    expect(clock.targets.firstReply.usedMinutes).toBe(0);
    // Tuesday 22:00 JST, after hours: the evening counts nothing either.
    setClock('2031-06-17T13:00:00Z');
    const late = await createTicket(app, t.liveKey);
    expectNear((await sla(t, late.id)).targets.firstReply.dueAt, '2031-06-18T00:30');
  });

  it('pauses while pending over a weekend and resumes on the customer message with the minutes left', async () => {
    const t = await createTenant();
    await calendarPolicy(t, 'Europe/Paris', { firstReply: 60, resolution: 600 });
    // Friday 5 September 2031, 10:00 CEST (UTC+2).
    setClock('2031-09-05T08:00:00Z');
    const ticket = await createTicket(app, t.liveKey);
    setClock('2031-09-05T08:30:00Z');
    await call(t, 'POST', `/tickets/${ticket.id}/messages`, { body: 'Which browser do you use?' });
    // Friday 12:00: waiting on the customer.
    setClock('2031-09-05T10:00:00Z');
    await call(t, 'PATCH', `/tickets/${ticket.id}`, { status: 'pending' });
    const paused = (await sla(t, ticket.id)).targets;
    expect(paused.firstReply.status).toBe('achieved');
    expect(paused.resolution).toMatchObject({ status: 'paused', dueAt: null });
    expect(Math.round(paused.resolution.usedMinutes)).toBe(120);
    // Monday 8 September 11:00 CEST: the answer reopens it. 480 minutes are left: 11:00–17:00 on Monday,
    // then 09:00–11:00 on Tuesday.
    setClock('2031-09-08T09:00:00Z');
    const answer = await call(t, 'POST', `/tickets/${ticket.id}/messages`, {
      body: 'Firefox.',
      senderType: 'customer',
    });
    expect(answer.status, answer.text).toBe(200);
    const resumed = (await sla(t, ticket.id)).targets.resolution;
    expect(resumed.status).toBe('active');
    expectNear(resumed.dueAt, '2031-09-09T09:00');
  });

  it('moves the due time when the priority is raised and lowered mid-flight, counting the time used', async () => {
    const t = await createTenant();
    const urgent = await call(t, 'POST', '/sla-policies', {
      name: 'Urgent',
      conditions: { priority: ['urgent'] },
      targets: { firstReply: 30 },
    });
    const normal = await call(t, 'POST', '/sla-policies', { name: 'Normal', targets: { firstReply: 240 } });
    setClock('2031-07-01T10:00:00Z');
    const ticket = await createTicket(app, t.liveKey, { priority: 'medium' });
    expectNear((await sla(t, ticket.id)).targets.firstReply.dueAt, '2031-07-01T14:00');
    // Ten minutes in, it is urgent: 20 minutes are left of 30.
    setClock('2031-07-01T10:10:00Z');
    await call(t, 'PATCH', `/tickets/${ticket.id}`, { priority: 'urgent' });
    const raised = await sla(t, ticket.id);
    expect(raised.policyId).toBe(urgent.body.id);
    expectNear(raised.targets.firstReply.dueAt, '2031-07-01T10:30');
    // Forty minutes in (past the urgent target): lowered again, the four hours from creation apply, and
    // the urgent breach is not carried over.
    setClock('2031-07-01T10:40:00Z');
    await call(t, 'PATCH', `/tickets/${ticket.id}`, { priority: 'low' });
    const lowered = await sla(t, ticket.id);
    expect(lowered.policyId).toBe(normal.body.id);
    expect(lowered.targets.firstReply).toMatchObject({ status: 'active', breachedAt: null });
    expectNear(lowered.targets.firstReply.dueAt, '2031-07-01T14:00');
  });

  it('keeps a breach where it happened when a change chooses the same policy again', async () => {
    const t = await createTenant();
    await call(t, 'POST', '/sla-policies', { name: 'Everyone', targets: { firstReply: 30 } });
    setClock('2031-07-02T10:00:00Z');
    const ticket = await createTicket(app, t.liveKey);
    setClock('2031-07-02T11:00:00Z');
    await call(t, 'PATCH', `/tickets/${ticket.id}`, { priority: 'high' });
    const clock = await sla(t, ticket.id);
    expect(clock.targets.firstReply.status).toBe('breached');
    expectNear(clock.targets.firstReply.breachedAt, '2031-07-02T10:30');
  });

  it('resumes the resolution clock where it stopped when a resolved ticket reopens', async () => {
    const t = await createTenant();
    await call(t, 'POST', '/sla-policies', { name: 'Default', targets: { resolution: 600 } });
    setClock('2031-08-04T08:00:00Z');
    const ticket = await createTicket(app, t.liveKey);
    // Resolved after two hours: achieved.
    setClock('2031-08-04T10:00:00Z');
    await call(t, 'PATCH', `/tickets/${ticket.id}`, { status: 'resolved' });
    expect((await sla(t, ticket.id)).targets.resolution).toMatchObject({ status: 'achieved' });
    // The customer writes again the next day: 480 minutes are left from then.
    setClock('2031-08-05T08:00:00Z');
    await call(t, 'POST', `/tickets/${ticket.id}/messages`, { body: 'It broke again.', senderType: 'customer' });
    const detail = (await call(t, 'GET', `/tickets/${ticket.id}`)).body;
    expect(detail.status).toBe('open');
    expect(detail.sla.targets.resolution).toMatchObject({ status: 'active', achievedAt: null });
    expectNear(detail.sla.targets.resolution.dueAt, '2031-08-05T16:00');
    expect(detail.metrics.reopens).toBe(1);
  });

  it('breaches at the due minute on a business calendar, and a changed ticket silences its timer', async () => {
    const t = await createTenant();
    await calendarPolicy(t, 'Europe/Berlin', { firstReply: 120 });
    setClock('2031-03-28T15:00:00Z');
    const late = await createTicket(app, t.liveKey);
    const answered = await createTicket(app, t.liveKey);
    await app.relayed();
    // Answered on Monday before it was due.
    setClock('2031-03-31T07:30:00Z');
    const reply = await call(t, 'POST', `/tickets/${answered.id}/messages`, { body: 'Here is the answer.' });
    expect(reply.status, reply.text).toBe(200);
    expect((await sla(t, answered.id)).targets.firstReply.status).toBe('achieved');
    await app.relayed();
    const ids = [late.id, answered.id];
    await fireDueSchedules(new Date('2031-03-31T08:00:30Z'), (jobId) =>
      ids.some((id) => jobId.startsWith(`sla-${id}-`)),
    );
    await app.drain();
    // This file's other tickets breach too (their timers fire once the clock passes them): only these two count here.
    const breaches = (await emitted(app)).filter(
      (e) => e.name === 'ticket.sla_breached' && ids.includes(e.data.ticket.id),
    );
    expect(breaches.map((e) => e.data.ticket.id)).toEqual([late.id]);
    expect(breaches[0]!.data.sla.dueAt).toMatch(/^2031-03-31T08:00/);
    expect((await sla(t, late.id)).targets.firstReply.status).toBe('breached');
    expect((await sla(t, answered.id)).targets.firstReply.status).toBe('achieved');
  });
});
