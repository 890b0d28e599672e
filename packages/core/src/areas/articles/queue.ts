import * as v from 'valibot';
import { defineQueue } from '../../kernel/ports/queue.js';
import { ENVIRONMENTS } from '../../kernel/tenant.js';

const environment = v.picklist(ENVIRONMENTS);

/** articleIndex: an article whose search entry must be rebuilt (or removed). */
const articleIndex = v.object({ projectId: v.string(), env: environment, articleId: v.string() });

// One project's search snapshot is rewritten by one batch at a time (issue 21: racing batches failed).
export const articleIndexQueue = defineQueue({
  name: 'articleIndex',
  consumer: 'article-index',
  batchSize: 10,
  visibilityTimeout: 120,
  maxReceiveCount: 5,
  message: articleIndex,
  ordered: true,
});
