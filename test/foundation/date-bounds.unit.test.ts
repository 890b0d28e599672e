import { firstMs, LATEST, lastMs } from '@helpdesk/core/kernel/api/date-bounds';
import { describe, expect, it } from 'vitest';

const ms = (iso: string) => Date.parse(iso);

describe('dateFrom and dateTo as bounds on stored milliseconds', () => {
  it('takes a date as its whole UTC day', () => {
    expect(firstMs('2026-11-27')).toBe(ms('2026-11-27T00:00:00.000Z'));
    expect(lastMs('2026-11-27')).toBe(ms('2026-11-27T23:59:59.999Z'));
  });

  it('takes a date-time as its instant, in any offset', () => {
    expect(firstMs('2026-11-27T10:00:00+02:00')).toBe(ms('2026-11-27T08:00:00.000Z'));
    expect(lastMs('2026-11-27T10:00:00.250Z')).toBe(ms('2026-11-27T10:00:00.250Z'));
  });

  it('rounds an instant inside a millisecond inward', () => {
    expect(firstMs('2026-11-27T19:58:22.3831Z')).toBe(ms('2026-11-27T19:58:22.384Z'));
    expect(lastMs('2026-11-27T19:58:22.3839Z')).toBe(ms('2026-11-27T19:58:22.383Z'));
    expect(firstMs('2026-11-27T19:58:22.383000+01:00')).toBe(ms('2026-11-27T18:58:22.383Z'));
    expect(firstMs('2026-11-27T19:58:22.9999Z')).toBe(ms('2026-11-27T19:58:23.000Z'));
  });

  it('keeps the last day within year 9999', () => {
    expect(lastMs('9999-12-31')).toBe(LATEST);
  });
});
