import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '@helpdesk/core/logger';
import { handleWebhookMessage, type WebhookMessage } from '@helpdesk/core/webhooks/deliver';

/**
 * Webhooks queue consumer: events fan out to delivery jobs, jobs are attempted. Records run
 * concurrently, so one endpoint's 5 s timeout holds up nobody else in the batch; a failed POST is
 * not a failed record (it is retried on its own schedule), only an infrastructure error is.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const results = await Promise.allSettled(
    event.Records.map(async (record) => handleWebhookMessage(JSON.parse(record.body) as WebhookMessage)),
  );
  const batchItemFailures = results.flatMap((result, i) => {
    if (result.status === 'fulfilled') return [];
    logger.error('Webhook message failed; SQS will redeliver it', { messageId: event.Records[i]!.messageId, error: result.reason as Error });
    return [{ itemIdentifier: event.Records[i]!.messageId }];
  });
  return { batchItemFailures };
};
