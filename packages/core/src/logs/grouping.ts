import type { EntityItem } from 'electrodb';
import { ttlIn } from '../db/client.js';
import { LogIssue, logService } from './entities.js';
import type { GroupingMessage } from './events.js';
import { higherLevel } from './levels.js';

/** Markers outlive any redelivery: SQS keeps a message at most 14 days. */
const MARKER_TTL_SECONDS = 15 * 86_400;
const ATTEMPTS = 8;

type Issue = EntityItem<typeof LogIssue>;
type NewEvents = GroupingMessage['events'];

/** The issue's fields after `events`: counts, the highest level, first/last seen, and regression. */
function merged(issue: Issue | null, events: NewEvents) {
  const sorted = [...events].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const earliest = sorted[0]!;
  const latest = sorted[sorted.length - 1]!;
  const level = events.reduce((max, e) => higherLevel(max, e.level), issue?.level ?? earliest.level);
  if (!issue) {
    return {
      level,
      firstSeenAt: earliest.timestamp,
      lastSeenAt: latest.timestamp,
      lastEventId: latest.id,
      status: 'open' as const,
      regressed: false,
    };
  }
  const newer = latest.timestamp >= issue.lastSeenAt;
  return {
    level,
    firstSeenAt: earliest.timestamp < issue.firstSeenAt ? earliest.timestamp : issue.firstSeenAt,
    lastSeenAt: newer ? latest.timestamp : issue.lastSeenAt,
    lastEventId: newer ? latest.id : issue.lastEventId,
    // A resolved issue that happens again is open again; an ignored one keeps counting, silently.
    status: issue.status === 'resolved' ? ('open' as const) : issue.status,
    regressed: issue.status === 'resolved' ? true : issue.regressed,
  };
}

/**
 * Upserts the message's issue and counts each of its events exactly once: every event's marker is
 * created in the same transaction as the issue write, so a redelivered event fails its marker's
 * condition and is dropped. The issue write is conditional on the version read, so concurrent
 * consumers of one issue retry instead of overwriting each other.
 */
export async function groupLogEvents(message: GroupingMessage) {
  const key = { projectId: message.projectId, env: message.env, issueId: message.issueId };
  const markerExpiresAt = ttlIn(MARKER_TTL_SECONDS);
  let pending = message.events;
  for (let attempt = 0; attempt < ATTEMPTS && pending.length; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
    const { data: issue } = await LogIssue.get(key).go({ consistent: true });
    const next = merged(issue, pending);
    const events = pending;
    const { canceled, data } = await logService.transaction
      .write(({ logIssue, logMarker }) => [
        ...events.map((e) =>
          logMarker.create({ projectId: key.projectId, env: key.env, eventId: e.id, expiresAt: markerExpiresAt }).commit(),
        ),
        issue
          ? logIssue
              .update(key)
              .set(next)
              .add({ count: events.length, version: 1 })
              .where((a, op) => op.eq(a.version, issue.version))
              .commit()
          : logIssue
              .create({
                ...key,
                ...next,
                title: message.title,
                fingerprint: message.fingerprint,
                scope: message.scope,
                count: events.length,
                version: 1,
              })
              .commit(),
      ])
      .go();
    if (!canceled) return;
    // Events whose marker exists were counted by an earlier delivery; the rest are tried again.
    const codes = (data as { code: string }[]).map((r) => r.code);
    const counted = new Set(events.filter((_, i) => codes[i] === 'ConditionalCheckFailed').map((e) => e.id));
    pending = events.filter((e) => !counted.has(e.id));
  }
  if (pending.length) throw new Error(`Log issue ${message.issueId}: gave up after ${ATTEMPTS} conflicting attempts`);
}
