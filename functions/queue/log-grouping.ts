import { groupLogEvents } from '@helpdesk/core/areas/logs/grouping';
import { logsQueue } from '@helpdesk/core/areas/logs/queue';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** The logs queue's consumer: upserts log issues; records of one issue run one after another (they would only conflict). */
export const handler = consumer(logsQueue, { each: groupLogEvents, inOrderBy: (message) => message.issueId });
