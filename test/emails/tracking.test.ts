import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp();

describe('tracking on a send', () => {
  it('is off unless asked, is kept on the email, and refuses anything but two booleans', async () => {
    const t = await createTenant();
    const send = (body: Record<string, unknown>) =>
      app.call('POST', '/emails/send', {
        key: t.liveKey,
        body: { to: 'ann@example.com', subject: 'Hello', body: 'Hi there', ...body },
      });
    const plain = await send({});
    const tracked = await send({ tracking: { opens: true, clicks: false } });
    expect([plain.status, tracked.status]).toEqual([200, 200]);
    const shown = async (id: string) => (await app.call('GET', `/emails/${id}`, { key: t.liveKey })).body.tracking;
    expect(await shown(plain.body.id)).toEqual({ opens: false, clicks: false });
    expect(await shown(tracked.body.id)).toEqual({ opens: true, clicks: false });
    for (const tracking of [
      { opens: 'yes', clicks: false },
      { opens: true },
      { opens: true, clicks: true, pixels: true },
      [],
      true,
    ])
      expect((await send({ tracking })).status).toBe(422);
  });
});
