import {
  addBusinessMinutes,
  businessMinutesBetween,
  type Calendar,
  isTimeZone,
  zonedInstant,
} from '@helpdesk/core/areas/sla/business-time';
import { WEEKDAYS } from '@helpdesk/core/areas/sla/values';
import { describe, expect, it } from 'vitest';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const weekdays = (timeZone: string, start = '09:00', end = '17:00', holidays: Calendar['holidays'] = []): Calendar => ({
  timeZone,
  hours: WEEKDAYS.slice(0, 5).map((day) => ({ day, start, end })),
  holidays,
});
const always = (timeZone: string): Calendar => ({
  timeZone,
  hours: WEEKDAYS.map((day) => ({ day, start: '00:00', end: '24:00' })),
  holidays: [],
});

describe('business time', () => {
  it('skips the weekend across a spring-forward change in the zone (Berlin, 29 March 2026)', () => {
    // Friday 16:00 CET (UTC+1) plus two business hours: one on Friday, one on Monday from 09:00 CEST (UTC+2).
    const due = addBusinessMinutes(weekdays('Europe/Berlin'), at('2026-03-27T15:00:00Z'), 120);
    expect(iso(due)).toBe('2026-03-30T08:00:00.000Z');
  });

  it('counts a 23-hour and a 25-hour day as the wall clock does', () => {
    const berlin = always('Europe/Berlin');
    expect(businessMinutesBetween(berlin, at('2026-03-28T23:00:00Z'), at('2026-03-29T22:00:00Z'))).toBe(23 * 60);
    expect(businessMinutesBetween(berlin, at('2026-10-24T22:00:00Z'), at('2026-10-25T23:00:00Z'))).toBe(25 * 60);
    // New York's spring-forward night: 01:00 EST to 04:00 EDT is two hours.
    const night: Calendar = {
      timeZone: 'America/New_York',
      hours: [{ day: 'sunday', start: '01:00', end: '04:00' }],
      holidays: [],
    };
    expect(businessMinutesBetween(night, at('2026-03-08T00:00:00Z'), at('2026-03-09T00:00:00Z'))).toBe(120);
    expect(businessMinutesBetween(night, at('2026-11-01T00:00:00Z'), at('2026-11-02T00:00:00Z'))).toBe(240);
  });

  it('reads skipped and repeated wall times as documented', () => {
    const day = (d: number, m: number) => ({ year: 2026, month: m, day: d });
    // 02:30 does not exist on 29 March in Berlin: it is 03:30 CEST.
    expect(iso(zonedInstant(day(29, 3), 150, 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October: the first (CEST) is taken.
    expect(iso(zonedInstant(day(25, 10), 150, 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(zonedInstant(day(26, 10), 9 * 60, 'Europe/Berlin'))).toBe('2026-10-26T08:00:00.000Z');
  });

  it('skips holidays, one-off and recurring, inside a target', () => {
    const holidays = [{ date: '2026-12-25' }, { date: '2020-12-24', recurring: true }];
    const cal = weekdays('UTC', '09:00', '17:00', holidays);
    // Wednesday 16:00 + 2 h: an hour on Wednesday; Thursday (recurring) and Friday (one-off) are off; Monday 10:00.
    expect(iso(addBusinessMinutes(cal, at('2026-12-23T16:00:00Z'), 120))).toBe('2026-12-28T10:00:00.000Z');
    expect(businessMinutesBetween(cal, at('2026-12-23T00:00:00Z'), at('2026-12-29T00:00:00Z'))).toBe(2 * 480);
  });

  it('starts a ticket opened outside hours at the next opening, and uses every interval of a day', () => {
    const cal = weekdays('UTC');
    expect(iso(addBusinessMinutes(cal, at('2026-11-28T12:00:00Z'), 30))).toBe('2026-11-30T09:30:00.000Z');
    const split: Calendar = {
      timeZone: 'UTC',
      hours: [
        { day: 'monday', start: '13:00', end: '17:00' },
        { day: 'monday', start: '09:00', end: '12:00' },
      ],
      holidays: [],
    };
    expect(iso(addBusinessMinutes(split, at('2026-11-30T11:30:00Z'), 60))).toBe('2026-11-30T13:30:00.000Z');
    expect(businessMinutesBetween(split, at('2026-11-30T00:00:00Z'), at('2026-12-01T00:00:00Z'))).toBe(420);
  });

  it('gives two zones their own days for the same instant', () => {
    const from = at('2026-11-30T07:00:00Z'); // Monday: 16:00 in Tokyo, 08:00 in Berlin
    expect(iso(addBusinessMinutes(weekdays('Asia/Tokyo'), from, 120))).toBe('2026-12-01T01:00:00.000Z');
    expect(iso(addBusinessMinutes(weekdays('Europe/Berlin'), from, 120))).toBe('2026-11-30T10:00:00.000Z');
  });

  it('has no due time in a calendar without hours, and knows zones', () => {
    expect(addBusinessMinutes({ timeZone: 'UTC', hours: [], holidays: [] }, at('2026-11-30T00:00:00Z'), 1)).toBe(
      undefined,
    );
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
