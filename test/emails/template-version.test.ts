import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importTemplate, mailsTo, uniqueAddress } from './helpers.js';

const app = await startTestApp();

describe('template versions', () => {
  it('delivers the version recorded when the send was accepted, even if a newer one was imported since', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    await importTemplate(app, 'notice', '{{!-- subject: Notice v1 --}}<p>first wording for {{name}}</p>', {
      apiKey: t.liveKey,
    });
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const sent = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, templateKey: 'notice', variables: { name: 'Ann' }, scheduledAt },
    });
    expect(sent.status).toBe(200);
    await importTemplate(app, 'notice', '{{!-- subject: Notice v2 --}}<p>second wording for {{name}}</p>', {
      apiKey: t.liveKey,
    });

    await app.fireSchedules(new Date(Date.now() + 2 * 3_600_000));
    await app.drain();
    const [mail] = await mailsTo(to);
    expect(mail?.subject).toBe('Notice v1');
    expect(mail?.body.html).toContain('first wording for Ann');
    const row = await app.call('GET', `/emails/${sent.body.id}`, { key: t.liveKey });
    expect(row.body).toMatchObject({ status: 'sent', templateVersion: 1 });
  });
});
