import { randomBytes } from 'node:crypto';
import { signingSecret } from '@helpdesk/core/kernel/secrets';
import { ConsoleSignIn } from '@helpdesk/core/top/console/entities';
import { sha256 } from '@helpdesk/core/top/console/session';
import { SIGN_IN_LIMITS } from '@helpdesk/core/top/console/sign-in';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { ConsoleClient, mailsTo, signInLinkPath } from './helpers.js';

const address = (p = 'member') => `${p}-${randomBytes(5).toString('hex')}@example.com`;

describe('console sign-in, sessions and CSRF', () => {
  let app: TestApp;
  let tenant: TenantFixture;
  let email: string;

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTenant();
  });
  // A fresh member per test: sign-in requests are rate-limited per address.
  beforeEach(async () => {
    email = (await tenant.member({ email: address('admin'), name: 'Ada Admin', role: 'admin' })).email;
  });

  it('sends a one-time link to a member; the link shows a confirm button, its POST starts a session', async () => {
    const client = new ConsoleClient(app);
    expect((await client.get('/console')).headers.get('location')).toBe('/console/sign-in');
    const form = await client.get('/console/sign-in');
    expect(form.text).toContain('<label for="email">');
    const sent = await client.request('POST', '/console/sign-in', { email: email.toUpperCase() });
    expect(sent.status).toBe(200);
    const path = await signInLinkPath(email);
    // A GET (a mail scanner's prefetch) leaves the link usable.
    expect((await client.get(path)).text).toContain('<button type="submit">Sign in</button>');
    expect((await client.get(path)).status).toBe(200);
    const done = await client.request('POST', path, {});
    expect(done.status).toBe(303);
    const cookie = done.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^console_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/console');
    expect(cookie).not.toContain('Secure'); // local stage; deployed stages add it
    const home = await client.get('/console');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Ada Admin');
    // Single use: the same link again is refused and starts nothing.
    const again = await new ConsoleClient(app).request('POST', path, {});
    expect(again.status).toBe(404);
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('stores only hashes: the session id and the link token are not in the table in clear', async () => {
    const client = new ConsoleClient(app);
    await client.request('POST', '/console/sign-in', { email });
    const token = (await signInLinkPath(email)).split('/').pop()!;
    const { data } = await ConsoleSignIn.get({ tokenHash: sha256(token) }).go();
    expect(data?.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(data)).not.toContain(token);
  });

  it('refuses an expired link', async () => {
    const client = new ConsoleClient(app);
    await client.request('POST', '/console/sign-in', { email });
    const path = await signInLinkPath(email);
    const tokenHash = sha256(path.split('/').pop()!);
    await ConsoleSignIn.patch({ tokenHash })
      .set({ expiresAt: Math.floor(Date.now() / 1000) - 1 })
      .go();
    expect((await client.get(path)).status).toBe(404);
    expect((await client.request('POST', path, {})).status).toBe(404);
    expect(client.cookie).toBeUndefined();
  });

  it('answers a non-member the same page and sends nothing', async () => {
    const stranger = address('stranger');
    const member = await new ConsoleClient(app).request('POST', '/console/sign-in', { email });
    const other = await new ConsoleClient(app).request('POST', '/console/sign-in', { email: stranger });
    expect(other.status).toBe(member.status);
    expect(other.text.replace(stranger, 'X')).toBe(member.text.replace(email, 'X'));
    expect(await mailsTo(stranger)).toEqual([]);
  });

  it('rate-limits sign-in requests per address', async () => {
    // Counted in one-minute windows: the burst is judged only inside one. The clock starts at the
    // beginning of the current minute and runs on (Date alone is faked), so a burst that takes a
    // loaded run 12 s or more stays in its window without waiting for the next one.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000);
    try {
      const target = (await tenant.member({ email: address('limited') })).email;
      const statuses = [];
      for (let i = 0; i <= SIGN_IN_LIMITS.perAddress; i++)
        statuses.push((await new ConsoleClient(app).request('POST', '/console/sign-in', { email: target })).status);
      expect(statuses).toEqual([...Array(SIGN_IN_LIMITS.perAddress).fill(200), 429]);
      expect(await mailsTo(target)).toHaveLength(SIGN_IN_LIMITS.perAddress);
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks the cookie Secure in deployed stages', async () => {
    const client = new ConsoleClient(app);
    await client.request('POST', '/console/sign-in', { email });
    const path = await signInLinkPath(email);
    // A deployed stage starts only with its secret (the same one, so the link still verifies).
    setEnv({ STAGE: 'dev', SIGNING_SECRET: signingSecret() });
    try {
      const done = await client.request('POST', path, {});
      expect(done.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      setEnv({ STAGE: undefined, SIGNING_SECRET: undefined });
    }
  });

  it('refuses a state-changing request without the session CSRF token', async () => {
    const client = await new ConsoleClient(app).signIn(email);
    const choice = { projectId: tenant.projects.main!.id, env: 'sandbox' };
    expect((await client.request('POST', '/console/switch', choice)).status).toBe(403);
    expect((await client.request('POST', '/console/switch', { ...choice, csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await client.request('POST', '/console/sign-out', {})).status).toBe(403);
    expect((await client.get('/console')).text).not.toContain('Sandbox: test data');
    const ok = await client.post('/console/switch', choice);
    expect(ok.status).toBe(303);
    expect((await client.get('/console')).text).toContain('Sandbox: test data');
  });

  it('sign-out deletes the session: the old cookie no longer works', async () => {
    const client = await new ConsoleClient(app).signIn(email);
    const cookie = client.cookie!;
    const out = await client.post('/console/sign-out');
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    const replay = await fetch(`${app.url}/console`, { headers: { cookie }, redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/console/sign-in');
  });
  // Last: it leaves this IP over its limit for the rest of the minute.
  it('rate-limits sign-in requests per source IP, whatever the address', async () => {
    const minute = () => Math.floor(Date.now() / 60_000);
    // Earlier tests of this file asked from this IP too, within this minute or the last: count until refused.
    // Windows are fixed minutes: a run that crossed a minute's end runs again (two in a row cannot).
    // The requests go together (the counter is one atomic ADD each): one more than the limit.
    for (let attempt = 0; ; attempt++) {
      const started = minute();
      const statuses = await Promise.all(
        Array.from(
          { length: SIGN_IN_LIMITS.perIp + 1 },
          async () =>
            (await new ConsoleClient(app).request('POST', '/console/sign-in', { email: address('nobody') })).status,
        ),
      );
      if (minute() !== started && attempt === 0) continue;
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(SIGN_IN_LIMITS.perIp);
      return;
    }
  });
});
