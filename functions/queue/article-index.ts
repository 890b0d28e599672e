import { articleIndexQueue } from '@helpdesk/core/areas/articles/queue';
import { indexArticles } from '@helpdesk/core/areas/articles/search-indexer';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** Article indexing: the articles of one project and environment go into its search snapshot together, one version per batch. */
export const handler = consumer(articleIndexQueue, {
  groupBy: ({ projectId, env }) => `${projectId}#${env}`,
  // The tenant alone: ElectroDB would read any other attribute as a sort key prefix.
  together: (messages) =>
    indexArticles(
      { projectId: messages[0].projectId, env: messages[0].env },
      messages.map((m) => m.articleId),
    ),
});
