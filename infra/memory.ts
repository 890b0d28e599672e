import type { Group } from '@helpdesk/core/kernel/api/route';

/**
 * Memory (MB) per function, chosen from the duration curve `npm run bench` measures (table in
 * docs/benchmarks.md): each function's calls' CPU time stretched by Lambda's CPU share at 128–1,769 MB
 * plus their waits on AWS, scored the way AWS Lambda Power Tuning's "balanced" strategy does (half
 * cost, half duration; bench/cost.ts chooseMemory). The HTTP groups and the emails and log-grouping
 * consumers came out at 1,024 MB: the work is mostly CPU (validation, ElectroDB, JSON), which runs
 * about twice as fast per doubling up to one vCPU at almost the same cost per call, while 1,769 MB adds
 * cost for a smaller gain. The webhooks consumer's batches mostly wait: on each endpoint's answer
 * (counted as 100 ms a delivery, bench/cost.ts WEBHOOK_TARGET_MS) and on DynamoDB, so more CPU buys
 * less: 512 MB. The emails group came out at 512 MB in both runs of 2026-11-27 (its send is one
 * transaction after a few light checks, so it waits more than it computes).
 * Functions the bench does not drive (docs, public, console, the article-index and ses-events consumers) keep
 * 512 MB.
 */
export const HTTP_MEMORY_MB: Record<Group, number> = {
  account: 1024,
  articles: 1024,
  console: 512,
  customers: 1024,
  docs: 512,
  emails: 512,
  feedback: 1024,
  logs: 1024,
  portal: 1024,
  public: 512,
  templates: 1024,
  tickets: 1024,
  webhooks: 1024,
};

/** Per queue consumer (functions/queue/<consumer>.ts), chosen the same way from the bench's drain runs. */
export const CONSUMER_MEMORY_MB: Record<string, number> = {
  webhooks: 512,
  emails: 1024,
  'log-grouping': 1024,
  'article-index': 512,
  'ses-events': 512,
};

/** A size for a function this table does not name yet (new group or consumer). */
export const DEFAULT_MEMORY_MB = 512;
