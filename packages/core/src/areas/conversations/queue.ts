import * as v from 'valibot';
import { defineQueue } from '../../kernel/ports/queue.js';
import { inSnsEnvelope } from '../../kernel/ports/sns.js';

const verdict = v.optional(v.looseObject({ status: v.string() }));
/**
 * inbound: SES's receipt notification for a mail it stored in the bucket (receipt rule S3 action with
 * an SNS topic, delivered raw to the queue); the local SMTP stand-in sends the same shape.
 */
const receivedMail = v.looseObject({
  notificationType: v.literal('Received'),
  mail: v.looseObject({ messageId: v.string(), source: v.optional(v.string()) }),
  receipt: v.looseObject({
    recipients: v.array(v.string()),
    spamVerdict: verdict,
    virusVerdict: verdict,
    spfVerdict: verdict,
    dkimVerdict: verdict,
    dmarcVerdict: verdict,
    action: v.looseObject({ type: v.literal('S3'), bucketName: v.string(), objectKey: v.string() }),
  }),
});
/** Also in SNS's envelope, should the subscription not use raw message delivery. */
const inboundMail = v.union([inSnsEnvelope(receivedMail), receivedMail]);

export const inboundQueue = defineQueue({
  name: 'inbound',
  consumer: 'inbound',
  batchSize: 5,
  visibilityTimeout: 120,
  maxReceiveCount: 5,
  message: inboundMail,
});
export type ReceivedMail = v.InferOutput<typeof inboundMail>;
