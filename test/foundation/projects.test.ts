import { inboundAddress } from '@helpdesk/core/kernel/mail/reply-address';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp();

describe('GET /projects', () => {
  it('lists the projects a key can reach', async () => {
    const t = await createTenant({ projects: ['demo', 'docs'] });
    const all = await app.call('GET', '/projects', { key: t.liveKey });
    expect(all.status).toBe(200);
    expect(all.body.projects.map((p: { slug: string }) => p.slug)).toEqual(['demo', 'docs']);
    expect(all.headers.get('x-ratelimit-limit')).toBe('100');

    const one = await app.call('GET', '/projects', { key: await t.key({ projects: ['docs'] }) });
    expect(one.body).toEqual({
      projects: [
        {
          id: t.projects.docs!.id,
          slug: 'docs',
          name: 'docs',
          inboundAddress: inboundAddress({ id: t.projects.docs!.id, slug: 'docs' }, 'live', 'inbound.helpdesk.local'),
          sandboxInboundAddress: inboundAddress(
            { id: t.projects.docs!.id, slug: 'docs' },
            'sandbox',
            'inbound.helpdesk.local',
          ),
          portal: { enabled: false, handle: null, url: null, logoUrl: null, accentColor: null, footer: null },
        },
      ],
    });
  });

  it('answers 401 in the error shape without a key', async () => {
    const res = await app.call('GET', '/projects');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'auth.unauthorized', message: expect.any(String) } });
  });

  it('refuses a sandbox key asking for live', async () => {
    const t = await createTenant();
    const res = await app.call('GET', '/projects', { key: t.sandboxKey, headers: { 'Service-Environment': 'live' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('environment.forbidden');
  });
});

describe('unknown routes', () => {
  it('answer 404 or 405 in the error shape; a valid key is still counted and told its budget', async () => {
    const t = await createTenant();
    const unknown = await app.call('GET', '/nope', { key: t.liveKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect(unknown.headers.get('x-ratelimit-remaining')).toBe('99');
    const wrong = await app.call('PUT', '/projects', { key: t.liveKey });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect(wrong.headers.get('x-ratelimit-remaining')).toBe('98');
    const anonymous = await app.call('GET', '/nope');
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
