import { checkLogAlerts } from '@helpdesk/core/areas/logs/alerts';
import { logAlertsQueue } from '@helpdesk/core/areas/logs/queue';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** An issue counted new events: its project's alert rules are checked against it and its counters. */
export const handler = consumer(logAlertsQueue, { each: checkLogAlerts });
