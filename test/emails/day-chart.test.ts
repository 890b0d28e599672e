import { sesEventsQueue } from '@helpdesk/core/areas/emails/queue';
import { sesNotification } from '@helpdesk/core/areas/emails/ses-notification';
import { outboxRecord, putOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { describe, expect, it } from 'vitest';
import { ConsoleClient } from '../console/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { uniqueAddress } from './helpers.js';

/** The console's email page: a per-day chart of sends and SES outcomes, and each email's events in order. */
const app = await startTestApp();

describe('email stats in the console', () => {
  it("charts today's sends, deliveries, opens and clicks, counts a redelivered SES event once, and keeps to the project", async () => {
    const t = await createTenant({ projects: ['main', 'other'] });
    const key = await t.key({ projects: ['main'] });
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await app.call('POST', '/emails/send', {
        key,
        body: { to: uniqueAddress(), subject: `Hello ${n}`, body: 'Hi', tracking: { opens: true, clicks: true } },
      });
      ids.push(res.body.id);
    }
    await app.drain();
    const now = new Date();
    const who = (id: string) => ({
      accountId: t.accountId,
      projectId: t.projects.main!.id,
      env: 'live' as const,
      emailId: id,
      to: 'x@example.com',
    });
    const delivery = sesNotification('delivery', who(ids[0]!), { at: now });
    await putOutbox([
      outboxRecord(sesEventsQueue, delivery),
      outboxRecord(sesEventsQueue, sesNotification('open', who(ids[0]!), { at: now })),
      outboxRecord(
        sesEventsQueue,
        sesNotification('click', who(ids[0]!), { at: new Date(now.getTime() + 1000), link: 'https://example.com/a' }),
      ),
    ]);
    await app.drain();
    // The same delivery again changes nothing, so it counts nothing.
    await putOutbox([outboxRecord(sesEventsQueue, delivery)]);
    await app.drain();

    const admin = await new ConsoleClient(app).signIn((await t.member({ role: 'admin' })).email);
    // The session starts in one of the account's projects: choose the one the mail went out of.
    expect((await admin.post('/console/switch', { projectId: t.projects.main!.id, env: 'live' })).status).toBe(303);
    const page = await admin.get('/console/emails');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<svg');
    expect(page.text).toContain('Emails per day, last 30 days (UTC)');
    const today = now.toISOString().slice(0, 10);
    // The table under the chart: day, sent, delivered, bounced, complained, opened, clicked.
    expect(page.text).toContain(
      `<tr><td>${today}</td><td>3</td><td>1</td><td>0</td><td>0</td><td>1</td><td>1</td></tr>`,
    );
    for (const series of ['sent', 'delivered', 'bounced', 'complained', 'opened', 'clicked'])
      expect(page.text).toContain(`data-series="${series}"`);

    const detail = await admin.get(`/console/emails/${ids[0]}`);
    const events = [...detail.text.matchAll(/<li>([A-Z][a-z]+)[^<]*: /g)].map((m) => m[1]);
    expect(events).toEqual(['Created', 'Sent', 'Delivered', 'Opened', 'Clicked']);

    // Another project of the same account, and the sandbox of this one, count none of it.
    for (const place of [
      { projectId: t.projects.other!.id, env: 'live' },
      { projectId: t.projects.main!.id, env: 'sandbox' },
    ]) {
      expect((await admin.post('/console/switch', place)).status).toBe(303);
      const elsewhere = await admin.get('/console/emails');
      expect(elsewhere.text).toContain(
        `<tr><td>${today}</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td></tr>`,
      );
    }
  });
});
