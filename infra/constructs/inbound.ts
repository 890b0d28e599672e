import { INBOUND_PREFIX } from '@helpdesk/core/areas/conversations/values';
import { Aws, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as actions from 'aws-cdk-lib/aws-ses-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface InboundProps {
  stage: string;
  /** The domain whose mail SES receives (its MX record points at SES's inbound endpoint). */
  domain: string;
  bucket: s3.IBucket;
  /** The inbound queue its consumer reads (queues/registry.ts). */
  queue: sqs.IQueue;
  removalPolicy: RemovalPolicy;
}

const SES = new iam.ServicePrincipal('ses.amazonaws.com');

/**
 * SES receiving for the inbound domain (`-c inboundDomain=`): the domain's identity, and a receipt rule
 * set whose one rule scans each mail (spam, virus), stores it raw in the bucket under `inbound/` and
 * notifies a topic delivered raw to the inbound queue, so the consumer gets SES's receipt notification
 * as its message body (queues/messages.ts, inboundMail). The topic is encrypted with a key SES may use.
 * CloudFormation cannot make a rule set active: the README's Inbound mail section has the one command.
 */
export class Inbound extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly ruleSet: ses.ReceiptRuleSet;
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: InboundProps) {
    super(scope, id);
    const sameAccount = { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } };
    const key = new kms.Key(this, 'TopicKey', {
      description: `helpdesk-${props.stage} inbound mail notifications`,
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [SES],
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        resources: ['*'],
        conditions: sameAccount,
      }),
    );
    this.topic = new sns.Topic(this, 'Received', {
      displayName: `helpdesk-${props.stage} received mail`,
      masterKey: key,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [SES],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: sameAccount,
      }),
    );
    this.topic.addSubscription(new subscriptions.SqsSubscription(props.queue, { rawMessageDelivery: true }));

    this.identity = new ses.EmailIdentity(this, 'Domain', { identity: ses.Identity.domain(props.domain) });
    this.ruleSet = new ses.ReceiptRuleSet(this, 'RuleSet', { receiptRuleSetName: `helpdesk-${props.stage}-inbound` });
    this.ruleSet.addRule('Store', {
      recipients: [props.domain],
      scanEnabled: true,
      // Most mail servers offer TLS; a sender without it is still a customer whose mail must not bounce.
      tlsPolicy: ses.TlsPolicy.OPTIONAL,
      actions: [new actions.S3({ bucket: props.bucket, objectKeyPrefix: INBOUND_PREFIX, topic: this.topic })],
    });
  }
}
