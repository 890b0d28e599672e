import { advance, advanceAll, type ClockRules, targetView, warningAt } from '@helpdesk/core/areas/sla/clock';
import { WEEKDAYS } from '@helpdesk/core/areas/sla/values';
import { describe, expect, it } from 'vitest';

const at = (iso: string) => Date.parse(iso);
const rules = (over: Partial<ClockRules> = {}): ClockRules => ({
  policyId: 'p',
  targets: { firstReply: 60, nextReply: 30, resolution: 480 },
  pauseOnPending: true,
  stopOnResolved: true,
  atRisk: 0.2,
  ...over,
});
const businessRules = rules({
  calendar: {
    id: 'c',
    timeZone: 'Europe/Berlin',
    hours: WEEKDAYS.slice(0, 5).map((day) => ({ day, start: '09:00', end: '17:00' })),
    holidays: [],
  },
});

describe('the SLA clock', () => {
  it('starts first reply and resolution at creation; a staff reply achieves the first reply in time', () => {
    const r = rules();
    const c0 = advance(undefined, r, { kind: 'created' }, 'new', at('2026-11-30T10:00:00Z'))!;
    expect(c0.targets.firstReply).toMatchObject({ status: 'active', dueAt: '2026-11-30T11:00:00.000Z' });
    expect(c0.targets.resolution?.dueAt).toBe('2026-11-30T18:00:00.000Z');
    expect(c0.targets.nextReply).toBeUndefined();
    const c1 = advance(c0, r, { kind: 'staffReply' }, 'open', at('2026-11-30T10:30:00Z'))!;
    expect(c1.targets.firstReply).toMatchObject({
      status: 'achieved',
      achievedAt: '2026-11-30T10:30:00.000Z',
      used: 30,
    });
    // The customer writes back: a next-reply clock starts; a late answer is a breach at its due time.
    const c2 = advance(c1, r, { kind: 'customerMessage' }, 'open', at('2026-11-30T11:00:00Z'))!;
    expect(c2.targets.nextReply).toMatchObject({ status: 'active', dueAt: '2026-11-30T11:30:00.000Z' });
    const c3 = advance(c2, r, { kind: 'staffReply' }, 'open', at('2026-11-30T12:00:00Z'))!;
    expect(c3.targets.nextReply).toMatchObject({
      status: 'breached',
      breachedAt: '2026-11-30T11:30:00.000Z',
      achievedAt: '2026-11-30T12:00:00.000Z',
    });
  });

  it('pauses while pending and resumes with the time left, across a weekend in business time', () => {
    const r = businessRules;
    // Friday 27 Nov 2026, 15:00 Berlin (14:00Z): resolution 480 business minutes.
    const c0 = advance(undefined, r, { kind: 'created' }, 'new', at('2026-11-27T14:00:00Z'))!;
    const c1 = advance(c0, r, { kind: 'status', from: 'new', to: 'pending' }, 'pending', at('2026-11-27T15:00:00Z'))!;
    expect(c1.targets.resolution).toMatchObject({ status: 'paused', used: 60 });
    expect(c1.targets.resolution?.dueAt).toBeUndefined();
    // The customer answers on Sunday: the clock resumes, but business time starts Monday 09:00.
    const c2 = advanceAll(
      c1,
      r,
      [{ kind: 'status', from: 'pending', to: 'open' }, { kind: 'customerMessage' }],
      'open',
      at('2026-11-29T12:00:00Z'),
    )!;
    expect(c2.targets.resolution).toMatchObject({ status: 'active', dueAt: '2026-11-30T15:00:00.000Z' });
    expect(targetView(r, c2.targets.resolution!, at('2026-11-30T09:00:00Z')).usedMinutes).toBe(60 + 60);
  });

  it('re-chooses targets when the priority changes mid-flight, keeping the minutes used', () => {
    const slow = rules({ policyId: 'slow', targets: { firstReply: 240 } });
    const fast = rules({ policyId: 'fast', targets: { firstReply: 30 } });
    const c0 = advance(undefined, slow, { kind: 'created' }, 'new', at('2026-11-30T10:00:00Z'))!;
    const raised = advance(c0, fast, { kind: 'rules' }, 'new', at('2026-11-30T10:45:00Z'))!;
    expect(raised.rules.policyId).toBe('fast');
    // 45 minutes used against 30: breached, at the moment the change made it so.
    expect(raised.targets.firstReply).toMatchObject({ status: 'breached', breachedAt: '2026-11-30T10:45:00.000Z' });
    const lowered = advance(raised, slow, { kind: 'rules' }, 'new', at('2026-11-30T10:50:00Z'))!;
    expect(lowered.targets.firstReply).toMatchObject({ status: 'active', dueAt: '2026-11-30T14:00:00.000Z' });
    expect(lowered.targets.firstReply?.breachedAt).toBeUndefined();
  });

  it('stops resolution at resolved and resumes it on reopen (full resolution time)', () => {
    const r = rules();
    const c0 = advance(undefined, r, { kind: 'created' }, 'new', at('2026-11-30T10:00:00Z'))!;
    const c1 = advance(c0, r, { kind: 'status', from: 'new', to: 'resolved' }, 'resolved', at('2026-11-30T11:00:00Z'))!;
    expect(c1.targets.resolution).toMatchObject({ status: 'achieved', used: 60 });
    expect(c1.targets.firstReply).toMatchObject({ status: 'paused' });
    const c2 = advance(c1, r, { kind: 'status', from: 'resolved', to: 'open' }, 'open', at('2026-11-30T12:00:00Z'))!;
    expect(c2.targets.resolution).toMatchObject({ status: 'active', dueAt: '2026-11-30T19:00:00.000Z' });
    expect(c2.targets.resolution?.achievedAt).toBeUndefined();
  });

  it('warns at the last fifth, shows a passed due time as breached, and drops the clock when no policy applies', () => {
    const r = rules();
    const c0 = advance(undefined, r, { kind: 'created' }, 'new', at('2026-11-30T10:00:00Z'))!;
    expect(new Date(warningAt(r, c0.targets.firstReply!)!).toISOString()).toBe('2026-11-30T10:48:00.000Z');
    expect(targetView(r, c0.targets.firstReply!, at('2026-11-30T10:50:00Z'))).toMatchObject({
      status: 'active',
      atRisk: true,
    });
    expect(targetView(r, c0.targets.firstReply!, at('2026-11-30T11:01:00Z'))).toMatchObject({
      status: 'breached',
      breachedAt: '2026-11-30T11:00:00.000Z',
    });
    expect(advance(c0, undefined, { kind: 'rules' }, 'new', at('2026-11-30T10:10:00Z'))).toBeUndefined();
  });
});
