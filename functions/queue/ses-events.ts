import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { handleSesEvent, parseSesEvent } from '@helpdesk/core/emails/ses-events';
import { logger } from '@helpdesk/core/logger';

/** SES events queue consumer (configuration set -> SNS -> SQS in AWS): bounces, complaints, deliveries. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const results = await Promise.allSettled(event.Records.map((record) => handleSesEvent(parseSesEvent(record.body))));
  const batchItemFailures = results.flatMap((result, i) => {
    if (result.status === 'fulfilled') return [];
    logger.error('SES event failed; SQS will redeliver it', { messageId: event.Records[i]!.messageId, error: result.reason as Error });
    return [{ itemIdentifier: event.Records[i]!.messageId }];
  });
  return { batchItemFailures };
};
