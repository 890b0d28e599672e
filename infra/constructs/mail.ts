import { trackingVariants } from '@helpdesk/core/kernel/mail/tracking';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as ses from 'aws-cdk-lib/aws-ses';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface MailProps {
  stage: string;
  /** Receives bounce, complaint, delivery, reject and rendering-failure events. */
  sesEventsQueue: sqs.IQueue;
}

/** SES events the ses-events consumer reads (suppression list, email.bounced webhooks, send status). */
const EVENTS = [
  ses.EmailSendingEvent.SEND,
  ses.EmailSendingEvent.DELIVERY,
  ses.EmailSendingEvent.BOUNCE,
  ses.EmailSendingEvent.COMPLAINT,
  ses.EmailSendingEvent.REJECT,
  ses.EmailSendingEvent.RENDERING_FAILURE,
  ses.EmailSendingEvent.DELIVERY_DELAY,
];

/**
 * SES v2 configuration set. Its event destination is the account's default EventBridge bus (SES can
 * publish only there); a rule forwards this configuration set's events to the sesEvents queue.
 * EventBridge rather than SNS: no topic to encrypt with a customer key that SES, SNS and SQS must all
 * be allowed to use. The SQS message body is the event's `detail`, i.e. the SES event publishing
 * record `{ eventType: 'Bounce', mail: { messageId, tags }, bounce }` (packages/core/src/areas/emails/ses-events.ts).
 */
export class Mail extends Construct {
  /** The base set (no tracking); its name is the stage's SES_CONFIGURATION_SET. */
  readonly configurationSet: ses.ConfigurationSet;
  /** Every set of the stage, one per tracking combination (kernel/mail/tracking.ts names them). */
  readonly configurationSetNames: string[];
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    const base = `helpdesk-${props.stage}`;
    const defaultBus = events.EventBus.fromEventBusName(this, 'DefaultBus', 'default');
    const sets = trackingVariants(base).map(({ name, tracking }) => {
      const set = new ses.ConfigurationSet(
        this,
        name === base ? 'ConfigurationSet' : `ConfigurationSet-${tracking.join('-')}`,
        {
          configurationSetName: name,
          reputationMetrics: true,
          sendingEnabled: true,
          tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
          suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
        },
      );
      // An OPEN or CLICK destination is what makes SES track opens (an image) or clicks (rewritten links).
      set.addEventDestination('ToEventBridge', {
        destination: ses.EventDestination.eventBus(defaultBus),
        events: [
          ...EVENTS,
          ...(tracking.includes('opens') ? [ses.EmailSendingEvent.OPEN] : []),
          ...(tracking.includes('clicks') ? [ses.EmailSendingEvent.CLICK] : []),
        ],
      });
      return set;
    });
    this.configurationSet = sets[0] as ses.ConfigurationSet;
    this.configurationSetNames = trackingVariants(base).map((v) => v.name);
    this.rule = new events.Rule(this, 'SesEventsRule', {
      description: `SES events of configuration sets ${base}* -> sesEvents queue`,
      eventBus: defaultBus,
      eventPattern: {
        source: ['aws.ses'],
        detail: { mail: { tags: { 'ses:configuration-set': this.configurationSetNames } } },
      },
      // Only the SES event itself (`detail`): the same body as SES -> SNS raw delivery, which
      // the sesEvents queue's message schema (queues/messages.ts) accepts as a bare event.
      targets: [
        new targets.SqsQueue(props.sesEventsQueue, { message: events.RuleTargetInput.fromEventPath('$.detail') }),
      ],
    });
  }
}
