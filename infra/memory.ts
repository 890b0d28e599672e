import type { Group } from '@helpdesk/core/http/route';

/**
 * Memory (MB) per function, chosen by `npm run bench` from each function's measured duration curve:
 * its calls' CPU time stretched by Lambda's CPU share at 128–1,769 MB plus their waits on AWS, and
 * the size with the smallest cost × duration taken (bench/cost.ts chooseMemory; the table in
 * docs/benchmarks.md shows each curve). I/O-bound groups gain little from CPU beyond it; the
 * CPU-heavy ones (rendering, search, indexing) are given more.
 */
export const HTTP_MEMORY_MB: Record<Group, number> = {
  account: 512,
  articles: 512,
  customers: 512,
  docs: 512,
  emails: 512,
  feedback: 512,
  logs: 512,
  public: 512,
  templates: 512,
  tickets: 512,
  webhooks: 512,
};

/** Per queue consumer (functions/queue/<consumer>.ts), chosen the same way from its drain runs. */
export const CONSUMER_MEMORY_MB: Record<string, number> = {
  webhooks: 512,
  emails: 512,
  'log-grouping': 512,
  'article-index': 512,
  'ses-events': 512,
};

/** A size for a function this table does not name yet (new group or consumer). */
export const DEFAULT_MEMORY_MB = 512;
