import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { WebhookEndpoint } from '@helpdesk/core/areas/webhooks/entities';
import { resealWebhookSecrets } from '@helpdesk/core/areas/webhooks/reseal';
import { openSecret, sealedWithCurrent } from '@helpdesk/core/areas/webhooks/secret';
import { rotateSigningSecret, signingSecret } from '@helpdesk/core/kernel/secrets';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';

/**
 * `admin secret:rotate` on a stage that keeps its signing secret in Secrets Manager (mocked: no
 * stand-in exists): a new current secret, the old one accepted through the overlap, and every stored
 * webhook secret sealed again under the new one, so receivers keep their secret and nothing breaks.
 */
const app = await startTestApp();
const sm = mockClient(SecretsManagerClient);
afterAll(() => {
  sm.restore();
  setEnv({ SIGNING_SECRET_ARN: undefined });
});

describe('rotating the stage signing secret', () => {
  it('keeps the old secret for the overlap and re-seals stored webhook secrets under the new one', async () => {
    const t = await createTenant();
    const created = await app.call('POST', '/webhooks', {
      key: t.liveKey,
      body: { url: 'http://127.0.0.1:9/hook', events: ['ticket.created'] },
    });
    expect(created.status).toBe(200);
    const key = { projectId: t.projects.main!.id, env: 'live' as const, webhookId: created.body.id };
    const before = (await WebhookEndpoint.get(key).go()).data!;

    let stored = JSON.stringify({ current: signingSecret() });
    sm.on(GetSecretValueCommand).callsFake(() => ({ SecretString: stored }));
    sm.on(PutSecretValueCommand).callsFake((input: { SecretString: string }) => {
      stored = input.SecretString;
      return {};
    });
    const old = signingSecret();
    setEnv({ SIGNING_SECRET_ARN: 'helpdesk/local/signing-secret' });

    const { previousUntil } = await rotateSigningSecret(30);
    expect(Date.parse(previousUntil)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const saved = JSON.parse(stored) as { current: string; previous: { secret: string }[] };
    expect(saved.current).not.toBe(old);
    expect(saved.previous.map((p) => p.secret)).toEqual([old]);
    expect(signingSecret()).toBe(saved.current);

    expect(sealedWithCurrent(before.sealedSecret, key.webhookId)).toBe(false);
    const report = await resealWebhookSecrets();
    expect(report.resealed).toBeGreaterThanOrEqual(1);
    const after = (await WebhookEndpoint.get(key).go()).data!;
    expect(sealedWithCurrent(after.sealedSecret, key.webhookId)).toBe(true);
    // The receiver's secret is the same one: only the seal changed.
    expect(openSecret(after.sealedSecret, key.webhookId)).toBe(created.body.secret);
    // A second run has nothing left to do.
    expect((await resealWebhookSecrets()).resealed).toBe(0);
  });
});
