import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { awsClientConfig } from '@helpdesk/core/kernel/config';
import { redriveOutbox, scanOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { QUEUE_NAMES } from '@helpdesk/core/top/queues/registry';
import { UsageError } from './args.js';

/** The relay's dead-letter queue (deployed only: the local relay retries in place). */
export const RELAY_DLQ = 'outbox';

export interface DeadLetterQueue {
  /** A queue of the registry, or `outbox` for the relay's. */
  name: string;
  url: string;
  /** Where its messages go back to; none for the relay's (its messages describe stream batches). */
  sourceUrl?: string;
}

const sqs = () => new SQSClient(awsClientConfig('sqs'));

/**
 * The stage's dead-letter queues. Locally the stack file names them (main.ts sets DLQ_URL_*);
 * deployed, CloudFormation names each queue `<stack>-<logical id>-<suffix>` (stack `Helpdesk-<stage>`,
 * logical ids `Async<name>Queue…`, `Async<name>Dlq…`, `OutboxDlq…`), so one ListQueues finds them.
 */
export async function deadLetterQueues(): Promise<DeadLetterQueue[]> {
  const local = QUEUE_NAMES.filter((q) => process.env[`DLQ_URL_${q.toUpperCase()}`]);
  if (local.length) {
    return local.map((q) => ({
      name: q,
      url: process.env[`DLQ_URL_${q.toUpperCase()}`] as string,
      sourceUrl: process.env[`QUEUE_URL_${q.toUpperCase()}`],
    }));
  }
  const prefix = `Helpdesk-${process.env.STAGE}-`;
  const urls: string[] = [];
  const client = sqs();
  let NextToken: string | undefined;
  do {
    const out = await client.send(new ListQueuesCommand({ QueueNamePrefix: prefix, NextToken, MaxResults: 1000 }));
    urls.push(...(out.QueueUrls ?? []));
    NextToken = out.NextToken;
  } while (NextToken);
  const find = (part: string) => urls.find((u) => (u.split('/').pop() ?? '').startsWith(prefix + part));
  const found: DeadLetterQueue[] = [];
  for (const q of QUEUE_NAMES) {
    const url = find(`Async${q}Dlq`);
    if (url) found.push({ name: q, url, sourceUrl: find(`Async${q}Queue`) });
  }
  const relay = find('OutboxDlq');
  if (relay) found.push({ name: RELAY_DLQ, url: relay });
  if (!found.length) throw new UsageError(`No queues named ${prefix}… in this region (is STAGE right?)`);
  return found;
}

export async function queueNamed(name: string) {
  const all = await deadLetterQueues();
  const queue = all.find((q) => q.name === name);
  if (!queue) throw new UsageError(`--queue must be one of ${all.map((q) => q.name).join(', ')}`);
  return queue;
}

/** Up to ten messages left visible (a dead-letter queue has no redrive policy: receiving costs nothing). */
async function peek(url: string) {
  const out = await sqs().send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: 0,
      MessageSystemAttributeNames: ['SentTimestamp', 'ApproximateReceiveCount'],
    }),
  );
  return out.Messages ?? [];
}

/** Each dead-letter queue's depth, and its first messages (id, when it was first sent, the body's start). */
export async function listDeadLetters() {
  const client = sqs();
  return Promise.all(
    (await deadLetterQueues()).map(async (q) => {
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: q.url, AttributeNames: ['ApproximateNumberOfMessages'] }),
      );
      const depth = Number(Attributes?.ApproximateNumberOfMessages ?? 0);
      const sample = depth ? await peek(q.url) : [];
      return {
        queue: q.name,
        messages: depth,
        sample: sample.map((m) => ({
          id: m.MessageId,
          sentAt: m.Attributes?.SentTimestamp ? new Date(Number(m.Attributes.SentTimestamp)).toISOString() : null,
          body: (m.Body ?? '').slice(0, 300),
        })),
      };
    }),
  );
}

/** The time window of the stream batch a relay dead letter describes (Lambda's on-failure record). */
function batchWindow(message: Message) {
  try {
    const info = (JSON.parse(message.Body ?? '') as { DDBStreamBatchInfo?: Record<string, string> }).DDBStreamBatchInfo;
    if (!info?.approximateArrivalOfFirstRecord || !info.approximateArrivalOfLastRecord) return undefined;
    // A second on either side: arrival times are approximate, and a redriven item that was relayed is a no-op.
    const since = new Date(Date.parse(info.approximateArrivalOfFirstRecord) - 1000).toISOString();
    const until = new Date(Date.parse(info.approximateArrivalOfLastRecord) + 1000).toISOString();
    return { since, until };
  } catch {
    return undefined;
  }
}

/**
 * Moves dead letters back: a queue's to the queue they came from (FIFO keeps their message group),
 * the relay's by marking the outbox items of each failed batch's time window for a redrive. A message
 * leaves the dead-letter queue only once it is back where it came from.
 */
export async function redriveDeadLetters(queue: DeadLetterQueue, limit = Number.POSITIVE_INFINITY) {
  const client = sqs();
  let moved = 0;
  let items = 0;
  const skipped: string[] = [];
  while (moved + skipped.length < limit) {
    const out = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queue.url,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 60,
        MessageSystemAttributeNames: ['MessageGroupId'],
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = (out.Messages ?? []).slice(0, limit - moved - skipped.length);
    if (!messages.length) break;
    const done: Message[] = [];
    if (queue.sourceUrl) {
      const fifo = queue.sourceUrl.endsWith('.fifo');
      const sent = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: queue.sourceUrl,
          Entries: messages.map((m, i) => ({
            Id: String(i),
            MessageBody: m.Body ?? '',
            MessageAttributes: m.MessageAttributes,
            ...(fifo
              ? { MessageGroupId: m.Attributes?.MessageGroupId ?? 'none', MessageDeduplicationId: m.MessageId }
              : {}),
          })),
        }),
      );
      const failed = new Set((sent.Failed ?? []).map((f) => Number(f.Id)));
      for (const [i, m] of messages.entries()) {
        if (failed.has(i)) skipped.push(m.MessageId ?? '');
        else done.push(m);
      }
    } else {
      for (const m of messages) {
        const window = batchWindow(m);
        if (!window) {
          skipped.push(m.MessageId ?? '');
          continue;
        }
        items += await redriveOutbox(await scanOutbox(window));
        done.push(m);
      }
    }
    if (done.length) {
      await client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queue.url,
          Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
        }),
      );
    }
    moved += done.length;
  }
  return { queue: queue.name, redriven: moved, ...(queue.sourceUrl ? {} : { outboxItems: items }), skipped };
}
