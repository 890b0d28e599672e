import { describe, expect, it } from 'vitest';
import { lambdaContext } from '../../packages/local/src/lambda-context.js';
import { startTestApp } from '../support/app.js';
import { apiEvent } from '../support/events.js';
import { createTenant } from '../support/fixtures.js';
import { category, openPortal, publish } from './helpers.js';

const app = await startTestApp();

describe('help center pages', () => {
  it('shows live published articles by category, never drafts or sandbox ones', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const billing = await category(app, t.liveKey, 'Billing');
    const empty = await category(app, t.liveKey, 'Nothing here yet');
    const refund = await publish(app, t.liveKey, {
      title: 'How refunds work',
      body: 'Refunds reach your card within five days.',
      categoryId: billing.id,
    });
    const draft = await publish(app, t.liveKey, {
      title: 'Secret pricing draft',
      body: 'Not yet.',
      categoryId: billing.id,
      status: 'draft',
    });
    const sandboxed = await publish(app, t.sandboxKey, { title: 'Sandbox only article', body: 'Test data.' });
    await app.drain();

    const home = await app.call('GET', `/help/${handle}`);
    expect(home.status).toBe(200);
    expect(home.text).toContain('Billing');
    expect(home.text).toContain('1 article');
    expect(home.text).not.toContain('Nothing here yet');
    expect(home.text).toContain(`/help/${handle}/articles/${refund.slug}`);
    expect(home.text).not.toContain('Secret pricing draft');
    expect(home.text).not.toContain('Sandbox only article');
    expect(home.text).toContain(`/help/${handle}/requests/new`);

    const cat = await app.call('GET', `/help/${handle}/categories/${billing.slug}`);
    expect(cat.status).toBe(200);
    expect(cat.text).toContain('How refunds work');
    expect(cat.text).not.toContain('Secret pricing draft');
    expect(cat.text).toContain('"@type":"FAQPage"');
    expect((await app.call('GET', `/help/${handle}/categories/${empty.slug}`)).status).toBe(200);
    expect((await app.call('GET', `/help/${handle}/categories/no-such-category`)).status).toBe(404);

    expect((await app.call('GET', `/help/${handle}/articles/${draft.slug}`)).status).toBe(404);
    expect((await app.call('GET', `/help/${handle}/articles/${sandboxed.slug}`)).status).toBe(404);
    const page = await app.call('GET', `/help/${handle}/articles/${refund.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>How refunds work</h1>');
    expect(page.text).toContain('Refunds reach your card within five days.');
    expect(page.text).toContain('"@type":"Article"');
    expect(page.text).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/help/${handle}/articles/${refund.slug}">`));
    expect(page.text).toContain('<meta name="description"');
    expect(page.text).toContain('Was this article helpful?');

    const sitemap = await app.call('GET', `/help/${handle}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toContain('application/xml');
    expect(sitemap.text).toContain(`/help/${handle}/articles/${refund.slug}</loc>`);
    expect(sitemap.text).not.toContain(draft.slug);
    expect(sitemap.text).not.toContain(sandboxed.slug);
    const robots = await app.call('GET', `/help/${handle}/robots.txt`);
    expect(robots.text).toContain(`Sitemap: `);
    expect(robots.text).toContain(`/help/${handle}/sitemap.xml`);
  });

  it('lists an article published after the page was first shown, once it is indexed', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    await publish(app, t.liveKey, { title: 'First article', body: 'One.' });
    await app.drain();
    expect((await app.call('GET', `/help/${handle}`)).text).toContain('First article');
    const second = await publish(app, t.liveKey, { title: 'Second article', body: 'Two.' });
    await app.drain();
    const home = await app.call('GET', `/help/${handle}`);
    expect(home.text).toContain('Second article');
    await app.call('PATCH', `/articles/${second.id}`, { key: t.liveKey, body: { title: 'Second, renamed' } });
    await app.drain();
    expect((await app.call('GET', `/help/${handle}`)).text).toContain('Second, renamed');
  });

  it("shows only its own project's articles", async () => {
    const t = await createTenant({ projects: ['main', 'docs'] });
    const handle = await openPortal(app, t);
    const other = await publish(app, await t.key({ projects: ['docs'] }), {
      title: 'Docs project article',
      body: 'Elsewhere.',
    });
    await app.drain();
    expect((await app.call('GET', `/help/${handle}/articles/${other.slug}`)).status).toBe(404);
    expect(
      (await app.call('GET', `/help/${handle}/search`, { query: { q: 'Docs project article' } })).text,
    ).not.toContain(other.slug);
  });

  it('renders article HTML sanitized: no script, no javascript: link, raw HTML shown as text', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const a = await publish(app, t.liveKey, {
      title: 'Tricky <b>title</b>',
      body: '<script>alert(1)</script>\n\n[click](javascript:alert(2)) and [ok](https://example.com) <img src=x onerror=alert(3)>',
    });
    const page = await app.call('GET', `/help/${handle}/articles/${a.slug}`);
    expect(page.status).toBe(200);
    const main = page.text.slice(page.text.indexOf('<main'));
    expect(main).not.toMatch(/<script(?![^>]*application\/ld\+json)/i);
    expect(main).not.toContain('javascript:');
    expect(main).not.toMatch(/<img[^>]*onerror/i);
    expect(main).toContain('&lt;script&gt;');
    expect(main).toContain('<a href="https://example.com">ok</a>');
    expect(page.text).toContain('Tricky &lt;b&gt;title&lt;/b&gt;');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('finds the same articles as GET /articles/search, highlighted, and offers the form when nothing matches', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    for (const [title, body] of [
      ['Reset your password', 'Use the reset link on the sign-in page to choose a new password.'],
      ['Change your email address', 'Your email address can be changed in the account settings.'],
      ['Password rules', 'A password needs twelve characters.'],
      ['Shipping times', 'Parcels arrive in three days.'],
    ])
      await publish(app, t.liveKey, { title: title!, body: body! });
    await app.drain();
    const api = await app.call('GET', '/articles/search', { key: t.liveKey, query: { q: 'password' } });
    const slugs = api.body.results.map((r: { slug: string }) => r.slug);
    expect(slugs.length).toBeGreaterThanOrEqual(2);
    const page = await app.call('GET', `/help/${handle}/search`, { query: { q: 'password' } });
    expect(page.status).toBe(200);
    const shown = [...page.text.matchAll(new RegExp(`/help/${handle}/articles/([a-z0-9-]+)"`, 'g'))].map((m) => m[1]);
    expect(shown).toEqual(slugs);
    expect(page.text).toContain('<em>Password</em>');
    expect(page.text).toContain('<meta name="robots" content="noindex">');
    const none = await app.call('GET', `/help/${handle}/search`, { query: { q: 'zebra xylophone' } });
    expect(none.status).toBe(200);
    expect(none.text).toContain('No articles match');
    expect(none.text).toContain(`/help/${handle}/requests/new?subject=zebra%20xylophone`);
    // Paged: one result a page past the first would link back.
    const second = await app.call('GET', `/help/${handle}/search`, { query: { q: 'password', page: 2 } });
    expect(second.status).toBe(200);
    // A page is lenient about its query: a page out of range is the first, control characters are spaces.
    for (const query of [
      { q: 'password', page: 0 },
      { q: 'password', page: 'abc' },
      { q: 'pass\u0001word', page: 1 },
    ]) {
      const res = await app.call('GET', `/help/${handle}/search`, { query });
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(res.text).not.toContain('\u0001');
    }
    expect((await app.call('GET', `/help/${handle}/articles/no-such?voted=x`)).status).toBe(404);
  });

  it('answers 304 to a known ETag, and a new ETag once an article changes', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const a = await publish(app, t.liveKey, { title: 'Opening hours', body: 'We open at nine.' });
    const path = `/help/${handle}/articles/${a.slug}`;
    const first = await app.call('GET', path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    const again = await app.call('GET', path, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await app.call('GET', path, { headers: { 'if-none-match': `W/${etag}, "other"` } })).status).toBe(304);
    await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { body: 'We open at eight.' } });
    const changed = await app.call('GET', path, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('We open at eight.');
    expect(changed.headers.get('etag')).not.toBe(etag);
    // Unpublished: gone from the portal.
    await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { status: 'draft' } });
    expect((await app.call('GET', path, { headers: { 'if-none-match': etag } })).status).toBe(404);
  });

  it('counts one "Was this helpful?" vote per visitor per article per day', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const a = await publish(app, t.liveKey, { title: 'Invoices', body: 'Invoices are in the billing tab.' });
    const vote = (helpful: string, agent: string) =>
      app.call('POST', `/help/${handle}/articles/${a.slug}/votes`, {
        rawBody: new URLSearchParams({ helpful }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': agent },
      });
    const first = await vote('yes', 'Browser A');
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/help/${handle}/articles/${a.slug}?voted=1`);
    expect((await vote('yes', 'Browser A')).status).toBe(303);
    expect((await vote('no', 'Browser A')).status).toBe(303);
    await vote('no', 'Browser B');
    const counts = await app.call('GET', `/articles/${a.id}`, { key: t.liveKey });
    expect(counts.body).toMatchObject({ helpfulYes: 1, helpfulNo: 1 });
    const thanks = await app.call('GET', `/help/${handle}/articles/${a.slug}?voted=1`);
    expect(thanks.text).toContain('Thank you for your feedback');
    expect(thanks.headers.get('cache-control')).toBe('no-store');
    expect((await vote('maybe', 'Browser C')).status).toBe(422);
    expect(
      (
        await app.call('POST', `/help/${handle}/articles/no-such-article/votes`, {
          rawBody: 'helpful=yes',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(404);
  });
  it('answers HEAD on every page and read as GET without the body, and names HEAD in Allow', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const article = await publish(app, t.liveKey, { title: 'Heads up', body: 'Nothing below the head.' });
    await app.drain();
    for (const path of [
      `/help/${handle}`,
      `/help/${handle}/articles/${article.slug}`,
      `/help/${handle}/articles/no-such-article`,
      `/help/${handle}/sitemap.xml`,
      '/console',
      '/docs',
    ]) {
      const get = await app.call('GET', path);
      const head = await app.call('HEAD', path);
      expect([path, head.status], head.text).toEqual([path, get.status]);
      expect(head.text).toBe('');
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    }
    // As Lambda answers API Gateway, which sends what the function returns: the function drops the body itself.
    const { handler } = await import('../../functions/http/docs.js');
    const lambda = await handler(apiEvent({ routeKey: 'HEAD /docs', path: '/docs' }), lambdaContext('docs'));
    expect([lambda.statusCode, lambda.body, lambda.headers?.['content-type']]).toEqual([
      200,
      '',
      'text/html; charset=utf-8',
    ]);
    // The API's reads too, and a path's other methods are 405 naming HEAD beside GET.
    const get = await app.call('GET', '/tickets', { key: t.liveKey });
    const api = await app.call('HEAD', '/tickets', { key: t.liveKey });
    expect([api.status, api.text, api.headers.get('x-ratelimit-limit')]).toEqual([
      200,
      '',
      get.headers.get('x-ratelimit-limit'),
    ]);
    expect((await app.call('HEAD', `/tickets/${crypto.randomUUID()}`, { key: t.liveKey })).status).toBe(404);
    const options = await app.call('OPTIONS', '/tickets', { key: t.liveKey });
    expect([options.status, options.headers.get('allow')]).toEqual([405, 'GET, HEAD, POST']);
    const page = await app.call('DELETE', `/help/${handle}`);
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('GET, HEAD');
  });
});
