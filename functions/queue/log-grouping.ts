import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { GroupingMessage } from '@helpdesk/core/logs/events';
import { groupLogEvents } from '@helpdesk/core/logs/grouping';
import { logger } from '@helpdesk/core/logger';

/**
 * The logs queue's consumer: upserts log issues. Records of one issue run one after another (they
 * would only conflict); different issues run side by side. Failed records are retried by SQS.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const byIssue = new Map<string, { record: SQSRecord; message: GroupingMessage }[]>();
  const failed: string[] = [];
  for (const record of event.Records) {
    try {
      const message = JSON.parse(record.body) as GroupingMessage;
      byIssue.set(message.issueId, [...(byIssue.get(message.issueId) ?? []), { record, message }]);
    } catch (error) {
      logger.error('Unreadable log grouping message', { messageId: record.messageId, error: error as Error });
      failed.push(record.messageId);
    }
  }
  await Promise.all(
    [...byIssue.values()].map(async (group) => {
      for (const { record, message } of group) {
        try {
          await groupLogEvents(message);
        } catch (error) {
          logger.error('Log grouping failed', { messageId: record.messageId, issueId: message.issueId, error: error as Error });
          failed.push(record.messageId);
        }
      }
    }),
  );
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};
