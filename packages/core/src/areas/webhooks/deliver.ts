import { createHash } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addToWindow } from '../../identity/rate-limit.js';
import { env } from '../../kernel/config.js';
import { ttlIn } from '../../kernel/db/client.js';
import { commit, put, update } from '../../kernel/db/commit.js';
import { logger } from '../../kernel/logger.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import { matchesFilter } from './catalog.js';
import { WebhookDeadLetter, WebhookDelivery, WebhookEndpoint } from './entities.js';
import { aboutEndpoint, DISABLE_AFTER_MS, healthEvents } from './health.js';
import { deliveryBody } from './payload.js';
import type { EventEnvelope, WebhookMessage } from './queue.js';
import { webhooksQueue } from './queue.js';
import { openSecret } from './secret.js';
import { type HostResolver, type PinnedTarget, pinWebhookTarget } from './target.js';
import { secretFingerprint, signPayload, standardSignature } from './verify.js';

/** What the webhooks queue carries: a domain event to fan out, or one attempt at one endpoint. */
/**
 * One event for one endpoint, one attempt: what fan-out and retries put on the webhooks queue.
 * `deliveryId` (X-Service-Delivery) is the same on every attempt, so receivers can deduplicate; a
 * `test` job is the test action's sample: sent regardless of filters, never retried, no effect on health.
 */
export type DeliveryJob = Extract<WebhookMessage, { kind: 'delivery' }>;

export const DELIVERY_TIMEOUT_MS = 5000;
/** Retry delays in units of the base (60 s): about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h. */
export const RETRY_STEPS = [1, 5, 30, 120, 360, 720, 1440] as const;
export const MAX_ATTEMPTS = RETRY_STEPS.length + 1;
const LOG_TTL_SECONDS = 30 * 24 * 3600;
/** SQS's longest DelaySeconds; longer waits go through the scheduler. */
const MAX_QUEUE_DELAY_SECONDS = 900;

/** Deterministic per (event, endpoint): a fan-out SQS delivers twice yields the same delivery id. */
const deliveryIdFor = (eventId: string, webhookId: string) => {
  const h = createHash('sha256').update(`${eventId}:${webhookId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.charAt(16), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** The longest Retry-After honoured (a day, the backoff's longest step); longer ones are cut to it. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/**
 * A Retry-After header as seconds to wait: delay-seconds or an HTTP date (RFC 9110), within a second
 * and MAX_RETRY_AFTER_SECONDS; undefined when absent or unreadable.
 */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text || text.length > 64) return undefined;
  // HTTP dates (all three RFC 9110 forms) start with the day's name; Date.parse alone takes "-5" as a year.
  const seconds = /^\d+$/.test(text)
    ? Number(text)
    : /^[a-z]/i.test(text)
      ? (Date.parse(text) - now) / 1000
      : Number.NaN;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)));
}

const jitteredDelaySeconds = (attempt: number) =>
  env.webhookRetryBaseSeconds * (RETRY_STEPS[attempt - 1] ?? RETRY_STEPS.at(-1) ?? 0) * (0.9 + Math.random() * 0.2);

/**
 * An event becomes one job per subscribed, enabled endpoint of its project and environment. Each
 * job is delivered and retried on its own, so a slow endpoint delays no other and a retry re-sends
 * to nobody else.
 */
export async function fanOut(envelope: EventEnvelope) {
  const { data: endpoints } = await WebhookEndpoint.query
    .byProject({ projectId: envelope.projectId, env: envelope.env })
    .go({ pages: 'all' });
  const jobs: DeliveryJob[] = endpoints
    // An endpoint registered after the event happened does not receive it, however late the queue runs.
    .filter(
      (e) =>
        e.enabled &&
        e.createdAt <= envelope.timestamp &&
        matchesFilter(e.events, envelope.event) &&
        aboutEndpoint(envelope.data) !== e.webhookId,
    )
    .map((e) => ({
      kind: 'delivery',
      deliveryId: deliveryIdFor(envelope.id, e.webhookId),
      webhookId: e.webhookId,
      accountId: envelope.accountId,
      projectId: envelope.projectId,
      env: envelope.env,
      event: envelope.event,
      timestamp: envelope.timestamp,
      data: envelope.data,
      attempt: 1,
    }));
  // One outbox item per job, named by its delivery id: a redelivered event writes the same items again.
  for (let i = 0; i < jobs.length; i += 100) {
    const chunk = jobs.slice(i, i + 100);
    await commit({
      items: () => ({ jobs: chunk.map((job) => outboxItem(webhooksQueue, job, { id: `job-${job.deliveryId}-1` })) }),
      exhausted: () => new Error(`Fan-out of event ${envelope.id} kept colliding`),
    });
  }
}

interface Outcome {
  ok: boolean;
  statusCode?: number;
  /** Seconds a 429 or 503 asked to wait (its Retry-After), within MAX_RETRY_AFTER_SECONDS. */
  retryAfter?: number;
  error?: string;
  /** Fingerprints of the secrets that signed it (none when the target was refused before signing). */
  signedWith?: string[];
}

/** A receiver's reply is drained up to this much and then cut off: only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

class DeliveryTimeout extends Error {}

/**
 * POSTs to the checked addresses only: the connection's lookup answers with them instead of asking
 * DNS again (which could answer differently by now). The Host header and TLS server name stay the
 * URL's host, so certificates are still verified against the name. Resolves with the status.
 */
function send(
  target: PinnedTarget,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; retryAfter?: string }> {
  const families = target.addresses.map((address) => ({ address, family: isIP(address) }));
  const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
    const candidates = options.family ? families.filter((a) => a.family === options.family) : families;
    if (candidates.length === 0) {
      callback(Object.assign(new Error(`No checked IPv${options.family} address`), { code: 'ENOTFOUND' }), '', 0);
    } else if (options.all) {
      (callback as unknown as (err: null, addresses: LookupAddress[]) => void)(null, candidates);
    } else {
      const [first] = candidates as [LookupAddress, ...LookupAddress[]];
      callback(null, first.address, first.family);
    }
  };
  return new Promise((resolve, reject) => {
    let status: number | undefined;
    let retryAfter: string | undefined;
    const req = (target.url.protocol === 'https:' ? https : http).request(
      {
        method: 'POST',
        hostname: target.host,
        port: target.url.port || undefined,
        path: target.url.pathname + target.url.search,
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        lookup: pinnedLookup,
        // A fresh connection per attempt: a pooled socket would skip the pinned lookup.
        agent: false,
      },
      (res) => {
        status = res.statusCode;
        const header = res.headers['retry-after'];
        retryAfter = Array.isArray(header) ? header[0] : header;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    // One deadline for connecting, sending and reading the reply; a status already received stands.
    const timer = setTimeout(() => finish(new DeliveryTimeout()), DELIVERY_TIMEOUT_MS);
    function finish(err?: Error) {
      clearTimeout(timer);
      req.destroy();
      if (status !== undefined) resolve({ status, ...(retryAfter === undefined ? {} : { retryAfter }) });
      else reject(err ?? new Error('The connection closed without a response'));
    }
    req.on('error', finish);
    req.end(body);
  });
}

/** The secrets that sign now: the current one, then those a rotation keeps valid until their overlap ends. */
export function signingSecrets(
  endpoint: { webhookId: string; sealedSecret: string; previousSecrets?: { sealed: string; until: string }[] },
  now = Date.now(),
) {
  const current = openSecret(endpoint.sealedSecret, endpoint.webhookId);
  const previous = (endpoint.previousSecrets ?? [])
    .filter((p) => Date.parse(p.until) > now)
    .map((p) => openSecret(p.sealed, endpoint.webhookId));
  return [current, ...previous];
}

/**
 * A delivery's headers: the spec's (X-Service-*: the event, a hex body signature per valid secret) and
 * Standard Webhooks' (`webhook-id` the delivery id, the same on every attempt and recovery;
 * `webhook-timestamp` this attempt's time in seconds, signed with the id and the body, so a captured
 * delivery cannot be replayed later or altered).
 */
export function deliveryHeaders(job: DeliveryJob, body: string, secrets: string[], now = Date.now()) {
  const timestamp = String(Math.floor(now / 1000));
  return {
    'Content-Type': 'application/json',
    'X-Service-Event': job.event,
    'X-Service-Signature': secrets.map((secret) => signPayload(body, secret)).join(' '),
    'X-Service-Delivery': job.deliveryId,
    'X-Service-Timestamp': job.timestamp,
    'webhook-id': job.deliveryId,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => standardSignature(job.deliveryId, timestamp, body, secret)).join(' '),
  };
}

async function post(
  endpoint: {
    webhookId: string;
    url: string;
    format: 'json' | 'chat';
    sealedSecret: string;
    previousSecrets?: { sealed: string; until: string }[];
  },
  job: DeliveryJob,
  resolve?: HostResolver,
): Promise<Outcome> {
  // Again at delivery: the name may have been re-pointed at an internal address since registration.
  const target = await pinWebhookTarget(endpoint.url, resolve);
  if ('refused' in target) return { ok: false, error: `Target refused: ${target.refused}` };
  const body = deliveryBody(endpoint.format, job.event, job.timestamp, job.data);
  const secrets = signingSecrets(endpoint);
  const signedWith = secrets.map(secretFingerprint);
  try {
    const answer = await send(target, deliveryHeaders(job, body, secrets), body);
    const status = answer.status;
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, signedWith };
    const error = status >= 300 && status < 400 ? `Redirect (HTTP ${status}) not followed` : `HTTP ${status}`;
    // A receiver that asks for time (429, or 503 while it is down for maintenance) gets it.
    const retryAfter = status === 429 || status === 503 ? retryAfterSeconds(answer.retryAfter) : undefined;
    return { ok: false, statusCode: status, error, signedWith, ...(retryAfter ? { retryAfter } : {}) };
  } catch (err) {
    if (err instanceof DeliveryTimeout)
      return { ok: false, error: `Timed out after ${DELIVERY_TIMEOUT_MS / 1000} s`, signedWith };
    const e = err as NodeJS.ErrnoException;
    return { ok: false, error: `Connection failed: ${e.code ?? e.message}`, signedWith };
  }
}

/** The next attempt of a job, as an outbox item: on the queue with a delay, or through a one-time schedule. */
function retryItem(job: DeliveryJob, delaySeconds: number, at: Date) {
  const next: DeliveryJob = { ...job, attempt: job.attempt + 1 };
  const id = `job-${job.deliveryId}-${next.attempt}`;
  return delaySeconds <= MAX_QUEUE_DELAY_SECONDS
    ? outboxItem(webhooksQueue, next, { id, delaySeconds })
    : outboxItem(webhooksQueue, next, { id, at });
}

/**
 * An endpoint's rate limit: each delivery takes a slot of its second in a shared counter (one
 * UpdateItem); one over the limit goes back on the queue without an attempt, for as many seconds as
 * there are deliveries ahead of it in this second, so a backlog spreads out instead of retrying in a
 * herd. Answers true when the job was put back.
 */
async function waitForSlot(job: DeliveryJob, limit: number): Promise<boolean> {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  const taken = await addToWindow(`webhook:${job.webhookId}`, second, 1, now);
  if (taken <= limit) return false;
  const delaySeconds = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil((taken - limit) / limit));
  await commit({
    items: () => ({
      wait: outboxItem(webhooksQueue, job, { id: `job-${job.deliveryId}-${job.attempt}-wait-${second}`, delaySeconds }),
    }),
    // A copy of this job SQS handed out twice put it back already.
    refused: () => 'stop',
    exhausted: () => new Error(`Putting delivery ${job.deliveryId} back kept colliding`),
  });
  return true;
}

/** One attempt of one job: POST, log the attempt, then retry, dead-letter or disable as the outcome says. */
export async function attemptDelivery(job: DeliveryJob, options: { resolve?: HostResolver } = {}) {
  const key = { projectId: job.projectId, env: job.env, webhookId: job.webhookId };
  const { data: endpoint } = await WebhookEndpoint.get(key).go();
  // A deleted endpoint's pending retries end here; a disabled or unsubscribed one gets nothing more.
  if (!endpoint) return;
  if (!job.test && (!endpoint.enabled || !matchesFilter(endpoint.events, job.event))) return;
  if (!job.test && endpoint.rateLimitPerSecond && (await waitForSlot(job, endpoint.rateLimitPerSecond))) return;

  const started = Date.now();
  const outcome = await post(endpoint, job, options.resolve);
  const now = Date.now();

  let disable: string | undefined;
  let retry: { delaySeconds: number; at: Date } | undefined;
  if (!outcome.ok && !job.test) {
    if (outcome.statusCode === 410) disable = 'The endpoint answered 410 Gone.';
    else if (endpoint.failingSince && now - Date.parse(endpoint.failingSince) >= DISABLE_AFTER_MS) {
      disable = 'Every delivery attempt failed for 5 days.';
    } else if (job.attempt < MAX_ATTEMPTS) {
      const delaySeconds = outcome.retryAfter ?? jitteredDelaySeconds(job.attempt);
      retry = { delaySeconds, at: new Date(now + delaySeconds * 1000) };
    }
  }

  const failing = !outcome.ok && !job.test;
  // The attempt's record, what it changes on the endpoint and its follow-up (a retry or the dead
  // letter) are one transaction; the record is conditional on (delivery, attempt), so a copy of the
  // job SQS hands out twice adds none of them a second time.
  await commit({
    items: () => ({
      attempt: put(
        WebhookDelivery.create({
          ...key,
          deliveryId: job.deliveryId,
          attempt: job.attempt,
          event: job.event,
          statusCode: outcome.statusCode,
          durationMs: now - started,
          error: disable ? `${outcome.error}. Endpoint disabled: ${disable}` : outcome.error,
          createdAt: new Date(started).toISOString(),
          nextRetryAt: retry?.at.toISOString(),
          signedWith: outcome.signedWith,
          expiresAt: ttlIn(LOG_TTL_SECONDS),
        }),
      ),
      endpoint: job.test
        ? false
        : outcome.ok
          ? !!endpoint.failingSince && update(WebhookEndpoint.patch(key).remove(['failingSince']))
          : disable
            ? update(WebhookEndpoint.patch(key).set({ enabled: false, disabledReason: disable }))
            : !endpoint.failingSince &&
              update(WebhookEndpoint.patch(key).set({ failingSince: new Date(now).toISOString() })),
      retry: failing && retry && retryItem(job, retry.delaySeconds, retry.at),
      health: !job.test && healthEvents(job, endpoint, { ok: outcome.ok, ...(disable ? { disable } : {}) }, now),
      deadLetter:
        failing &&
        !retry &&
        put(
          WebhookDeadLetter.create({
            ...key,
            deliveryId: job.deliveryId,
            event: job.event,
            timestamp: job.timestamp,
            data: JSON.stringify(job.data),
            attempts: job.attempt,
            lastError: outcome.error ?? 'Delivery failed',
            expiresAt: ttlIn(LOG_TTL_SECONDS),
          }),
        ),
    }),
    // An endpoint deleted meanwhile keeps nothing; the attempt is still recorded.
    optional: ['endpoint'],
    refused: (names) => (names.has('attempt') ? 'stop' : undefined),
    exhausted: () => new Error(`Recording delivery ${job.deliveryId} attempt ${job.attempt} kept colliding`),
  });
  if (disable) logger.warn('Webhook endpoint disabled', { webhookId: job.webhookId, reason: disable });
  if (failing && !retry)
    logger.warn('Webhook delivery dead-lettered', {
      webhookId: job.webhookId,
      deliveryId: job.deliveryId,
      attempts: job.attempt,
    });
}

/** The webhooks queue carries both emitted events (fanned out) and delivery jobs (attempted). */
export const handleWebhookMessage = (message: WebhookMessage) =>
  'kind' in message ? attemptDelivery(message) : fanOut(message);
