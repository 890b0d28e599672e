import type { EventEnvelope } from '../../areas/webhooks/queue.js';
import { listMembers } from '../../identity/accounts.js';
import { tenantOfProject } from '../../identity/tenant.js';
import { mailOnce } from './mail-once.js';

const TEXT = {
  'webhook.endpoint.failing': (url: string, since: string) =>
    `Every delivery to your webhook endpoint ${url} has failed since ${since}. Deliveries are retried; after 5 days of failures the endpoint is disabled. Check the endpoint, and see its delivery log in the console.`,
  'webhook.endpoint.disabled': (url: string, since: string) =>
    `Your webhook endpoint ${url} was disabled (failing since ${since}). Enable it again (PATCH /webhooks/{id} with enabled: true), then recover the deliveries it missed (POST /webhooks/{id}/recover).`,
} as const;

/**
 * The account admins hear of an endpoint that fails for a day or was disabled, by mail (its webhook
 * event goes to the project's other endpoints), once per event (mail-once.ts).
 */
export async function mailEndpointNotice(envelope: EventEnvelope) {
  const event = envelope.event;
  if (event !== 'webhook.endpoint.failing' && event !== 'webhook.endpoint.disabled') return;
  const ctx = await tenantOfProject(envelope.projectId, envelope.env);
  if (!ctx) return;
  const admins = (await listMembers(envelope.accountId)).filter((m) => m.role === 'admin');
  const data = envelope.data as { endpoint: { id: string; url: string }; failingSince?: string | null };
  const subject =
    event === 'webhook.endpoint.failing'
      ? `Webhook endpoint failing: ${data.endpoint.url}`
      : `Webhook endpoint disabled: ${data.endpoint.url}`;
  const markdown = TEXT[event](data.endpoint.url, data.failingSince ?? 'its last attempt');
  await mailOnce(
    envelope,
    ctx,
    admins.map((a) => a.email),
    { subject, markdown, kind: 'webhook_notice', metadata: { webhookId: data.endpoint.id } },
  );
}
