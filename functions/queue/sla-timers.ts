import { fireSlaTimer } from '@helpdesk/core/areas/tickets/sla-timers';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** An SLA target's warning point or due time came: announce it (and record a breach) unless the clock moved on. */
export const handler = consumer('slaTimers', { each: fireSlaTimer });
