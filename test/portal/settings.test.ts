import { describe, expect, it } from 'vitest';
import { ConsoleClient } from '../console/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { openPortal, uniqueHandle } from './helpers.js';

const app = await startTestApp();

describe('portal handles (PATCH /projects/{projectId})', () => {
  it('sets a handle and turns the portal on; GET /projects shows it with its address', async () => {
    const t = await createTenant();
    const handle = uniqueHandle();
    const res = await app.call('PATCH', `/projects/${t.projects.main!.id}`, {
      key: t.liveKey,
      body: { portal: { handle, enabled: true, accentColor: '#0f766e', footer: 'Acme Inc.' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.portal).toEqual({
      enabled: true,
      handle,
      url: expect.stringMatching(new RegExp(`/help/${handle}$`)),
      logoUrl: null,
      accentColor: '#0f766e',
      footer: 'Acme Inc.',
    });
    const listed = await app.call('GET', '/projects', { key: t.liveKey });
    expect(listed.body.projects[0].portal).toEqual(res.body.portal);
    const home = await app.call('GET', `/help/${handle}`);
    expect(home.status).toBe(200);
    expect(home.text).toContain('Acme Inc.');
    expect(home.text).toContain('--accent:#0f766e');
  });

  it('keeps handles unique across accounts, and refuses bad ones with 422', async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const handle = await openPortal(app, a);
    const taken = await app.call('PATCH', `/projects/${b.projects.main!.id}`, {
      key: b.liveKey,
      body: { portal: { handle } },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.error).toMatchObject({
      code: 'portal.handle_taken',
      details: { field: 'portal.handle', handle },
    });
    for (const bad of ['ab', 'Upper', '-dash', 'dash-', 'two--dashes', 'api', 'a'.repeat(41), 'sp ace']) {
      const res = await app.call('PATCH', `/projects/${b.projects.main!.id}`, {
        key: b.liveKey,
        body: { portal: { handle: bad } },
      });
      expect(res.status, bad).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
    const noHandle = await app.call('PATCH', `/projects/${b.projects.main!.id}`, {
      key: b.liveKey,
      body: { portal: { enabled: true } },
    });
    expect(noHandle.status).toBe(422);
    const pale = await app.call('PATCH', `/projects/${b.projects.main!.id}`, {
      key: b.liveKey,
      body: { portal: { accentColor: '#fde68a' } },
    });
    expect(pale.status).toBe(422);
    expect(JSON.stringify(pale.body.error.details)).toContain('contrast');
    for (const body of [
      {},
      { portal: {} },
      { portal: [] },
      { portal: { logoUrl: 'http://insecure.example/logo.png' } },
    ]) {
      const res = await app.call('PATCH', `/projects/${b.projects.main!.id}`, { key: b.liveKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });

  it('redirects an old handle (301, path and query kept) and frees a cleared one', async () => {
    const t = await createTenant();
    const first = await openPortal(app, t);
    const second = uniqueHandle();
    await app.call('PATCH', `/projects/${t.projects.main!.id}`, {
      key: t.liveKey,
      body: { portal: { handle: second } },
    });
    const moved = await app.call('GET', `/help/${first}/search?q=refund`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/help/${second}/search?q=refund`);
    // A form post keeps its method and body through the move (308, not 301).
    const posted = await app.call('POST', `/help/${first}/requests`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'subject=Help&message=Please',
    });
    expect(posted.status).toBe(308);
    expect(posted.headers.get('location')).toBe(`/help/${second}/requests`);
    // Renamed again: the first handle goes straight to the newest.
    const third = uniqueHandle();
    await app.call('PATCH', `/projects/${t.projects.main!.id}`, {
      key: t.liveKey,
      body: { portal: { handle: third } },
    });
    expect((await app.call('GET', `/help/${first}`)).headers.get('location')).toBe(`/help/${third}`);
    expect((await app.call('GET', `/help/${third}`)).status).toBe(200);
    // A redirecting handle stays reserved for its project: another account cannot take it...
    const other = await createTenant();
    const grab = await app.call('PATCH', `/projects/${other.projects.main!.id}`, {
      key: other.liveKey,
      body: { portal: { handle: first } },
    });
    expect(grab.body.error?.code).toBe('portal.handle_taken');
    // ...but its own project may take it back.
    const back = await app.call('PATCH', `/projects/${t.projects.main!.id}`, {
      key: t.liveKey,
      body: { portal: { handle: first } },
    });
    expect(back.status).toBe(200);
    expect((await app.call('GET', `/help/${first}`)).status).toBe(200);
    expect((await app.call('GET', `/help/${third}`)).headers.get('location')).toBe(`/help/${first}`);
    // Cleared: the portal is off (no handle) and the handle is free at once.
    const cleared = await app.call('PATCH', `/projects/${t.projects.main!.id}`, {
      key: t.liveKey,
      body: { portal: { enabled: false, handle: null } },
    });
    expect(cleared.body.portal).toMatchObject({ enabled: false, handle: null, url: null });
    expect((await app.call('GET', `/help/${first}`)).status).toBe(404);
    const freed = await app.call('PATCH', `/projects/${other.projects.main!.id}`, {
      key: other.liveKey,
      body: { portal: { handle: first } },
    });
    expect(freed.status).toBe(200);
  });

  it("never sends an old handle to another project's help center, nor to one turned off", async () => {
    const t = await createTenant({ projects: ['main', 'docs'] });
    const patch = (slug: string, portal: Record<string, unknown>) =>
      app.call('PATCH', `/projects/${t.projects[slug]!.id}`, { key: t.liveKey, body: { portal } });
    const [a, b, c] = [uniqueHandle(), uniqueHandle(), uniqueHandle()];
    await patch('docs', { handle: a, enabled: true });
    await patch('docs', { handle: b });
    // docs frees `b` at once; main takes it: docs' old `a` must not lead to main's help center.
    await patch('docs', { handle: null, enabled: false });
    await patch('main', { handle: b, enabled: true });
    expect((await app.call('GET', `/help/${a}`)).status).toBe(404);
    expect((await app.call('GET', `/help/${b}`)).status).toBe(200);
    // main renames `b` to `c`, then turns its portal off: the old handle answers 404, not a redirect.
    await patch('main', { handle: c });
    expect((await app.call('GET', `/help/${b}`)).headers.get('location')).toBe(`/help/${c}`);
    await patch('main', { enabled: false });
    expect((await app.call('GET', `/help/${b}`)).status).toBe(404);
  });

  it("shows the project's help center on the console's overview", async () => {
    const t = await createTenant();
    const admin = await t.member({ email: `admin-${uniqueHandle()}@example.com`, role: 'admin' });
    const browser = await new ConsoleClient(app).signIn(admin.email);
    expect((await browser.get('/console')).text).toContain('Help center: no handle yet');
    const handle = await openPortal(app, t);
    const home = await browser.get('/console');
    expect(home.text).toMatch(new RegExp(`Help center: <a href="[^"]*/help/${handle}">`));
    expect(home.text).toContain(', on;');
  });

  it('answers 404 for a turned-off portal and an unknown handle, with the same page', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    await app.call('PATCH', `/projects/${t.projects.main!.id}`, {
      key: t.liveKey,
      body: { portal: { enabled: false } },
    });
    const off = await app.call('GET', `/help/${handle}`);
    const unknown = await app.call('GET', `/help/${uniqueHandle()}`);
    const malformed = await app.call('GET', '/help/NOT..a..handle');
    expect([off.status, unknown.status, malformed.status]).toEqual([404, 404, 404]);
    expect(off.text).toBe(unknown.text);
    expect(off.headers.get('content-type')).toContain('text/html');
  });

  it('is an account-wide write: a sandbox key, a key of some projects and a foreign project cannot change it', async () => {
    const t = await createTenant({ projects: ['main', 'docs'] });
    const body = { portal: { handle: uniqueHandle() } };
    const path = `/projects/${t.projects.main!.id}`;
    const sandbox = await app.call('PATCH', path, { key: t.sandboxKey, body });
    expect(sandbox.status).toBe(403);
    const narrow = await app.call('PATCH', path, { key: await t.key({ projects: ['main'] }), body });
    expect(narrow.status).toBe(403);
    const other = await createTenant();
    const foreign = await app.call('PATCH', `/projects/${other.projects.main!.id}`, { key: t.liveKey, body });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
  });

  it('needs a key with full access: a key limited to any scopes cannot change the help center', async () => {
    const t = await createTenant();
    const path = `/projects/${t.projects.main!.id}`;
    for (const scopes of [['logs:write'], ['articles:write', 'articles:read']]) {
      const res = await app.call('PATCH', path, {
        key: await t.key({ scopes }),
        body: { portal: { handle: uniqueHandle() } },
      });
      expect(res.status, scopes.join()).toBe(403);
      expect(res.body.error.code).toBe('auth.forbidden');
      expect(res.body.error.message).toContain('full access');
    }
    const [listed] = (await app.call('GET', '/projects', { key: t.liveKey })).body.projects;
    expect(listed.portal.handle).toBeNull();
  });
});
