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
  deadLetterQueues: Record<string, sqs.IQueue>;
  functions: Record<string, HelpdeskFunction>;
  /** Existing SNS topic to notify; without one the alarms only change state (visible in the console). */
  alarmTopicArn?: string;
}

/**
 * Alarms: any message in a dead-letter queue, API 5xx answers, Lambda errors and throttles.
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
