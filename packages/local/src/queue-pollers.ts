import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { markConsumed, parseOutboxKey } from '@helpdesk/core/kernel/ports/outbox';
import { OUTBOX_ATTRIBUTE } from '@helpdesk/core/kernel/ports/queue';
import { QUEUE_NAMES, QUEUES, type QueueName } from '@helpdesk/core/top/queues/registry';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { loadHandler, projectRoot } from './handlers.js';
import { lambdaContext } from './lambda-context.js';

const BATCHES_IN_FLIGHT = 4;

/**
 * Emulates Lambda's SQS event source mapping: long-polls each queue, invokes its consumer with the
 * same event shape and batch size, deletes the records that succeeded and leaves the reported
 * failures to reappear after the visibility timeout (and reach the DLQ after maxReceiveCount).
 */
export function startQueuePollers(sqsEndpoint: string, queueUrls: Record<QueueName, string>, only?: QueueName[]) {
  const sqs = new SQSClient({
    endpoint: sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let running = true;
  const busy = new Map<QueueName, number>();

  const pollOnce = async (name: QueueName, waitSeconds: number) => {
    const spec = QUEUES[name];
    const url = queueUrls[name];
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: spec.batchSize,
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    // SQS gives every received message its id and receipt handle.
    const messages = (out.Messages ?? []).map((m) => ({
      ...m,
      MessageId: m.MessageId ?? '',
      ReceiptHandle: m.ReceiptHandle ?? '',
    }));
    if (messages.length === 0) return 0;
    busy.set(name, (busy.get(name) ?? 0) + 1);
    try {
      const event: SQSEvent = {
        Records: messages.map((m) => ({
          messageId: m.MessageId,
          receiptHandle: m.ReceiptHandle,
          body: m.Body ?? '',
          attributes: {
            ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
            SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
            SenderId: m.Attributes?.SenderId ?? 'local',
            ApproximateFirstReceiveTimestamp: m.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
          },
          messageAttributes: Object.fromEntries(
            Object.entries(m.MessageAttributes ?? {}).map(([k, a]) => [
              k,
              { dataType: a.DataType ?? 'String', stringValue: a.StringValue },
            ]),
          ),
          md5OfBody: m.MD5OfBody ?? '',
          eventSource: 'aws:sqs',
          eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${name}`,
          awsRegion: 'us-east-1',
        })),
      };
      let failed = new Set<string>();
      try {
        const handler = await loadHandler('queue', spec.consumer);
        const result = (await handler(
          event,
          lambdaContext(`helpdesk-${spec.consumer}`, spec.visibilityTimeout * 1000),
        )) as SQSBatchResponse | undefined;
        failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      } catch (err) {
        console.error(`[${name}] consumer failed; the batch will be retried`, err);
        failed = new Set(messages.map((m) => m.MessageId));
      }
      const done = messages.filter((m) => !failed.has(m.MessageId));
      if (done.length) {
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: url,
            Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
          }),
        );
      }
      // The queue stand-in forgets messages on a restart, so a message's outbox item counts as pending
      // until now: consumed, or failed for the last time (it moves to the dead-letter queue).
      const finished = messages.filter(
        (m) => !failed.has(m.MessageId) || Number(m.Attributes?.ApproximateReceiveCount ?? 1) >= spec.maxReceiveCount,
      );
      const keys = finished.flatMap((m) => {
        const key = parseOutboxKey(m.MessageAttributes?.[OUTBOX_ATTRIBUTE]?.StringValue ?? '');
        return key ? [key] : [];
      });
      if (keys.length) await markConsumed(keys);
      return messages.length;
    } finally {
      busy.set(name, (busy.get(name) ?? 1) - 1);
    }
  };

  const active = (only ?? QUEUE_NAMES).filter((q) =>
    existsSync(join(projectRoot, 'functions', 'queue', `${QUEUES[q].consumer}.ts`)),
  );
  // Lambda polls a queue with several batches in flight at once; so does this, so one slow batch
  // (a webhook endpoint timing out) does not hold up the messages behind it.
  const loops = active
    .flatMap((name) => Array.from({ length: BATCHES_IN_FLIGHT }, () => name))
    .map(async (name) => {
      while (running) {
        try {
          await pollOnce(name, 1);
        } catch (err) {
          if (running) {
            console.error(`[${name}] poll failed`, (err as Error).message);
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      }
    });

  /** Visible messages waiting on a queue. */
  const waiting = async (name: QueueName) => {
    const out = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrls[name], AttributeNames: ['ApproximateNumberOfMessages'] }),
    );
    return Number(out.Attributes?.ApproximateNumberOfMessages ?? 0);
  };

  return {
    queues: active,
    /** Resolves once every queue has been empty and every consumer idle for two checks in a row. */
    async drain(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let quiet = 0;
      while (quiet < 2) {
        if (Date.now() > deadline) throw new Error('Queues did not drain in time');
        const counts = await Promise.all(active.map(waiting));
        const idle = active.every((q) => (busy.get(q) ?? 0) === 0);
        quiet = idle && counts.every((c) => c === 0) ? quiet + 1 : 0;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      running = false;
      await Promise.allSettled(loops);
      sqs.destroy();
    },
  };
}
