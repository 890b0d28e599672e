import { describe, expect, it } from 'vitest';
import { mailsTo, uniqueAddress } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { createTicket } from '../tickets/helpers.js';

const app = await startTestApp();
const hostile = '<script>alert(1)</script> & <b>bold</b>';

describe('text written by people, in the mails the service sends', () => {
  it('shows a feedback request message and a ticket reply as written, never as markup', async () => {
    const t = await createTenant({ plan: 'pro' });
    const to = uniqueAddress('fb');
    expect(
      (
        await app.call('POST', '/feedback/requests', {
          key: t.liveKey,
          body: { customer: { email: to }, message: hostile },
        })
      ).status,
    ).toBe(200);
    const ticket = await createTicket(app, t.liveKey);
    expect(
      (await app.call('POST', `/tickets/${ticket.id}/messages`, { key: t.liveKey, body: { body: hostile } })).status,
    ).toBe(200);
    await app.drain();
    for (const address of [to, ticket.customer.email]) {
      const [mail] = await mailsTo(address);
      expect(mail?.body.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
      expect(mail?.body.html).not.toContain('<script>');
      expect(mail?.body.text).toContain('<script>alert(1)</script> & <b>bold</b>');
    }
  });
});
