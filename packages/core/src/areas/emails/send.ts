import * as v from 'valibot';
import { errors } from '../../kernel/errors/common.js';
import { Problem } from '../../kernel/errors/problem.js';
import { logger } from '../../kernel/logger.js';
import { bareAddress } from '../../kernel/mail/mailbox.js';
import { must } from '../../kernel/must.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { resolveTemplate, templateNotFound } from '../templates/resolve.js';
import { checkLayout, refuseUnplainSubject, renderSubject } from '../templates/subject.js';
import { createEmail, type EmailDraft } from './create.js';
import { idempotent } from './idempotency.js';
import { type SendResult, toSendResult } from './present.js';
import { type BlockReason, batchItem, idempotencyKey, MAX_SCHEDULE_DAYS, type SendBody } from './schemas.js';
import { suppressedAmong } from './suppression.js';

/** Variables are kept on the log row until delivery; DynamoDB items cap at 400 KB. */
const MAX_VARIABLES_JSON = 100_000;
/**
 * Items of a batch in flight at once: a send waits on its round trips, not the CPU. 25 against 10: a
 * 100-item batch 8.6 s -> 6.5 s on the local stack (50 gains nothing more); DynamoDB's own latency is far below.
 */
const BATCH_CONCURRENCY = 25;
const DAY_MS = 24 * 60 * 60 * 1000;

const invalid = (field: string, message: string) => errors.validation([{ field, in: 'body', message }]);

function scheduleTime(iso: string, now = Date.now()) {
  const at = new Date(iso);
  if (at.getTime() <= now) throw invalid('scheduledAt', 'scheduledAt must be in the future.');
  if (at.getTime() > now + MAX_SCHEDULE_DAYS * DAY_MS)
    throw invalid('scheduledAt', `scheduledAt must be at most ${MAX_SCHEDULE_DAYS} days ahead.`);
  return at;
}

async function contentOf(ctx: TenantContext, body: SendBody): Promise<EmailDraft['content']> {
  if (body.templateKey === undefined) {
    if (body.layout !== undefined) await checkLayout(ctx, body.layout);
    return {
      kind: 'custom',
      subject: must(body.subject, 'the subject of a custom send'),
      body: must(body.body, 'the body of a custom send'),
      layout: body.layout,
    };
  }
  const variables = body.variables ?? {};
  if (JSON.stringify(variables).length > MAX_VARIABLES_JSON)
    throw invalid('variables', `variables must serialize to at most ${MAX_VARIABLES_JSON} characters.`);
  const template = await resolveTemplate(ctx, body.templateKey);
  if (!template) throw templateNotFound(body.templateKey);
  const subject = await renderSubject(ctx, template.head, variables);
  refuseUnplainSubject(subject);
  // A mail needs a subject (a custom send's is 1 to 200 characters): refused now, not at delivery.
  if (!subject)
    throw template.head.subject.trim()
      ? invalid('variables', "The template's subject renders empty with these variables.")
      : invalid(
          'templateKey',
          `The template ${body.templateKey} has no subject: import it with one (the subject field or a subject comment).`,
        );
  return { kind: 'template', templateKey: body.templateKey, templateVersion: template.version, variables, subject };
}

async function send(ctx: TenantContext, body: SendBody, suppression?: BlockReason | null): Promise<SendResult> {
  const scheduledAt = body.scheduledAt === undefined ? undefined : scheduleTime(body.scheduledAt);
  const row = await createEmail(ctx, {
    to: body.to,
    cc: body.cc,
    bcc: body.bcc,
    from: body.from,
    replyTo: body.replyTo,
    headers: body.headers,
    metadata: body.metadata,
    tracking: body.tracking,
    scheduledAt,
    content: await contentOf(ctx, body),
    countQuota: true,
    suppression,
  });
  return toSendResult(ctx, row);
}

/** The Idempotency-Key header (at most 256 characters), if sent. */
export function idempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined || key === '') return undefined;
  const parsed = v.safeParse(idempotencyKey, key);
  if (!parsed.success)
    throw errors.validation([{ field: 'Idempotency-Key', in: 'header', message: parsed.issues[0].message }]);
  return parsed.output;
}

/** What an Idempotency-Key compares: addresses by their bare form, so a retry that changes only a display name or letter case replays the first send. */
const idempotencyView = (body: SendBody) => ({
  ...body,
  to: bareAddress(body.to),
  from: body.from && bareAddress(body.from),
  replyTo: body.replyTo && bareAddress(body.replyTo),
  cc: body.cc?.map(bareAddress),
  bcc: body.bcc?.map(bareAddress),
});

/**
 * POST /emails/send: quota, suppression, template check, the log row and the queue (or a schedule).
 * `suppression`: the recipient's, when a batch has read it with the others.
 */
export function sendEmail(
  ctx: TenantContext,
  body: SendBody,
  idempotencyKey?: string,
  suppression?: BlockReason | null,
): Promise<SendResult> {
  return idempotencyKey === undefined
    ? send(ctx, body, suppression)
    : idempotent(ctx, idempotencyKey, idempotencyView(body), () => send(ctx, body, suppression));
}

export type BatchOutcome = SendResult | { index: number; error: { code: string; message: string } };

type ParsedItem = { index: number; body?: SendBody; idempotencyKey?: string; invalid?: string };

function parseItem(item: unknown, index: number): ParsedItem {
  const parsed = v.safeParse(batchItem, item);
  if (!parsed.success) {
    // The catalog's message: the first issues only (a list of 20,000 bad addresses is one line of them).
    const issues = parsed.issues.map((i) => ({
      field: v.getDotPath(i) ?? '(item)',
      in: 'body' as const,
      message: i.message,
    }));
    return { index, invalid: errors.validation(issues).message };
  }
  const { idempotencyKey, ...body } = parsed.output;
  return { index, body, idempotencyKey };
}

async function sendItem(
  ctx: TenantContext,
  item: ParsedItem,
  suppressed: Map<string, BlockReason>,
): Promise<BatchOutcome> {
  const { index } = item;
  if (item.invalid !== undefined || !item.body)
    return { index, error: { code: 'validation.failed', message: item.invalid ?? 'Invalid item' } };
  try {
    return await sendEmail(ctx, item.body, item.idempotencyKey, suppressed.get(bareAddress(item.body.to)) ?? null);
  } catch (err) {
    const known = err instanceof Problem && err.status < 500 ? err : undefined;
    if (!known) logger.error('Batch item failed', { index, error: err as Error });
    const { code, message } = known ?? errors.internal();
    return { index, error: { code, message } };
  }
}

/**
 * POST /emails/batch: every item is a send of its own (validation, idempotency, quota, suppression);
 * a failing item answers `{ index, error }` in its place and never fails the others. Items sharing an
 * idempotencyKey run in order, so the first of them is the original and the rest are its duplicates.
 */
export async function sendBatch(ctx: TenantContext, items: unknown[]): Promise<{ results: BatchOutcome[] }> {
  const lanes = new Map<string | number, ParsedItem[]>();
  items.forEach((raw, index) => {
    const item = parseItem(raw, index);
    const lane = item.idempotencyKey ?? index;
    lanes.set(lane, [...(lanes.get(lane) ?? []), item]);
  });
  const queue = [...lanes.values()];
  // Every recipient's suppression in one BatchGetItem rather than a GetItem per item.
  const suppressed = await suppressedAmong(
    ctx,
    queue.flat().flatMap((item) => (item.body ? [item.body.to] : [])),
  );
  const results: BatchOutcome[] = new Array(items.length);
  const worker = async () => {
    for (let lane = queue.shift(); lane; lane = queue.shift()) {
      for (const item of lane) results[item.index] = await sendItem(ctx, item, suppressed);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, queue.length) }, worker));
  return { results };
}
