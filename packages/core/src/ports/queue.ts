import { env, localCredentials } from '../config.js';
import type { QueueName } from './queues.js';

// The SQS client loads on the first send: reads never enqueue, so they do not pay for it at cold start.
let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-sqs'); sqs: import('@aws-sdk/client-sqs').SQSClient }> | undefined;
const client = () =>
  (loaded ??= import('@aws-sdk/client-sqs').then((sdk) => {
    const endpoint = env.endpoint('sqs');
    return { sdk, sqs: new sdk.SQSClient({ region: env.region, ...(endpoint ? { endpoint, credentials: localCredentials('other') } : {}) }) };
  }));

const urlOf = (queue: QueueName) => {
  const url = env.queueUrl(queue);
  if (!url) throw new Error(`Queue ${queue} is not configured (QUEUE_URL_${queue.toUpperCase()})`);
  return url;
};

/**
 * JSON with every non-ASCII character escaped (\uXXXX, surrogate pairs as two escapes): the same value
 * for JSON.parse, but a body no SQS implementation can refuse for its characters (the local stand-in
 * rejects characters outside the Basic Multilingual Plane, such as emoji).
 */
export const encodeMessage = (message: unknown) =>
  JSON.stringify(message).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export interface EnqueueOptions {
  /** Up to 900 seconds (SQS's maximum). */
  delaySeconds?: number;
}

export async function enqueue(queue: QueueName, message: unknown, options: EnqueueOptions = {}) {
  const { sdk, sqs } = await client();
  await sqs.send(
    new sdk.SendMessageCommand({
      QueueUrl: urlOf(queue),
      MessageBody: encodeMessage(message),
      ...(options.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.round(options.delaySeconds))) } : {}),
    }),
  );
}

/** Sends many messages, ten per SQS request; throws if any entry failed. */
export async function enqueueMany(queue: QueueName, messages: unknown[]) {
  const { sdk, sqs } = await client();
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const out = await sqs.send(
      new sdk.SendMessageBatchCommand({
        QueueUrl: urlOf(queue),
        Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: encodeMessage(m) })),
      }),
    );
    if (out.Failed?.length) throw new Error(`SQS rejected ${out.Failed.length} messages on ${queue}: ${out.Failed[0]?.Message}`);
  }
}
