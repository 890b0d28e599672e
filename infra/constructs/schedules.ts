import { type RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface SchedulesProps {
  stage: string;
  /** The queues schedules put their message on when they fall due (scheduled sends, late webhook retries). */
  targetQueues: sqs.IQueue[];
  removalPolicy: RemovalPolicy;
}

/**
 * EventBridge Scheduler: one schedule group per stage for the one-time schedules that core's
 * `scheduleOnce` creates (packages/core/src/kernel/ports/scheduler.ts), and the role those schedules run as.
 */
export class Schedules extends Construct {
  readonly group: scheduler.ScheduleGroup;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.group = new scheduler.ScheduleGroup(this, 'Group', {
      scheduleGroupName: `helpdesk-${props.stage}`,
      removalPolicy: props.removalPolicy,
    });
    this.role = new iam.Role(this, 'TargetRole', {
      description: 'Assumed by EventBridge Scheduler to put due messages on the emails and webhooks queues',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'scheduler',
              resource: 'schedule',
              resourceName: `${this.group.scheduleGroupName}/*`,
            }),
          },
        },
      }),
    });
    for (const queue of props.targetQueues) queue.grantSendMessages(this.role);
  }
}
