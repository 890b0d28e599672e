import type { Principal } from '../auth/context.js';
import { inboundAddress } from '../conversations/address.js';

/** GET /projects: the projects the key reaches, each with the addresses that open tickets by mail. */
export const listProjects = (principal: Principal) => ({
  projects: principal.projects.map(({ id, slug, name }) => ({
    id,
    slug,
    name,
    inboundAddress: inboundAddress({ id, slug }, 'live'),
    sandboxInboundAddress: inboundAddress({ id, slug }, 'sandbox'),
  })),
});
