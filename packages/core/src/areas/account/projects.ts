import { env } from '../../kernel/config.js';
import { inboundAddress } from '../../kernel/mail/reply-address.js';
import type { Principal } from '../../kernel/tenant.js';
import { portalViewOf } from '../portal/present.js';

/** GET /projects: the projects the key reaches, each with the addresses that open tickets by mail. */
export const listProjects = (principal: Principal) => {
  const domain = env.inboundDomain;
  return {
    projects: principal.projects.map(({ id, slug, name, portal }) => ({
      id,
      slug,
      name,
      // null where the stage receives no mail (deployed without -c inboundDomain).
      inboundAddress: domain ? inboundAddress({ id, slug }, 'live', domain) : null,
      sandboxInboundAddress: domain ? inboundAddress({ id, slug }, 'sandbox', domain) : null,
      portal: portalViewOf(portal),
    })),
  };
};
