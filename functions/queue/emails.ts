import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DeliveryMessage } from '@helpdesk/core/emails/create';
import { deliverEmail } from '@helpdesk/core/emails/deliver';
import { logger } from '@helpdesk/core/logger';

/** Email queue consumer: each record is one send; records run side by side, failures are redelivered by SQS. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const results = await Promise.allSettled(event.Records.map((record) => deliverEmail(JSON.parse(record.body) as DeliveryMessage)));
  const batchItemFailures = results.flatMap((result, i) => {
    if (result.status === 'fulfilled') return [];
    logger.error('Email delivery failed; SQS will redeliver it', { messageId: event.Records[i]!.messageId, error: result.reason as Error });
    return [{ itemIdentifier: event.Records[i]!.messageId }];
  });
  return { batchItemFailures };
};
