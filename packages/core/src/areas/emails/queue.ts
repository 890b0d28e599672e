import * as v from 'valibot';
import { defineQueue } from '../../kernel/ports/queue.js';
import { inSnsEnvelope } from '../../kernel/ports/sns.js';
import { ENVIRONMENTS, PLANS } from '../../kernel/tenant.js';
import { DELIVERY_SECONDS } from './values.js';

const environment = v.picklist(ENVIRONMENTS);
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** emails: one send to deliver, with the tenant it belongs to (the API's context without the key). */
const emailDelivery = v.object({
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

/**
 * A console sign-in request, mailed by the consumer: the request itself does the same work for a
 * member and a stranger (it queues this), so its timing tells nobody which addresses are members.
 */
const signInRequest = v.object({ kind: v.literal('console-sign-in'), email: v.pipe(v.string(), v.maxLength(254)) });

export const emailsQueue = defineQueue({
  name: 'emails',
  consumer: 'emails',
  batchSize: 10,
  visibilityTimeout: DELIVERY_SECONDS,
  maxReceiveCount: 5,
  message: v.union([signInRequest, emailDelivery]),
});
export type DeliveryMessage = v.InferOutput<typeof emailDelivery>;
export type SignInRequest = v.InferOutput<typeof signInRequest>;

const recipients = v.optional(v.array(v.looseObject({ emailAddress: v.string() })));
/** The parts of an SES event (configuration set event publishing) the service reads; the rest is kept. */
const sesEvent = v.looseObject({
  eventType: v.optional(v.string()),
  /** The older notification format names the type here. */
  notificationType: v.optional(v.string()),
  mail: v.looseObject({
    messageId: v.optional(v.string()),
    tags: v.optional(v.record(v.string(), v.array(v.string()))),
  }),
  bounce: v.optional(v.looseObject({ bounceType: v.optional(v.string()), bouncedRecipients: recipients })),
  complaint: v.optional(v.looseObject({ complainedRecipients: recipients })),
  delivery: v.optional(
    v.looseObject({ timestamp: v.optional(v.string()), recipients: v.optional(v.array(v.string())) }),
  ),
  deliveryDelay: v.optional(v.looseObject({ timestamp: v.optional(v.string()), delayType: v.optional(v.string()) })),
  reject: v.optional(v.looseObject({ reason: v.optional(v.string()) })),
  failure: v.optional(v.looseObject({ errorMessage: v.optional(v.string()) })),
  open: v.optional(v.looseObject({ timestamp: v.optional(v.string()) })),
  click: v.optional(v.looseObject({ timestamp: v.optional(v.string()), link: v.optional(v.string()) })),
});

/** sesEvents: the bare SES event (EventBridge rule, local simulator) or one wrapped by SNS; both give the event. */
const sesEventMessage = v.union([inSnsEnvelope(sesEvent), sesEvent]);

export const sesEventsQueue = defineQueue({
  name: 'sesEvents',
  consumer: 'ses-events',
  batchSize: 10,
  visibilityTimeout: 60,
  maxReceiveCount: 5,
  message: sesEventMessage,
});
export type SesEvent = v.InferOutput<typeof sesEventMessage>;
