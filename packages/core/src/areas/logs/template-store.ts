import { isConditionFailure } from '../../kernel/db/errors.js';
import { AGAIN, retrying } from '../../kernel/db/retry.js';
import { LogTemplates } from './entities.js';
import type { Tenant } from './merge.js';
import { serially } from './serially.js';
import { type Learned, type TemplateState, Templates } from './templates.js';

/** Projects whose templates a consumer keeps in memory (least recently used dropped first). */
const CACHED_PROJECTS = 200;

interface Cached {
  templates: Templates;
  /** The stored item's version, 0 when there is none yet. */
  version: number;
}

const cache = new Map<string, Cached>();

async function load(tenant: Tenant): Promise<Cached> {
  const { data } = await LogTemplates.get(tenant).go({ consistent: true });
  return data
    ? { templates: new Templates(JSON.parse(data.state) as TemplateState), version: data.version }
    : { templates: new Templates(), version: 0 };
}

/**
 * Learns one event's words into the project's templates. The state is cached per consumer and read
 * again only when a change of it fails its version condition: another consumer changed it first. A
 * stale cache that needs no change is harmless, since templates only point at issues and an issue
 * merged meanwhile forwards its events (`mergedInto`).
 */
export function learnTemplate(tenant: Tenant, scope: string, words: string[], issueId: string): Promise<Learned> {
  const key = `${tenant.projectId}\n${tenant.env}`;
  return serially(key, () => {
    return retrying(
      async () => {
        const entry = cache.get(key) ?? (await load(tenant));
        cache.delete(key);
        cache.set(key, entry);
        if (cache.size > CACHED_PROJECTS) cache.delete(cache.keys().next().value ?? key);
        const learned = entry.templates.learn(scope, words, issueId);
        if (!learned.changed) return learned;
        const state = entry.templates.serialize();
        try {
          if (entry.version) {
            await LogTemplates.patch(tenant)
              .set({ state, version: entry.version + 1 })
              .where((a, op) => op.eq(a.version, entry.version))
              .go();
          } else await LogTemplates.create({ ...tenant, state, version: 1 }).go();
          entry.version++;
          return learned;
        } catch (err) {
          // The change in memory was not stored: the next attempt (or message) starts from the table.
          cache.delete(key);
          if (!isConditionFailure(err)) throw err;
          return AGAIN;
        }
      },
      () => new Error(`Log templates of ${tenant.projectId}: gave up after conflicting writes`),
    );
  });
}
