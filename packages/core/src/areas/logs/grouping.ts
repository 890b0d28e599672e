import type { EntityItem } from 'electrodb';
import { ttlIn } from '../../kernel/db/client.js';
import { commit, put, update } from '../../kernel/db/commit.js';
import { must } from '../../kernel/must.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import { eventItem } from '../webhooks/emit.js';
import { enabledRules } from './alert-setup.js';
import { byMinutes, countWrites, minuteOf } from './counts.js';
import { LogIssue, LogMarker } from './entities.js';
import type { GroupingMessage } from './events.js';
import { GROUPING_VERSION } from './fingerprint.js';
import { ensureMerged, liveIssue, type Tenant } from './merge.js';
import { logAlertsQueue } from './queue.js';
import { releaseSeq } from './releases.js';
import { serially } from './serially.js';
import { learnTemplate } from './template-store.js';
import { Templates } from './templates.js';
import { higherLevel } from './values.js';

/** Markers outlive any redelivery: SQS keeps a message at most 14 days. */
const MARKER_TTL_SECONDS = 15 * 86_400;
/** Version-1 issues known to exist or not, per consumer (none is created any more, so both answers last). */
const previousIssues = new Map<string, boolean>();
/** `issue>target` pairs this consumer saw merged (merges are final, so they stay true). */
const knownMerged = new Set<string>();
/** Entries of either cache before it starts over. */
const CACHED = 10_000;

type Issue = EntityItem<typeof LogIssue>;
type NewEvents = GroupingMessage['events'];

/** Each release the events name, with its place in the project's order (releases.ts). */
async function releaseSeqs(tenant: Tenant, events: NewEvents, issue: Issue | null) {
  const seqs = new Map<string, number>();
  // One after another, in the events' order: releases new to the project are numbered as they came.
  const ordered = [...events].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const names = [issue?.firstRelease, issue?.lastRelease, ...ordered.map((e) => e.release)];
  for (const release of names) if (release && !seqs.has(release)) seqs.set(release, await releaseSeq(tenant, release));
  return seqs;
}

/** Of the releases named, the earliest or the latest in the project's order. */
function pick(seqs: Map<string, number>, names: (string | undefined)[], latest: boolean) {
  let best: string | undefined;
  for (const name of names) {
    if (!name) continue;
    const [a, b] = [seqs.get(name) ?? 0, best === undefined ? undefined : (seqs.get(best) ?? 0)];
    if (b === undefined || (latest ? a > b : a < b)) best = name;
  }
  return best;
}

/**
 * Whether an event reopens a resolved issue: any event does, unless the issue was resolved in a release
 * (`resolvedUpTo`); then only an event of a later release does, or one that names no release.
 */
const regresses = (issue: Issue, event: NewEvents[number], seqs: Map<string, number>) =>
  issue.resolvedUpTo === undefined || !event.release || (seqs.get(event.release) ?? 0) > issue.resolvedUpTo;

/** The issue's fields after `events`: counts, the highest level, first/last seen and release, and regression. */
function merged(issue: Issue | null, events: NewEvents, seqs: Map<string, number>) {
  const sorted = [...events].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const earliest = must(sorted[0], 'an event');
  const latest = must(sorted.at(-1), 'an event');
  const level = events.reduce((max, e) => higherLevel(max, e.level), issue?.level ?? earliest.level);
  // The releases it was first and last seen in: by the releases' order, so a late event of an old
  // deployment does not move them back.
  const names = events.map((e) => e.release);
  const firstRelease = pick(seqs, [issue?.firstRelease, ...names], false);
  const lastRelease = pick(seqs, [issue?.lastRelease, ...names], true);
  if (!issue) {
    return {
      level,
      firstSeenAt: earliest.timestamp,
      lastSeenAt: latest.timestamp,
      lastEventId: latest.id,
      status: 'open' as const,
      regressed: false,
      ...(firstRelease ? { firstRelease } : {}),
      ...(lastRelease ? { lastRelease } : {}),
    };
  }
  const newer = latest.timestamp >= issue.lastSeenAt;
  // A resolved issue that happens again (in a later release, when it was resolved in one) is open again;
  // an ignored one keeps counting, silently.
  const regressing = issue.status === 'resolved' ? sorted.find((e) => regresses(issue, e, seqs)) : undefined;
  return {
    level,
    firstSeenAt: earliest.timestamp < issue.firstSeenAt ? earliest.timestamp : issue.firstSeenAt,
    lastSeenAt: newer ? latest.timestamp : issue.lastSeenAt,
    lastEventId: newer ? latest.id : issue.lastEventId,
    status: regressing ? ('open' as const) : issue.status,
    regressed: regressing ? true : issue.regressed,
    ...(firstRelease ? { firstRelease } : {}),
    ...(lastRelease ? { lastRelease } : {}),
    ...(regressing?.release ? { regressedIn: regressing.release } : {}),
  };
}

/**
 * The issue a message's events belong to: with `learn`, the issue of the template the title falls
 * into (a new template starts with the version-1 issue of its first event when that exists, so an
 * upgrade does not split history, else with the event's own issue); otherwise the fingerprint's issue.
 */
async function issueFor(
  tenant: Tenant,
  message: GroupingMessage,
): Promise<{ target: string; merged: string[]; title?: string }> {
  if (!message.learn) return { target: message.issueId, merged: [] };
  let start = message.issueId;
  const previous = message.previousIssueId;
  if (previous && previous !== start) {
    const key = `${tenant.projectId}\n${tenant.env}\n${previous}`;
    if (!previousIssues.has(key)) {
      if (previousIssues.size >= CACHED) previousIssues.clear();
      previousIssues.set(key, !!(await LogIssue.get({ ...tenant, issueId: previous }).go()).data);
    }
    if (previousIssues.get(key)) start = previous;
  }
  const words = Templates.wordsOf(message.title);
  if (!words) return { target: start, merged: [] };
  const learned = await learnTemplate(tenant, message.scope ?? '', words, start);
  return { target: learned.issueId, merged: learned.merged, title: learned.template };
}

/**
 * Groups a message's events: counts them in their issue (following merges), then makes sure the
 * fingerprint's own issue and any templates the learning folded in point at that issue. Every step
 * is idempotent, so a redelivered message completes what an earlier delivery left undone.
 */
export async function groupLogEvents(message: GroupingMessage) {
  const tenant: Tenant = { projectId: message.projectId, env: message.env };
  const { target, merged: folded, title } = await issueFor(tenant, message);
  // The target's count and the merges into it write the same item: one at a time in this consumer.
  // Alert checks are queued only for projects with rules (most have none: no item, no message).
  const alerting = message.accountId !== undefined && (await enabledRules(tenant)).length > 0;
  await serially(`${tenant.projectId}\n${tenant.env}\n${target}`, async () => {
    let counted = target;
    // A part's counters fit its transaction beside the markers (counts.ts MINUTES_PER_COUNT).
    for (const events of byMinutes(message.events))
      counted = await countEvents(tenant, { ...message, events }, target, title, alerting);
    const first = must(message.events[0], 'an event of the message');
    const alias = {
      fingerprint: message.fingerprint,
      title: message.title,
      level: first.level,
      scope: message.scope,
      firstSeenAt: first.timestamp,
      lastSeenAt: first.timestamp,
      lastEventId: first.id,
    };
    for (const id of [message.issueId, ...folded]) {
      const pair = `${tenant.projectId}\n${tenant.env}\n${id}>${counted}`;
      if (id === counted || knownMerged.has(pair)) continue;
      if ((await ensureMerged(tenant, id, counted, alias)) !== counted) continue;
      if (knownMerged.size >= CACHED) knownMerged.clear();
      knownMerged.add(pair);
    }
  });
}

/**
 * Upserts the issue and counts each event exactly once: every event's marker is created in the same
 * transaction as the issue write, so a redelivered event fails its marker's condition and is dropped.
 * The issue write is conditional on the version read and on the issue not being merged, so concurrent
 * consumers (and merges) of one issue retry instead of overwriting each other; a merged issue's
 * events go on to the issue it went into. Answers the issue counted in.
 */
async function countEvents(
  tenant: Tenant,
  message: GroupingMessage,
  issueId: string,
  generalTitle: string | undefined,
  alerting: boolean,
): Promise<string> {
  let key = { ...tenant, issueId };
  const markerExpiresAt = ttlIn(MARKER_TTL_SECONDS);
  let pending = message.events;
  const marker = (eventId: string) => `marker ${eventId}`;
  const committed = await commit({
    items: async () => {
      let { data: issue } = await LogIssue.get(key).go({ consistent: true });
      if (issue?.mergedInto) {
        issue = (await liveIssue(tenant, issue.mergedInto)) ?? null;
        if (issue) key = { ...tenant, issueId: issue.issueId };
      }
      const current = issue;
      const seqs = await releaseSeqs(tenant, pending, current);
      // A template that just generalized retitles its issue (`Invalid user <*> from <*>`).
      const next = {
        ...merged(current, pending, seqs),
        ...(generalTitle && key.issueId === issueId ? { title: generalTitle } : {}),
      };
      // A new issue, or a resolved one happening again, is announced with its count (only the write that counts).
      const announced = message.accountId
        ? {
            id: key.issueId,
            title: next.title ?? current?.title ?? message.title,
            level: next.level,
            status: next.status,
            regressed: next.regressed,
            count: (current?.count ?? 0) + pending.length,
            firstSeenAt: next.firstSeenAt,
            lastSeenAt: next.lastSeenAt,
          }
        : undefined;
      const source = message.accountId && { accountId: message.accountId, ...tenant };
      const event =
        source && announced && !current
          ? eventItem(source, 'log_issue.created', { issue: announced })
          : source && announced && current?.status === 'resolved' && next.status === 'open'
            ? eventItem(source, 'log_issue.regressed', { issue: announced })
            : undefined;
      const accountId = message.accountId;
      return {
        event,
        counts: countWrites(
          tenant,
          key.issueId,
          pending.map((e) => e.timestamp),
          alerting,
        ),
        alertCheck:
          alerting &&
          accountId !== undefined &&
          outboxItem(logAlertsQueue, {
            accountId,
            ...tenant,
            issueId: key.issueId,
            created: !current,
            regressed: current?.status === 'resolved' && next.status === 'open',
            minutes: [...new Set(pending.map((e) => minuteOf(e.timestamp)))],
          }),
        ...Object.fromEntries(
          pending.map((e) => [
            marker(e.id),
            put(LogMarker.create({ ...tenant, eventId: e.id, expiresAt: markerExpiresAt })),
          ]),
        ),
        issue: current
          ? update(
              // A regression ends the release it was resolved in.
              (next.status === 'open' && current.resolvedIn
                ? LogIssue.update(key).set(next).remove(['resolvedIn', 'resolvedUpTo'])
                : LogIssue.update(key).set(next)
              )
                .add({ count: pending.length, version: 1 })
                .where((a, op) => `${op.eq(a.version, current.version)} AND ${op.notExists(a.mergedInto)}`),
            )
          : put(
              LogIssue.create({
                ...key,
                ...next,
                title: next.title ?? message.title,
                fingerprint: message.fingerprint,
                scope: message.scope,
                count: pending.length,
                version: 1,
                grouping: GROUPING_VERSION,
              }),
            ),
      };
    },
    // Events whose marker exists were counted by an earlier delivery; the rest are tried again (the
    // issue is read again in any case: a refused issue write means it changed or was merged).
    refused: (names) => {
      pending = pending.filter((e) => !names.has(marker(e.id)));
      return pending.length ? undefined : 'stop';
    },
    exhausted: () => new Error(`Log issue ${issueId}: gave up after conflicting attempts`),
  });
  return committed ? key.issueId : ((await liveIssue(tenant, key.issueId))?.issueId ?? key.issueId);
}
