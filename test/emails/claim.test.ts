import { deliverEmail, SendInProgress } from '@helpdesk/core/areas/emails/deliver';
import { EmailContent, EmailLog } from '@helpdesk/core/areas/emails/entities';
import { handleSesEvent, sesTags } from '@helpdesk/core/areas/emails/ses-events';
import { scanSmallTableOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { describe, expect, it } from 'vitest';
import { startSesSendEvents, tagsOf } from '../../packages/local/src/ses-send-events.js';
import { startTestApp } from '../support/app.js';
import { testEndpoints } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';
import { mailsTo, uniqueAddress } from './helpers.js';

// No consumers: this file plays the email consumer itself, around a consumer that died mid-send.
const app = await startTestApp({ consumers: false });

describe('the email consumer and a send another consumer claimed', () => {
  it('hands a fresh claim back to the queue, takes over a stale one and sends once, then ignores the message', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const sent = await app.call('POST', '/emails/send', { key: t.liveKey, body: { to, subject: 'Once', body: 'Hi' } });
    expect(sent.status).toBe(200);
    const [item] = (await scanSmallTableOutbox({ queue: 'emails' })).filter((r) => r.body.includes(sent.body.id));
    const message = JSON.parse(item!.body);
    const key = { projectId: t.projects.main!.id, env: 'live' as const, emailId: sent.body.id };

    // A consumer claimed the row and died before SES answered (a crash, a killed stack).
    await EmailLog.patch(key).set({ status: 'sending', claimedAt: Date.now() }).go();
    await expect(deliverEmail(message)).rejects.toBeInstanceOf(SendInProgress);
    expect(await mailsTo(to)).toHaveLength(0);

    // SQS hands the message out again after its visibility timeout: the claim is stale by then.
    await EmailLog.patch(key)
      .set({ claimedAt: Date.now() - 61_000 })
      .go();
    await deliverEmail(message);
    expect(await mailsTo(to)).toHaveLength(1);
    expect((await EmailLog.get(key).go()).data?.status).toBe('sent');

    // Delivered again after it was sent: nothing more.
    await deliverEmail(message);
    expect(await mailsTo(to)).toHaveLength(1);
  });

  it('finishes a stale claim as sent, without sending again, once SES said it accepted the mail', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const sent = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, subject: 'Twice?', body: 'Hi' },
    });
    const [item] = (await scanSmallTableOutbox({ queue: 'emails' })).filter((r) => r.body.includes(sent.body.id));
    const message = JSON.parse(item!.body);
    const key = { projectId: t.projects.main!.id, env: 'live' as const, emailId: sent.body.id };

    // SES accepted the mail, then its consumer died before recording it: the row stayed `sending`.
    await EmailLog.patch(key)
      .set({ status: 'sending', claimedAt: Date.now() - 61_000 })
      .go();
    const tags = sesTags({ accountId: t.accountId, ...key });
    await handleSesEvent({
      eventType: 'Send',
      mail: { messageId: 'ses-accepted-1', tags: Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, [v]])) },
    });
    await deliverEmail(message);
    expect(await mailsTo(to)).toHaveLength(0);
    const row = (await EmailLog.get(key).go()).data;
    expect(row).toMatchObject({ status: 'sent', sesMessageId: 'ses-accepted-1' });
  });

  it("plays SES's Send events from the mails the SES stand-in accepted, with the send's tags", async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const sent = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, subject: 'Tagged', body: 'Hi' },
    });
    const [item] = (await scanSmallTableOutbox({ queue: 'emails' })).filter((r) => r.body.includes(sent.body.id));
    await deliverEmail(JSON.parse(item!.body));
    expect(await mailsTo(to)).toHaveLength(1);

    const publisher = startSesSendEvents(testEndpoints().ses, 100);
    let events: { eventType: string; mail: { tags: Record<string, string[]> } }[] = [];
    for (let i = 0; i < 50 && events.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      events = (await scanSmallTableOutbox({ queue: 'sesEvents' }))
        .map((r) => JSON.parse(r.body))
        .filter((e) => e.mail?.tags?.emailId?.[0] === sent.body.id);
    }
    await publisher.stop();
    expect(events).toEqual([
      {
        eventType: 'Send',
        mail: {
          messageId: expect.any(String),
          tags: { accountId: [t.accountId], projectId: [t.projects.main!.id], env: ['live'], emailId: [sent.body.id] },
        },
      },
    ]);
    expect(tagsOf('a=1, b = two ,broken')).toEqual({ a: ['1'], b: ['two'] });
  });
});

describe('the email consumer and a send accepted before its content had an item of its own', () => {
  it('renders the body kept on the row', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const sent = await app.call('POST', '/emails/send', { key: t.liveKey, body: { to, subject: 'Old', body: 'New' } });
    const [item] = (await scanSmallTableOutbox({ queue: 'emails' })).filter((r) => r.body.includes(sent.body.id));
    const key = { projectId: t.projects.main!.id, env: 'live' as const, emailId: sent.body.id };
    // Until 2026-11-27 the row held the body and there was no content item.
    await EmailLog.patch(key).set({ body: 'Accepted before the split.' }).go();
    await EmailContent.delete(key).go();
    await deliverEmail(JSON.parse(item!.body));
    expect((await mailsTo(to))[0]?.body.text).toContain('Accepted before the split.');
  });
});
