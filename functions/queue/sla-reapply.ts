import { slaReapplyQueue } from '@helpdesk/core/areas/sla/queue';
import { reapplyPolicies } from '@helpdesk/core/areas/tickets/sla-reapply';
import { consumer } from '@helpdesk/core/top/queues/consumer';

/** A policy saved with applyToOpen: a round of open tickets chooses its policy again. */
export const handler = consumer(slaReapplyQueue, { each: reapplyPolicies });
