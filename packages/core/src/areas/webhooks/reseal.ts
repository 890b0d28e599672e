import { isConditionFailure } from '../../kernel/db/errors.js';
import { WebhookEndpoint } from './entities.js';
import { openSecret, sealedWithCurrent, sealSecret } from './secret.js';

/**
 * After a rotation of the stage's signing secret: every endpoint secret sealed under an older one is
 * sealed again under the current one, before the old one stops being accepted (admin `secret:rotate`).
 * A scan over the table (an operator's command, not a request path); conditional on the sealed value
 * read, so an endpoint rotated meanwhile keeps its new secret.
 */
export async function resealWebhookSecrets(): Promise<{ endpoints: number; resealed: number }> {
  let endpoints = 0;
  let resealed = 0;
  let cursor: string | null = null;
  do {
    const page: {
      data: { projectId: string; env: 'live' | 'sandbox'; webhookId: string; sealedSecret: string }[];
      cursor: string | null;
    } = await WebhookEndpoint.scan.go({ cursor });
    for (const endpoint of page.data) {
      endpoints++;
      if (sealedWithCurrent(endpoint.sealedSecret, endpoint.webhookId)) continue;
      const secret = openSecret(endpoint.sealedSecret, endpoint.webhookId);
      await WebhookEndpoint.patch({ projectId: endpoint.projectId, env: endpoint.env, webhookId: endpoint.webhookId })
        .set({ sealedSecret: sealSecret(secret, endpoint.webhookId) })
        .where((a, op) => op.eq(a.sealedSecret, endpoint.sealedSecret))
        .go()
        .then(
          () => resealed++,
          (err: unknown) => {
            // Rotated by its owner meanwhile: the new secret is sealed under the current key already.
            if (!isConditionFailure(err)) throw err;
          },
        );
    }
    cursor = page.cursor;
  } while (cursor);
  return { endpoints, resealed };
}
