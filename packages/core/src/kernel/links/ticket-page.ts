import { API_PREFIX } from '../api/route.js';
import { env } from '../config.js';
import type { TenantKey } from '../tenant.js';
import { trimChars } from '../text.js';
import { signToken, verifyToken } from './signed.js';

/** The customer's page of one ticket: its public thread and a form to answer (conversations/ticket-page.ts). */
export const ticketPageLink = (tenant: TenantKey, ticketId: string) =>
  `${trimChars(env.publicBaseUrl, '/', 'end')}${API_PREFIX}/public/tickets/${signToken(['t', tenant.projectId, tenant.env, ticketId])}`;

/** The ticket a page token names; undefined for a token this service did not sign for a ticket page. */
export function verifyTicketToken(token: string): (TenantKey & { ticketId: string }) | undefined {
  const [kind, projectId, environment, ticketId, ...rest] = verifyToken(token) ?? [];
  if (kind !== 't' || !projectId || (environment !== 'live' && environment !== 'sandbox') || !ticketId || rest.length)
    return undefined;
  return { projectId, env: environment, ticketId };
}
