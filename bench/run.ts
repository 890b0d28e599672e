/**
 * `npm run bench`: bundle sizes and cold init, DynamoDB cost per route, GET /tickets over 10,000
 * tickets and local throughput, as one table printed and written to docs/benchmarks.md (between the
 * markers; the analysis around them is kept). Starts its own local stack; progress goes to stderr.
 * BENCH_QUICK=1 shrinks every phase for a smoke run and leaves the document alone. BENCH_ONLY=bundles,
 * cold, routes, chains, scale, load, portal, alerts, items (comma-separated) runs only those phases, printed and not written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONSUMER_MEMORY_MB, DEFAULT_MEMORY_MB, HTTP_MEMORY_MB } from '../infra/memory.js';
import { REPO_ROOT } from '../infra/paths.js';
import { measureAlertDelay } from './alerts.js';
import { measureBundles } from './bundles.js';
import { indexWriteUnits } from './capacity.js';
import { type ColdRequest, measureColdRequests } from './cold-request.js';
import { type ChainCost, measureChains, unitsOf } from './consumers.js';
import {
  apiCallDollars,
  chooseMemory,
  durationAt,
  dynamoDollars,
  floorDollars,
  lambdaDollars,
  PRICES,
  perMillion,
  type Usage,
  WRITE_UNIT_TARGETS,
  writeFloorDollars,
} from './cost.js';
import { LARGE_ITEMS, largestItems } from './item-sizes.js';
import { lambdaNode, runtimeMajor } from './lambda-node.js';
import { type LoadSpec, SEARCH_WORDS } from './load-ops.js';
import { loadPages, measurePages, PORTAL_ARTICLES, seedPortal } from './portal.js';
import { measureRoutes, split } from './routes.js';
import { measureScale, pool, seedTickets, tenantContext } from './scale.js';
import { createFixtures, progress, startStack } from './stack.js';
import { CLIENTS, type LoadResult, load, SECONDS } from './throughput.js';

const quick = process.env.BENCH_QUICK === '1';
const PHASES = ['bundles', 'cold', 'routes', 'chains', 'scale', 'load', 'portal', 'alerts', 'items'] as const;
const only = process.env.BENCH_ONLY?.split(',')
  .map((p) => p.trim())
  .filter(Boolean);
const unknownPhase = only?.find((p) => !(PHASES as readonly string[]).includes(p));
if (unknownPhase) throw new Error(`BENCH_ONLY: unknown phase ${unknownPhase} (phases: ${PHASES.join(', ')})`);
const runs = (phase: (typeof PHASES)[number]) => !only || only.includes(phase);
const ARTICLES = quick ? 100 : 2_000;
const began = Date.now();

type Result = 'pass' | 'miss' | '';
interface Row {
  area: string;
  measure: string;
  value: string;
  target: string;
  result: Result;
}
const rows: Row[] = [];
const row = (area: string, measure: string, value: string, target = '', result: Result = '') =>
  rows.push({ area, measure, value, target, result });
const verdict = (ok: boolean): Result => (ok ? 'pass' : 'miss');
const n0 = (x: number) => x.toFixed(0);
const n1 = (x: number) => x.toFixed(1);
const kb = (bytes: number) => `${n0(bytes / 1024)} KB`;

// 1. Bundles (before the stack starts, so the stand-ins do not compete for the CPU).
if (runs('bundles')) {
  const { baseline, bundles } = measureBundles(quick ? 0 : 20);
  row('bundle', 'baseline (DynamoDB document client only)', `${n0(baseline.kb)} KB, init ${n0(baseline.initMs)} ms`);
  for (const b of bundles) {
    const ratio = b.initMs / baseline.initMs;
    const top = b.top
      .slice(0, 3)
      .map((t) => `${t.name} ${n0(t.kb)}`)
      .join(', ');
    const ok = b.kb <= 450 && ratio <= 2;
    const cause = ok
      ? ''
      : ` — over: ${b.kb > 450 ? 'size' : ''}${b.kb > 450 && ratio > 2 ? ', ' : ''}${ratio > 2 ? 'init time' : ''} (largest at init: ${b.top[0]?.name})`;
    row(
      'bundle',
      `${b.name} (at init)`,
      `${n0(b.kb)} KB of ${n0(b.totalKb)} KB shipped (${top}), init ${n0(b.initMs)} ms = ${ratio.toFixed(2)}x${cause}`,
      '<= 450 KB, <= 2.0x',
      verdict(ok),
    );
    for (const l of b.lazy) {
      const ltop = l.top
        .slice(0, 2)
        .map((t) => `${t.name} ${n0(t.kb)}`)
        .join(', ');
      row(
        'lazy',
        `${b.name}: ${l.module.replace(/^packages\/core\/src\//, 'core/')}`,
        `first call +${n0(l.kb)} KB (${ltop || 'own code'}), +${n1(l.firstCallMs)} ms`,
      );
    }
  }
}

// The local stack for everything else.
const stack = only?.every((p) => p === 'bundles')
  ? undefined
  : (progress('starting the local stack'), await startStack());
if (stack)
  try {
    const fixtures = await createFixtures(['cold', 'routes', 'chains', 'scale', 'kb', 'load', 'portal', 'alerts']);
    stack.useKey(fixtures.key);

    // 1b. The cold request: init plus the first call of each group's most common route, in fresh processes.
    if (runs('cold')) {
      const made = await stack.call('POST', '/tickets', {
        project: 'cold',
        body: { subject: 'Cold start', body: 'First call.', customer: { email: 'cold-customer@bench.example' } },
      });
      const customer = await stack.call('POST', '/customers', {
        project: 'cold',
        body: { email: 'cold-profile@bench.example', name: 'Cold Customer' },
      });
      const ids = { ticketId: made.body?.id, customerId: customer.body?.id };
      const { baseline, groups } = await measureColdRequests(stack, 'cold', ids, quick ? 2 : 10);
      const ms = (c: ColdRequest) =>
        `init ${n1(c.initMs)} ms + first call ${n1(c.firstCallMs)} ms = ${n1(c.totalMs)} ms`;
      row('cold', `baseline: ${baseline.route} with the document client`, ms(baseline));
      for (const g of groups)
        row(
          'cold',
          `${g.name}: ${g.route}`,
          `${g.status}; ${ms(g)} = ${(g.totalMs / baseline.totalMs).toFixed(2)}x baseline`,
          '<= 1.6x baseline',
          verdict(g.status < 300 && g.totalMs <= 1.6 * baseline.totalMs),
        );
    }

    // 2. Per route.
    if (runs('routes')) {
      const { results: routeResults, skipped } = await measureRoutes(stack, 'routes');
      const GET_ONE = /^GET .*\/\{[a-zA-Z]+\}$/;
      for (const r of routeResults) {
        const warm = split(r.warm);
        const cold = split(r.cold);
        const value =
          `${r.status}; warm ${warm.total} req (${warm.own} + ${warm.rate} rate limit: ${warm.list || '-'}), ${n1(warm.rcu)} RCU, ${n1(warm.wcu)} WCU; ` +
          `cold key ${cold.total} req`;
        const route = r.route.replace('/api/v1', '');
        let target = '';
        let result: Result = '';
        if (GET_ONE.test(route)) {
          target = '1 req (rate limit batched)';
          result = verdict(r.status === 200 && warm.total === 1);
        } else if (route.startsWith('POST /tickets ') || route === 'POST /tickets') {
          target = '<= 4 req';
          result = verdict(r.status === 200 && warm.total <= 4);
        } else if (route.startsWith('POST /tickets/{ticketId}/messages')) {
          target = '<= 3 req';
          result = verdict(r.status === 200 && warm.total <= 3);
        } else if (r.status !== 200) {
          target = '200';
          result = 'miss';
        }
        row('route', route, value, target, result);
      }
      row('route', 'not measured', skipped.map((s) => s.replace('/api/v1', '')).join(', ') || '-');

      // Cost per route at the deployed memory size, beside the floor.
      const floor = floorDollars();
      row(
        'cost',
        `prices (us-east-1, ${PRICES.asOf}; bench/cost.ts)`,
        `HTTP API $${PRICES.httpApiPerMillion}/M, Lambda arm64 $${PRICES.lambdaArmPerGbSecond}/GB-s + $${PRICES.lambdaPerMillionInvocations}/M, DynamoDB $${PRICES.dynamoWritePerMillionUnits}/M WRU, $${PRICES.dynamoReadPerMillionUnits}/M RRU`,
      );
      row('cost', 'floor: API Gateway + one eventually consistent read', `${perMillion(floor)} per million requests`);
      const writeFloor = writeFloorDollars();
      row('cost', 'write floor: API Gateway + one write unit', `${perMillion(writeFloor)} per million requests`);
      const usageOf = (r: (typeof routeResults)[number]): Usage => ({ cpuMs: r.cpuMs, ...unitsOf(r.warm) });
      for (const r of routeResults) {
        const mb = HTTP_MEMORY_MB[r.group as keyof typeof HTTP_MEMORY_MB] ?? DEFAULT_MEMORY_MB;
        const u = usageOf(r);
        const d = apiCallDollars(u, mb);
        const route = r.route.replace('/api/v1', '');
        const cost = `${perMillion(d.total)} per million = ${(d.total / floor).toFixed(1)}x floor (API ${perMillion(d.api)}, Lambda ${perMillion(d.lambda)} at ${mb} MB / ${n1(durationAt(u, mb))} ms, DynamoDB ${perMillion(d.dynamo)}: ${n1(u.readUnits)} RRU, ${n1(u.writeUnits)} WRU)`;
        if (!u.writeUnits) {
          row('cost', route, cost);
          continue;
        }
        // A write: its units split into the items themselves and the index copies DynamoDB keeps of them.
        const indexes = indexWriteUnits(r.warm);
        const indexUnits = Object.values(indexes).reduce((n, x) => n + x, 0);
        const own = u.writeUnits - indexUnits;
        const units = WRITE_UNIT_TARGETS[route];
        const times = d.total / writeFloor;
        const ok = (units === undefined ? u.writeUnits <= 3 * own : u.writeUnits <= units) && times <= 5;
        const split = Object.entries(indexes)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, n]) => `${name} ${n0(n)}`)
          .join(', ');
        row(
          'cost',
          route,
          `${cost}; ${n0(u.writeUnits)} WRU = items ${n0(own)} + indexes ${n0(indexUnits)}${split ? ` (${split})` : ''}; ${times.toFixed(1)}x write floor`,
          `${units === undefined ? '<= 3x the items' : `<= ${units} WRU`}, <= 5x write floor`,
          verdict(ok),
        );
      }

      // Memory per group from its routes' duration curve.
      const groups = [...new Set(routeResults.map((r) => r.group))].sort();
      for (const g of groups) {
        const { best, curve, fits } = chooseMemory(routeResults.filter((r) => r.group === g).map(usageOf));
        const deployed = HTTP_MEMORY_MB[g as keyof typeof HTTP_MEMORY_MB] ?? DEFAULT_MEMORY_MB;
        const points = curve
          .map((c) => `${c.mb} MB ${n1(c.ms)} ms ${perMillion(c.dollars)}/M (${c.score.toFixed(3)})`)
          .join(', ');
        row(
          'memory',
          `http/${g}`,
          `${points}; best ${best} MB, deployed ${deployed} MB`,
          'deployed scores within 2% of best',
          verdict(fits(deployed)),
        );
      }
    }

    // 2b. Background work end to end: per thousand emails, log events, webhook deliveries.
    if (runs('chains')) {
      const chains = await measureChains(stack, 'chains');
      const sqsDollars = (messages: number) => (messages * 1.2 * PRICES.sqsPerMillionRequests) / 1e6; // send, and receive + delete in batches of 10
      // `group` undefined: the API calls only raised the events (another route's cost), not counted here.
      const perThousand = (
        name: string,
        c: ChainCost,
        group: keyof typeof HTTP_MEMORY_MB | undefined,
        consumer: string,
        extra = 0,
      ) => {
        const apiUsage: Usage = { cpuMs: c.api.cpuMs / Math.max(1, c.api.calls), ...unitsOf(c.api.requests) };
        apiUsage.readUnits /= Math.max(1, c.api.calls);
        apiUsage.writeUnits /= Math.max(1, c.api.calls);
        apiUsage.awsRequests /= Math.max(1, c.api.calls);
        const consumerUsage = unitsOf(c.consumers.requests);
        const batches = Math.max(1, Math.ceil(c.consumers.messages / 10));
        const consumerCall = {
          cpuMs: c.consumers.cpuMs / batches,
          awsRequests: consumerUsage.awsRequests / batches,
          waitMs: (c.waitMs ?? 0) / batches,
        };
        const mb = CONSUMER_MEMORY_MB[consumer] ?? DEFAULT_MEMORY_MB;
        const api = group ? apiCallDollars(apiUsage, HTTP_MEMORY_MB[group]).total * c.api.calls : 0;
        const lambda = lambdaDollars(durationAt(consumerCall, mb), mb) * batches;
        const dynamo = dynamoDollars(consumerUsage);
        const total = api + lambda + dynamo + sqsDollars(c.consumers.messages) + extra;
        const per = c.units ? (total / c.units) * 1000 : NaN;
        row(
          'cost',
          `per thousand ${name}`,
          c.units
            ? `$${per.toFixed(4)} (${c.units} measured: API calls ${group ? `$${((api / c.units) * 1000).toFixed(4)}` : 'not counted (the events came from POST /tickets)'}, consumers $${(((lambda + dynamo) / c.units) * 1000).toFixed(4)} over ${c.consumers.messages} messages, ${n1(consumerUsage.readUnits)} RRU, ${n1(consumerUsage.writeUnits)} WRU${extra ? `, SES $${((extra / c.units) * 1000).toFixed(4)}` : ''})`
            : 'not measured (no unit of work completed)',
        );
        const { best, curve, fits } = chooseMemory([consumerCall]);
        row(
          'memory',
          `queue/${consumer} (per batch of 10)`,
          `${curve.map((p) => `${p.mb} MB ${n1(p.ms)} ms (${p.score.toFixed(3)})`).join(', ')}; best ${best} MB, deployed ${mb} MB`,
          'deployed scores within 2% of best',
          verdict(fits(mb)),
        );
      };
      perThousand(
        'emails sent',
        chains.emails,
        'emails',
        'emails',
        (chains.emails.units * PRICES.sesPerThousandEmails) / 1000,
      );
      perThousand(
        'emails sent with a 10 KB body',
        chains.longEmails,
        'emails',
        'emails',
        (chains.longEmails.units * PRICES.sesPerThousandEmails) / 1000,
      );
      perThousand('log events ingested and grouped', chains.logs, 'logs', 'log-grouping');
      perThousand('webhook deliveries', chains.webhooks, undefined, 'webhooks');
    }

    // 3. Scale.
    if (runs('scale')) {
      const scaleCtx = await tenantContext(fixtures.key, 'scale');
      const { threadId } = await seedTickets(scaleCtx, fixtures.members);
      await stack.purge('webhooks', 'emails');
      for (const s of await measureScale(stack, 'scale', fixtures.members, threadId)) {
        const value = `${s.status}; total ${s.total}; ${s.requests} req (${s.list}), ${n1(s.rcu)} RCU ≈ ${kb(s.bytes)} read, ${n0(s.ms)} ms`;
        const metrics = s.name.startsWith('GET /tickets/metrics');
        row(
          'scale',
          s.name,
          value,
          // Issue 36: a filtered list stays within two requests (the counts, then one Query).
          s.targeted ? '<= 2 MB read, <= 2 requests' : metrics ? '<= 5 requests' : '',
          s.targeted
            ? verdict(s.status === 200 && s.bytes <= 2 * 1024 * 1024 && s.requests <= 2)
            : metrics
              ? verdict(s.status === 200 && s.requests <= 5)
              : '',
        );
      }
    }

    // 4. Throughput, with the consumers stopped: each load measures the API alone.
    if (runs('load')) {
      progress(`seeding ${ARTICLES} published articles`);
      const kbCtx = await tenantContext(fixtures.key, 'kb');
      const { createArticle } = await import('@helpdesk/core/areas/articles/articles');
      const { indexArticles } = await import('@helpdesk/core/areas/articles/search-indexer');
      const words = SEARCH_WORDS;
      const articleIds: string[] = [];
      await pool(ARTICLES, 16, async (i) => {
        const a = words[i % words.length]!;
        const b = words[(i * 7 + 3) % words.length]!;
        const article = await createArticle(kbCtx, {
          title: `${a} ${b} guide ${i}`,
          body: `# ${a}\n\nHow to manage your ${a} and ${b} settings, step ${i}. `.repeat(6),
          status: 'published',
        });
        articleIds[i] = article.id;
      });
      // The consumer's own indexer over all of them at once; the per-article queue messages are then redundant.
      await indexArticles({ projectId: kbCtx.projectId, env: kbCtx.env }, articleIds);
      await stack.purge('articleIndex', 'webhooks');

      const loadCtx = await tenantContext(fixtures.key, 'load');
      const { createTicket } = await import('@helpdesk/core/areas/tickets/create');
      const loadTicket = await createTicket(loadCtx, {
        subject: 'Load',
        body: 'One message.',
        customer: { email: 'load@bench.example' },
      });
      const { Ticket } = await import('@helpdesk/core/areas/tickets/entities');
      const ticketKey = Ticket.get({
        projectId: loadCtx.projectId,
        env: loadCtx.env,
        ticketId: loadTicket.id,
      }).params() as {
        TableName: string;
        Key: Record<string, string>;
      };

      const EVENTS_PER_GROUPING_MESSAGE = 25; // 100 events in 4 fingerprints

      const api = (
        op: Extract<LoadSpec, { kind: 'api' }>['op'],
        project: string,
        params: Record<string, string> = {},
      ): LoadSpec => ({
        kind: 'api',
        op,
        params,
        apiUrl: stack.apiUrl,
        key: stack.key(),
        project,
      });
      const ceiling = await load('DynamoDB Local GetItem', {
        kind: 'getItem',
        endpoint: stack.endpoints.dynamodb,
        tableName: ticketKey.TableName,
        key: ticketKey.Key,
      });
      const loads: LoadResult[] = [
        await load('GET /tickets/{id}', api('getTicket', 'load', { ticketId: loadTicket.id })),
        await load('POST /tickets', api('createTicket', 'load')),
        await load('POST /logs (100 events)', api('ingestLogs', 'load')),
        await load('GET /articles/search', api('searchArticles', 'kb')),
      ];
      row(
        'load',
        `DynamoDB Local GetItem (ceiling, ${CLIENTS} loops, ${SECONDS} s)`,
        `${n0(ceiling.rps)} op/s, p50 ${n1(ceiling.p50)} ms`,
      );
      for (const l of loads) {
        const ratio = l.rps / ceiling.rps;
        const value = `${n0(l.rps)} req/s = ${(ratio * 100).toFixed(0)}% of ceiling; p50 ${n0(l.p50)} ms, p95 ${n0(l.p95)} ms; ${l.errors} errors`;
        const targeted = l.name === 'GET /tickets/{id}';
        row(
          'load',
          l.name,
          value,
          targeted ? '>= 45% of ceiling' : '',
          targeted ? verdict(ratio >= 0.45 && l.errors === 0) : '',
        );
      }
      const search = loads.find((l) => l.name === 'GET /articles/search')!;
      row(
        'load',
        `search latency over ${ARTICLES} published articles`,
        `p50 ${n1(search.p50)} ms, p95 ${n1(search.p95)} ms (under ${CLIENTS} concurrent clients)`,
      );
      const ingest = loads.find((l) => l.name.startsWith('POST /logs'))!;
      row('load', 'log ingest through POST /logs', `${n0(ingest.rps * 100)} events/s`);

      // Grouping: the log-grouping consumer drains what the ingest load queued, the other queues emptied first.
      await stack.purge('webhooks', 'emails', 'articleIndex', 'sesEvents');
      const queued = await stack.waiting('logs');
      progress(`grouping: draining ${queued} messages (${queued * EVENTS_PER_GROUPING_MESSAGE} events)`);
      const groupStart = performance.now();
      stack.startConsumers();
      const deadline = groupStart + (quick ? 20_000 : 60_000);
      let left = queued;
      while (left > 0 && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        left = await stack.waiting('logs');
      }
      const groupSeconds = (performance.now() - groupStart) / 1000;
      await stack.stopConsumers();
      const grouped = (queued - left) * EVENTS_PER_GROUPING_MESSAGE;
      row(
        'load',
        'log grouping consumer (one poller, batches of 10 messages)',
        `${n0(grouped / groupSeconds)} events/s (${grouped} events in ${n1(groupSeconds)} s${left ? `, ${left} messages left at the time limit` : ''})`,
      );
    }

    // 6. The help center: size, caching and latency of each page type.
    if (runs('portal')) {
      const count = quick ? 40 : PORTAL_ARTICLES;
      progress(`help center: seeding ${count} published articles`);
      const ctx = await tenantContext(fixtures.key, 'portal');
      const { categories, articles } = await seedPortal(stack, ctx, count);
      const handle = `bench-${Date.now().toString(36)}`;
      const opened = await stack.call('PATCH', `/projects/${ctx.projectId}`, {
        body: { portal: { handle, enabled: true } },
      });
      if (opened.status !== 200) throw new Error(`PATCH /projects answered ${opened.status}`);
      const rootUrl = stack.apiUrl.replace(/\/api\/v1$/, '');
      const at = (rest = '') => `/help/${handle}${rest}`;
      const pages = {
        home: at(),
        category: at(`/categories/${categories[0]!.slug}`),
        article: at(`/articles/${articles[0]!.slug}`),
        search: at('/search?q=refund+settings'),
        'request form': at('/requests/new?subject=password'),
        sitemap: at('/sitemap.xml'),
      };
      for (const p of await measurePages(rootUrl, pages)) {
        const cached = p.cacheControl === 'public, no-cache' && p.etag !== null && p.revalidated === 304;
        const ok = p.status === 200 && p.gzipBytes <= 60 * 1024 && (cached || p.name === 'sitemap');
        row(
          'portal',
          `${p.name} page (${count} articles)`,
          `${p.status}; ${n1(p.bytes / 1024)} KB, ${n1(p.gzipBytes / 1024)} KB gzip (CSS inline, no other asset); Cache-Control ${p.cacheControl}, ETag ${p.etag ? 'yes' : 'no'}, If-None-Match -> ${p.revalidated}`,
          '<= 60 KB compressed; cacheable, 304 on its ETag',
          verdict(ok),
        );
      }
      const latency = await loadPages(rootUrl, fixtures.key, Object.values(pages).slice(0, 4));
      row(
        'portal',
        `pages under ${CLIENTS} concurrent readers (home, category, article, search in turn)`,
        `${n0(latency.rps)} pages/s; p50 ${n0(latency.p50)} ms, p95 ${n0(latency.p95)} ms; ${latency.errors} errors`,
        'p95 < 150 ms, no errors',
        verdict(latency.p95 < 150 && latency.errors === 0),
      );
    }

    if (runs('alerts')) {
      const probes = quick ? 3 : 20;
      progress(`alerts: ${probes} probes`);
      const delay = await measureAlertDelay(stack, 'alerts', probes);
      for (const [kind, d] of Object.entries(delay))
        row(
          'alerts',
          `${kind} alert: POST /logs answered → listed by GET /log-alerts (${probes} probes, relay every 200 ms)`,
          `p50 ${n0(d.p50)} ms, p95 ${n0(d.p95)} ms, max ${n0(d.max)} ms`,
          'p95 <= 60 s',
          verdict(d.p95 <= 60_000),
        );
    }

    // 8. Item sizes: the largest item of each kind every phase before wrote (what writes are billed on).
    if (runs('items')) {
      progress('items: scanning the table');
      for (const k of await largestItems(stack.dynamo, stack.resources.tableName)) {
        const bound = LARGE_ITEMS[k.kind];
        row(
          'items',
          k.kind,
          `largest ${n1(k.bytes / 1024)} KB of ${k.items} item${k.items === 1 ? '' : 's'}${bound ? `; grows: ${bound}` : ''}`,
          bound ? '<= 400 KB (documented growth bound)' : '<= 32 KB',
          verdict(k.bytes <= (bound ? 400 : 32) * 1024),
        );
      }
    }
  } finally {
    await stack.stop();
  }

// The table, printed and written.
const cell = (s: string) => s.replace(/\|/g, '\\|');
const table = [
  '| Area | Measure | Value | Target | Result |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.area} | ${cell(r.measure)} | ${cell(r.value)} | ${cell(r.target)} | ${r.result} |`),
].join('\n');
const passed = rows.filter((r) => r.result === 'pass').length;
const missed = rows.filter((r) => r.result === 'miss').length;
const cpus = os.cpus();
const header = [
  `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in ${n0((Date.now() - began) / 1000)} s; ${os.type()} ${os.arch()}, ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), ` +
    `${n0(os.totalmem() / 2 ** 30)} GB memory, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )} at the end; Node ${process.version} (bundles and cold requests on Node ${lambdaNode().version}${lambdaNode().matchesRuntime ? ', the deployed runtime' : `, not the deployed runtime's ${runtimeMajor()}`}).`,
  '',
  `Targets: ${passed} pass, ${missed} miss.`,
].join('\n');
console.log(`${header}\n\n${table}`);

if (!quick && !only) {
  const file = path.join(REPO_ROOT, 'docs', 'benchmarks.md');
  const START = '<!-- bench:start -->';
  const END = '<!-- bench:end -->';
  const generated = `${START}\n${header}\n\n${table}\n${END}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
  const next = current.includes(START)
    ? current.replace(new RegExp(`${START}[\\s\\S]*${END}`), generated)
    : `${current}\n${generated}\n`;
  writeFileSync(file, next);
  progress(`wrote ${path.relative(REPO_ROOT, file)}`);
}
process.exit(0);
