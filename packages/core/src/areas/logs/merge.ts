import type { EntityItem } from 'electrodb';
import { commit, put, update } from '../../kernel/db/commit.js';
import { must } from '../../kernel/must.js';
import type { TenantKey } from '../../kernel/tenant.js';
import { LogIssue } from './entities.js';
import { GROUPING_VERSION } from './fingerprint.js';
import { higherLevel } from './values.js';

/** Issues merged into one that it keeps (newest first): its latest events read their partitions too. */
export const MERGED_KEPT = 25;
/** A merge chain longer than this is not followed (merges only go forward, so chains are short). */
const MAX_HOPS = 20;

type Issue = EntityItem<typeof LogIssue>;
export type Tenant = TenantKey;
/** What a merged issue that never had an event of its own is created with (an alias of a fingerprint). */
export type AliasFields = Pick<
  Issue,
  'fingerprint' | 'title' | 'level' | 'scope' | 'firstSeenAt' | 'lastSeenAt' | 'lastEventId'
>;

export type MergeOutcome =
  | { merged: Issue }
  | { refused: 'not_found' }
  | { refused: 'same' }
  | { refused: 'already_merged'; id: string; mergedInto: string };

const getIssue = async (tenant: Tenant, issueId: string) =>
  (await LogIssue.get({ ...tenant, issueId }).go({ consistent: true })).data;

/** The issue an id's events count in: the id itself, or the end of its merge chain; undefined if it does not exist. */
export async function liveIssue(tenant: Tenant, issueId: string): Promise<Issue | undefined> {
  let issue = await getIssue(tenant, issueId);
  for (let hop = 0; issue?.mergedInto && hop < MAX_HOPS; hop++) issue = await getIssue(tenant, issue.mergedInto);
  return issue ?? undefined;
}

/**
 * Merges issue `fromId` into `intoId`, both live: the target takes the summed count, the earliest
 * first-seen, the latest last-seen and the higher level, and lists the source among its merged issues;
 * the source keeps its record with `mergedInto` (merges are final). Both writes are one transaction,
 * conditional on the versions read, so a grouping consumer counting into either at the same moment
 * retries and no event is counted twice or lost. With `alias`, a source that does not exist yet is
 * created already merged (a fingerprint whose events belong to the target).
 */
export async function mergeIssue(
  tenant: Tenant,
  fromId: string,
  intoId: string,
  alias?: AliasFields,
): Promise<MergeOutcome> {
  let outcome: MergeOutcome | undefined;
  // Both issues are read before every attempt: a refused write means one of them changed.
  await commit({
    items: async () => {
      const [from, into] = await Promise.all([getIssue(tenant, fromId), getIssue(tenant, intoId)]);
      outcome = refusal(fromId, intoId, from, into, alias);
      if (outcome || !into) return {};
      const source = from ?? { ...must(alias, 'the fields of a new issue'), count: 0, mergedFrom: [] };
      const mergedFrom = [...new Set([fromId, ...(source.mergedFrom ?? []), ...(into.mergedFrom ?? [])])].slice(
        0,
        MERGED_KEPT,
      );
      const newer = source.lastSeenAt > into.lastSeenAt;
      const next = {
        count: into.count + source.count,
        level: higherLevel(into.level, source.level),
        firstSeenAt: source.firstSeenAt < into.firstSeenAt ? source.firstSeenAt : into.firstSeenAt,
        lastSeenAt: newer ? source.lastSeenAt : into.lastSeenAt,
        lastEventId: newer ? source.lastEventId : into.lastEventId,
        mergedFrom,
      };
      outcome = { merged: { ...into, ...next, version: into.version + 1 } };
      const key = (issueId: string) => ({ ...tenant, issueId });
      return {
        from: from
          ? update(
              LogIssue.update(key(fromId))
                .set({ mergedInto: intoId })
                .add({ version: 1 })
                .where((a, op) => `${op.eq(a.version, from.version)} AND ${op.notExists(a.mergedInto)}`),
            )
          : put(
              LogIssue.create({
                ...key(fromId),
                ...must(alias, 'the fields of a new issue'),
                count: 0,
                version: 1,
                grouping: GROUPING_VERSION,
                mergedInto: intoId,
              }),
            ),
        into: update(
          LogIssue.update(key(intoId))
            .set(next)
            .add({ version: 1 })
            .where((a, op) => `${op.eq(a.version, into.version)} AND ${op.notExists(a.mergedInto)}`),
        ),
      };
    },
    exhausted: () => new Error(`Log issue merge ${fromId} -> ${intoId}: gave up after conflicting attempts`),
  });
  return must(outcome, 'the outcome of a committed merge');
}

/** Why the issues as read cannot be merged, if they cannot. */
function refusal(
  fromId: string,
  intoId: string,
  from: Issue | null,
  into: Issue | null,
  alias: AliasFields | undefined,
): MergeOutcome | undefined {
  if (!into || (!from && !alias)) return { refused: 'not_found' };
  if (fromId === intoId) return { refused: 'same' };
  if (into.mergedInto) return { refused: 'already_merged', id: intoId, mergedInto: into.mergedInto };
  if (from?.mergedInto) return { refused: 'already_merged', id: fromId, mergedInto: from.mergedInto };
  return undefined;
}

/**
 * Makes the events of issue `fromId` count in the live issue of `intoId` (the grouping consumer's
 * automatic merges): merges (or creates `fromId` as an alias), following either merge chain when the
 * merge finds it merged, until both end in the same issue. Answers the live target's id.
 */
export async function ensureMerged(
  tenant: Tenant,
  fromId: string,
  intoId: string,
  alias: AliasFields,
): Promise<string> {
  let source = fromId;
  let target = intoId;
  // Each refusal moves one end a hop along its merge chain.
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (source === target) return target;
    const outcome = await mergeIssue(tenant, source, target, alias);
    if ('merged' in outcome) return target;
    if (outcome.refused !== 'already_merged') break;
    const live = (await liveIssue(tenant, outcome.id))?.issueId ?? outcome.mergedInto;
    if (outcome.id === target) target = live;
    else source = live;
  }
  throw new Error(`Log issue ${fromId}: could not merge into ${intoId}`);
}
