import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { HelpdeskFunction } from './functions.js';

export interface ObservabilityProps {
  stage: string;
  httpApi: apigw.HttpApi;
  /** Work queues: their oldest message's age says a consumer is stuck or too slow. */
  queues: Record<string, sqs.IQueue>;
  deadLetterQueues: Record<string, sqs.IQueue>;
  /** The outbox relay: its iterator age says side effects wait on the stream. */
  relay: HelpdeskFunction;
  functions: Record<string, HelpdeskFunction>;
  /** Existing SNS topic to notify; without one the alarms only change state (visible in the console). */
  alarmTopicArn?: string;
}

/** A queue's oldest message may wait this long (retries back off for minutes) before anyone is told. */
const OLDEST_MESSAGE_ALARM_SECONDS = 30 * 60;
/** The relay reads new outbox items within seconds; a minute behind means side effects are waiting. */
const RELAY_ITERATOR_AGE_ALARM_MS = 60_000;

/**
 * Alarms: any message in a dead-letter queue (the relay's included), the age of every queue's oldest
 * message, the relay's iterator age, API 5xx answers, Lambda errors and throttles.
 * Log groups with retention are created next to what writes them (functions, API access logs).
 */
export class Observability extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const action = props.alarmTopicArn
      ? new actions.SnsAction(sns.Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn))
      : undefined;
    const alarm = (alarmId: string, description: string, metric: cloudwatch.IMetric, threshold: number) => {
      const a = new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: `helpdesk-${props.stage}: ${description}`,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      if (action) a.addAlarmAction(action);
      this.alarms.push(a);
      return a;
    };

    for (const [name, dlq] of Object.entries(props.deadLetterQueues)) {
      alarm(
        `${name}DlqAlarm`,
        `messages in the ${name} dead-letter queue`,
        dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        1,
      );
    }
    for (const [name, queue] of Object.entries(props.queues)) {
      alarm(
        `${name}OldestMessageAlarm`,
        `the oldest message on the ${name} queue waited over ${OLDEST_MESSAGE_ALARM_SECONDS / 60} minutes`,
        queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
        OLDEST_MESSAGE_ALARM_SECONDS,
      );
    }
    alarm(
      'OutboxRelayIteratorAgeAlarm',
      'the outbox relay is over a minute behind the table stream',
      props.relay.fn.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
      RELAY_ITERATOR_AGE_ALARM_MS,
    );
    alarm(
      'Api5xxAlarm',
      'API answered 5xx',
      props.httpApi.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
      5,
    );
    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(`${name}ErrorsAlarm`, `${name} Lambda errors`, fn.fn.metricErrors({ period: Duration.minutes(5) }), 5);
      alarm(
        `${name}ThrottlesAlarm`,
        `${name} Lambda throttled`,
        fn.fn.metricThrottles({ period: Duration.minutes(5) }),
        1,
      );
    }
  }
}
