import type { Principal } from '../auth/context.js';
import { env } from '../config.js';
import { inboundAddress } from '../conversations/address.js';

/** GET /projects: the projects the key reaches, each with the addresses that open tickets by mail. */
export const listProjects = (principal: Principal) => {
  const domain = env.inboundDomain;
  return {
    projects: principal.projects.map(({ id, slug, name }) => ({
      id,
      slug,
      name,
      // null where the stage receives no mail (deployed without -c inboundDomain).
      inboundAddress: domain ? inboundAddress({ id, slug }, 'live', domain) : null,
      sandboxInboundAddress: domain ? inboundAddress({ id, slug }, 'sandbox', domain) : null,
    })),
  };
};
