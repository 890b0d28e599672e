import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { indexArticles } from '@helpdesk/core/articles/search-indexer';
import type { Environment } from '@helpdesk/core/auth/entities';
import { logger } from '@helpdesk/core/logger';

interface IndexMessage {
  projectId: string;
  env: Environment;
  articleId: string;
}

/**
 * Article indexing: messages of one project and environment are applied to its search snapshot
 * together, one new version per batch; a failed group is retried by SQS.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const groups = new Map<string, { tenant: Omit<IndexMessage, 'articleId'>; articleIds: string[]; messageIds: string[] }>();
  for (const record of event.Records) {
    const { projectId, env, articleId } = JSON.parse(record.body) as IndexMessage;
    const key = `${projectId}#${env}`;
    const group = groups.get(key) ?? { tenant: { projectId, env }, articleIds: [], messageIds: [] };
    group.articleIds.push(articleId);
    group.messageIds.push(record.messageId);
    groups.set(key, group);
  }
  const failures: string[] = [];
  for (const group of groups.values()) {
    try {
      await indexArticles(group.tenant, group.articleIds);
    } catch (error) {
      logger.error('Article indexing failed', { ...group.tenant, error: error as Error });
      failures.push(...group.messageIds);
    }
  }
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
};
