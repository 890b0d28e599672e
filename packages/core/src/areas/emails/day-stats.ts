import { ttlIn } from '../../kernel/db/client.js';
import { update, type WriteItem } from '../../kernel/db/commit.js';
import type { TenantKey } from '../../kernel/tenant.js';
import { EmailDay } from './entities.js';

export const DAY_METRICS = ['sent', 'delivered', 'bounced', 'complained', 'opened', 'clicked'] as const;
export type DayMetric = (typeof DAY_METRICS)[number];

const DAY_STATS_TTL_SECONDS = 400 * 24 * 3600;
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** One more of `metric` on the day of `at`: an item for the transaction of the change it counts. */
export const countDay = (tenant: TenantKey, metric: DayMetric, at: Date | string = new Date()): WriteItem =>
  update(
    EmailDay.update({ projectId: tenant.projectId, env: tenant.env, day: dayOf(new Date(at)) })
      .add({ [metric]: 1 })
      .set({ expiresAt: ttlIn(DAY_STATS_TTL_SECONDS) }),
  );

/** The last `days` UTC days up to `now`, oldest first, every metric (0 for a day without mail): one Query. */
export async function dayStats(tenant: TenantKey, days = 30, now = new Date()) {
  const first = new Date(now.getTime() - (days - 1) * 24 * 3600 * 1000);
  const { data } = await EmailDay.query
    .byDay({ projectId: tenant.projectId, env: tenant.env })
    .between({ day: dayOf(first) }, { day: dayOf(now) })
    .go({ pages: 'all' });
  const byDay = new Map(data.map((d) => [d.day, d]));
  return Array.from({ length: days }, (_, i) => {
    const day = dayOf(new Date(first.getTime() + i * 24 * 3600 * 1000));
    const row = byDay.get(day);
    return { day, ...Object.fromEntries(DAY_METRICS.map((m) => [m, row?.[m] ?? 0])) } as { day: string } & Record<
      DayMetric,
      number
    >;
  });
}
