import { ticketMetrics } from '../../areas/tickets/metrics.js';
import { lineChart } from './chart.js';
import { show, signedIn } from './guard.js';
import { html } from './html.js';

const DAYS = 30;

/** The last 30 days (UTC) from the day counters: first reply and resolution medians and p90, SLA breaches. */
export const metricsPage = signedIn('any', async (req) => {
  const to = new Date();
  const from = new Date(to.getTime() - (DAYS - 1) * 86_400_000);
  const report = await ticketMetrics(req.ctx, {
    from: from.toISOString().slice(0, 10),
    to: to.toISOString().slice(0, 10),
    groupBy: 'day',
  });
  const days = Array.from({ length: DAYS }, (_, i) =>
    new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10),
  );
  const byDay = new Map(report.groups.map((g) => [g.key, g]));
  const series = (name: string, pick: (g: (typeof report.groups)[number]) => number | null) => ({
    name,
    values: days.map((d) => {
      const g = byDay.get(d);
      return g ? (pick(g) ?? 0) : 0;
    }),
  });
  const met = report.groups.reduce((n, g) => n + g.sla.met, 0);
  const missed = report.groups.reduce((n, g) => n + g.sla.missed, 0);
  return show(
    req,
    'metrics',
    'Metrics',
    html`<h1>Metrics</h1>
<p>Last ${DAYS} days (UTC). SLA targets met: ${met} of ${met + missed}${met + missed ? html` (${Math.round((met / (met + missed)) * 100)}%)` : ''}. Times are calendar minutes from the ticket's creation; medians and 90th percentiles are read from histograms (within about 12%).</p>
${lineChart(
  'First reply, minutes',
  days,
  [series('median', (g) => g.firstReply.medianMinutes), series('p90', (g) => g.firstReply.p90Minutes)],
  'first-reply',
)}
${lineChart(
  'Resolution, minutes',
  days,
  [series('median', (g) => g.resolution.medianMinutes), series('p90', (g) => g.resolution.p90Minutes)],
  'resolution',
)}
${lineChart('SLA breaches', days, [series('breaches', (g) => g.breaches)], 'breaches')}`,
  );
});
