import * as v from 'valibot';
import type { Environment } from '../auth/entities.js';
import { PLANS } from '../auth/plans.js';
import { LOG_LEVELS } from '../logs/values.js';
import { EVENT_NAMES } from '../webhooks/values.js';

/**
 * The message each queue carries, as valibot schemas: producers are type-checked against them
 * (`enqueue`) and consumers validate every record with them (`consumer`). Only valibot and constant
 * lists are imported here, so CDK and the local stack can load the registry without domain code.
 * Objects are not strict: a producer one release ahead may add a field without poisoning the queue.
 */

const environment = v.picklist(['live', 'sandbox'] as const satisfies readonly Environment[]);
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const data = v.record(v.string(), v.unknown());

/** emails: one send to deliver, with the tenant it belongs to (the API's context without the key). */
export const emailDelivery = v.object({
  emailId: v.string(),
  ctx: v.object({
    accountId: v.string(),
    plan: v.picklist(PLANS),
    allowances: v.object({ tickets: count, emails: count, logEvents: count, storageBytes: count }),
    env: environment,
    projectId: v.string(),
    projectSlug: v.string(),
    project: v.object({ id: v.string(), slug: v.string(), name: v.string(), senderEmail: v.optional(v.string()) }),
  }),
});

/** webhooks: a domain event to fan out (`EventEnvelope`) or one attempt at one endpoint (`DeliveryJob`). */
const webhookEvent = v.object({
  id: v.string(),
  event: v.picklist(EVENT_NAMES),
  timestamp: v.string(),
  accountId: v.string(),
  projectId: v.string(),
  env: environment,
  data,
});
const webhookDelivery = v.object({
  kind: v.literal('delivery'),
  deliveryId: v.string(),
  webhookId: v.string(),
  accountId: v.string(),
  projectId: v.string(),
  env: environment,
  event: v.picklist(EVENT_NAMES),
  timestamp: v.string(),
  data,
  attempt: v.pipe(v.number(), v.integer(), v.minValue(1)),
  test: v.optional(v.boolean()),
});
export const webhookMessage = v.union([webhookDelivery, webhookEvent]);

/** logs: one fingerprint's new events of one ingest request (logs/events.ts `GroupingMessage`). */
export const logGrouping = v.object({
  projectId: v.string(),
  env: environment,
  issueId: v.string(),
  fingerprint: v.string(),
  title: v.string(),
  scope: v.optional(v.string()),
  events: v.array(v.object({ id: v.string(), level: v.picklist(LOG_LEVELS), timestamp: v.string() })),
  learn: v.optional(v.boolean()),
  previousIssueId: v.optional(v.string()),
});

/** articleIndex: an article whose search entry must be rebuilt (or removed). */
export const articleIndex = v.object({ projectId: v.string(), env: environment, articleId: v.string() });

const recipients = v.optional(v.array(v.looseObject({ emailAddress: v.string() })));
/** The parts of an SES event (configuration set event publishing) the service reads; the rest is kept. */
export const sesEvent = v.looseObject({
  eventType: v.optional(v.string()),
  /** The older notification format names the type here. */
  notificationType: v.optional(v.string()),
  mail: v.looseObject({ messageId: v.optional(v.string()), tags: v.optional(v.record(v.string(), v.array(v.string()))) }),
  bounce: v.optional(v.looseObject({ bounceType: v.optional(v.string()), bouncedRecipients: recipients })),
  complaint: v.optional(v.looseObject({ complainedRecipients: recipients })),
});

/** An SNS notification (SES -> SNS -> SQS) whose `Message` is `inner` as JSON text. */
const inSnsEnvelope = <S extends v.GenericSchema>(inner: S) =>
  v.pipe(
    v.looseObject({ Type: v.literal('Notification'), Message: v.string() }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        return JSON.parse(dataset.value.Message) as unknown;
      } catch {
        addIssue({ message: 'The SNS Message is not JSON' });
        return NEVER;
      }
    }),
    inner,
  );

/** sesEvents: the bare SES event (EventBridge rule, local simulator) or one wrapped by SNS; both give the event. */
export const sesEventMessage = v.union([inSnsEnvelope(sesEvent), sesEvent]);

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
    action: v.looseObject({ type: v.literal('S3'), bucketName: v.string(), objectKey: v.string() }),
  }),
});
/** Also in SNS's envelope, should the subscription not use raw message delivery. */
export const inboundMail = v.union([inSnsEnvelope(receivedMail), receivedMail]);
