import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { EmailContent, EmailLog } from '@helpdesk/core/areas/emails/entities';
import { env } from '@helpdesk/core/kernel/config';
import { documentClient } from '@helpdesk/core/kernel/db/client';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importTemplate, mailsTo, uniqueAddress } from './helpers.js';

/**
 * What a send renders from lives beside its Email Logs row, not on it: the row is copied into four
 * indexes and rewritten at every status, so a long body on it was paid for again each time (issue 36).
 */
const app = await startTestApp();

async function rawRow(key: { projectId: string; env: 'live' | 'sandbox'; emailId: string }) {
  const params = EmailLog.get(key).params() as { Key: Record<string, string> };
  return (await documentClient.send(new GetCommand({ TableName: env.tableName, Key: params.Key }))).Item;
}

describe('email content beside the row', () => {
  it('keeps a long body out of the row and its index copies, and sends it whole', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const body = `Your statement:\n\n${'Line of the statement. '.repeat(1500)}\n\nThe end.`;
    const res = await app.call('POST', '/emails/send', { key: t.liveKey, body: { to, subject: 'Statement', body } });
    expect(res.status).toBe(200);
    const key = { projectId: t.projects.main!.id, env: 'live' as const, emailId: res.body.id as string };
    const row = await rawRow(key);
    expect(row).toBeDefined();
    expect(row?.body).toBeUndefined();
    expect(JSON.stringify(row).length).toBeLessThan(2048);
    expect((await EmailContent.get(key).go()).data?.body).toBe(body);
    await app.drain();
    const [mail] = await mailsTo(to);
    expect(mail?.body.text).toContain('The end.');
    expect((mail?.body.text?.match(/Line of the statement\./g) ?? []).length).toBe(1500);
  });

  it('renders a template send from its variables', async () => {
    const t = await createTenant();
    await importTemplate(app, 'receipt', '{{!-- subject: Receipt {{orderId}} --}}<p>Order {{orderId}} is paid.</p>', {
      apiKey: t.liveKey,
    });
    const to = uniqueAddress();
    const templated = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, templateKey: 'receipt', variables: { orderId: 'A-17' } },
    });
    expect(templated.status).toBe(200);
    await app.drain();
    expect((await mailsTo(to))[0]?.body.text).toContain('Order A-17 is paid.');
  });
});
