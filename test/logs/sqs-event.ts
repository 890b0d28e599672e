import { randomUUID } from 'node:crypto';
import type { GroupingMessage } from '@helpdesk/core/areas/logs/events';
import type { SQSEvent } from 'aws-lambda';

/** An SQS delivery of grouping messages, as the logs queue hands them to the consumer. */
export const sqsEvent = (messages: GroupingMessage[]): SQSEvent => ({
  Records: messages.map((m) => ({
    messageId: randomUUID(),
    receiptHandle: 'r',
    body: JSON.stringify(m),
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '0',
      SenderId: 's',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:logs',
    awsRegion: 'us-east-1',
  })),
});
