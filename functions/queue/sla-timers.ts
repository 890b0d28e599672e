import { slaTimersQueue } from '@helpdesk/core/areas/sla/queue';
import { handleSlaJob } from '@helpdesk/core/areas/tickets/sla-timers';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** An SLA target's warning point or due time came (announce it unless the clock moved on), or stale schedules go. */
export const handler = consumer(slaTimersQueue, { each: handleSlaJob });
