import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';

const app = await startTestApp();

const create = (t: TenantFixture, body: Record<string, unknown>, key = t.liveKey) =>
  app.call('POST', '/articles', { key, body });
const unique = () => randomBytes(4).toString('hex');

describe('POST /articles', () => {
  it('creates a draft with a slug from the title, a derived excerpt and the full record', async () => {
    const t = await createTenant();
    const res = await create(t, {
      title: '  Héllo, Wörld: Getting Started!  ',
      body: '# Welcome\n\nThis is **the** first article.',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      projectId: t.projects.main!.id,
      projectSlug: 'main',
      title: 'Héllo, Wörld: Getting Started!',
      slug: 'hello-world-getting-started',
      status: 'draft',
      excerpt: 'Welcome This is the first article.',
      categoryId: null,
      helpfulYes: 0,
      helpfulNo: 0,
      publishedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      body: '# Welcome\n\nThis is **the** first article.',
      bodyHtml: expect.stringContaining('<strong>the</strong>'),
    });
  });

  it('suffixes -2, -3 on slug collisions and refuses a given slug that is taken', async () => {
    const t = await createTenant();
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await create(t, { title: 'Reset your password' })).body.slug);
    expect(slugs).toEqual(['reset-your-password', 'reset-your-password-2', 'reset-your-password-3']);

    const given = await create(t, { title: 'Other', slug: 'custom-slug' });
    expect(given.body.slug).toBe('custom-slug');
    const taken = await create(t, { title: 'Another', slug: 'custom-slug' });
    expect(taken.status).toBe(422);
    expect(taken.body.error.code).toBe('article.slug_taken');

    // Slugs are per project and environment.
    const sandbox = await create(t, { title: 'Reset your password', slug: 'custom-slug' }, t.sandboxKey);
    expect(sandbox.status).toBe(200);
    expect(sandbox.body.slug).toBe('custom-slug');
  });

  it('gives concurrent creates with the same title distinct slugs', async () => {
    const t = await createTenant();
    const results = await Promise.all(Array.from({ length: 6 }, () => create(t, { title: 'Same title' })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(results.map((r) => r.body.slug)).size).toBe(6);
  });

  it('validates the body', async () => {
    const t = await createTenant();
    for (const body of [
      {},
      { title: '' },
      { title: 'x'.repeat(201) },
      { title: 'ok', slug: 'Not A Slug' },
      { title: 'ok', body: 'x'.repeat(100_001) },
      { title: 'ok', excerpt: 'x'.repeat(501) },
      { title: 'ok', status: 'archived' },
      { title: 'ok', categoryId: 'nope' },
      { title: 'ok', unknown: true },
    ]) {
      const res = await create(t, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
    const missingCategory = await create(t, { title: 'ok', categoryId: crypto.randomUUID() });
    expect(missingCategory.status).toBe(422);
    expect(missingCategory.body.error.code).toBe('article.category_not_found');
  });

  it('answers 403 to a key without articles:write', async () => {
    const t = await createTenant();
    const readOnly = await t.key({ scopes: ['articles:read'] });
    const res = await create(t, { title: 'Nope' }, readOnly);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth.forbidden');
    expect(res.body.error.message).toContain('articles:write');
  });
});

describe('GET and PATCH /articles/{articleId}', () => {
  it('publishes, keeps the first publishedAt, unpublishes and edits', async () => {
    const t = await createTenant();
    const { body: a } = await create(t, { title: 'Billing FAQ', body: 'Invoices are monthly.' });
    const published = await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { status: 'published' } });
    expect(published.status).toBe(200);
    expect(published.body.status).toBe('published');
    expect(published.body.publishedAt).toEqual(expect.any(String));

    const edited = await app.call('PATCH', `/articles/${a.id}`, {
      key: t.liveKey,
      body: {
        title: 'Billing questions',
        slug: 'billing',
        body: 'Invoices are **yearly**.',
        excerpt: 'About invoices',
      },
    });
    expect(edited.body).toMatchObject({
      title: 'Billing questions',
      slug: 'billing',
      excerpt: 'About invoices',
      body: 'Invoices are **yearly**.',
      bodyHtml: '<p>Invoices are <strong>yearly</strong>.</p>\n',
      publishedAt: published.body.publishedAt,
    });
    // The old slug is free again, the new one is taken.
    expect((await create(t, { title: 'x', slug: a.slug })).status).toBe(200);
    expect((await create(t, { title: 'x', slug: 'billing' })).body.error.code).toBe('article.slug_taken');

    const derived = await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { excerpt: null } });
    expect(derived.body.excerpt).toBe('Invoices are yearly.');

    const draft = await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { status: 'draft' } });
    expect(draft.body.status).toBe('draft');

    const got = await app.call('GET', `/articles/${a.id}`, { key: t.liveKey });
    expect(got.body).toEqual(draft.body);
  });

  it('escapes raw HTML in the body', async () => {
    const t = await createTenant();
    const { body } = await create(t, { title: 'x', body: 'Hi <script>alert(1)</script>' });
    expect(body.bodyHtml).not.toContain('<script>');
    expect(body.bodyHtml).toContain('&lt;script&gt;');
  });

  it('refuses an empty update, an unknown field and a slug taken by another article', async () => {
    const t = await createTenant();
    const { body: a } = await create(t, { title: 'First' });
    await create(t, { title: 'Second' });
    expect((await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: {} })).status).toBe(422);
    expect((await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { views: 1 } })).status).toBe(422);
    const taken = await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { slug: 'second' } });
    expect(taken.status).toBe(422);
    expect(taken.body.error.code).toBe('article.slug_taken');
  });

  it('is not found from another project, the other environment or with a malformed id', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const one = { 'Service-Project': 'one' };
    const two = { 'Service-Project': 'two' };
    const { body: a } = await app.call('POST', '/articles', {
      key: t.liveKey,
      headers: one,
      body: { title: 'Scoped' },
    });
    expect((await app.call('GET', `/articles/${a.id}`, { key: t.liveKey, headers: one })).status).toBe(200);
    for (const [key, headers] of [
      [t.liveKey, two],
      [t.sandboxKey, one],
      [t.liveKey, { ...one, 'Service-Environment': 'sandbox' }],
    ] as const) {
      expect((await app.call('GET', `/articles/${a.id}`, { key, headers })).status).toBe(404);
      const patch = await app.call('PATCH', `/articles/${a.id}`, { key, headers, body: { title: 'Stolen' } });
      expect(patch.status).toBe(404);
      expect(patch.body.error.code).toBe('not_found');
      expect(
        (await app.call('POST', `/articles/${a.id}/votes`, { key, headers, body: { helpful: true } })).status,
      ).toBe(404);
    }
    expect((await app.call('GET', '/articles/not-a-uuid', { key: t.liveKey, headers: one })).status).toBe(404);
    expect((await app.call('GET', `/articles/${a.id}`, { key: t.liveKey, headers: one })).body.title).toBe('Scoped');
  });
});

describe('GET /articles', () => {
  it('lists newest-updated first without bodies, with status, category and search filters', async () => {
    const t = await createTenant();
    const { body: cat } = await app.call('POST', '/article-categories', { key: t.liveKey, body: { name: 'Billing' } });
    const a = (await create(t, { title: 'Alpha guide', body: 'aaa', categoryId: cat.id })).body;
    const b = (await create(t, { title: 'Beta guide', body: 'bbb', status: 'published' })).body;
    const c = (await create(t, { title: 'Gamma notes', body: 'ccc', categoryId: cat.id, status: 'published' })).body;
    await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { body: 'updated' } });

    const all = await app.call('GET', '/articles', { key: t.liveKey });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 25 });
    expect(all.body.articles.map((x: { id: string }) => x.id)).toEqual([a.id, c.id, b.id]);
    expect(all.body.articles[0]).not.toHaveProperty('body');
    expect(all.body.articles[0]).not.toHaveProperty('bodyHtml');

    const ids = async (query: Record<string, string | number>) =>
      (await app.call('GET', '/articles', { key: t.liveKey, query })).body.articles.map((x: { id: string }) => x.id);
    expect(await ids({ status: 'published' })).toEqual([c.id, b.id]);
    expect(await ids({ status: 'draft' })).toEqual([a.id]);
    expect(await ids({ categoryId: cat.id })).toEqual([a.id, c.id]);
    expect(await ids({ categoryId: cat.id, status: 'published' })).toEqual([c.id]);
    expect(await ids({ search: 'GUIDE' })).toEqual([a.id, b.id]);
    expect(await ids({ search: 'gamma-notes' })).toEqual([c.id]);
    const paged = await app.call('GET', '/articles', { key: t.liveKey, query: { page: 2, limit: 2 } });
    expect(paged.body).toMatchObject({ total: 3, page: 2, limit: 2, articles: [{ id: b.id }] });

    expect((await app.call('GET', '/articles', { key: t.liveKey, query: { limit: 101 } })).status).toBe(422);
    expect((await app.call('GET', '/articles', { key: t.liveKey, query: { status: 'archived' } })).status).toBe(422);
    // Sandbox sees none of the live articles.
    expect((await app.call('GET', '/articles', { key: t.sandboxKey })).body.total).toBe(0);
  });
});

describe('article categories', () => {
  it('creates, lists by position with article counts, updates and deletes only when empty', async () => {
    const t = await createTenant();
    const post = (body: Record<string, unknown>) => app.call('POST', '/article-categories', { key: t.liveKey, body });
    const second = await post({ name: 'Getting Started', position: 2, description: 'Basics' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      id: expect.any(String),
      name: 'Getting Started',
      slug: 'getting-started',
      description: 'Basics',
      position: 2,
      articleCount: 0,
    });
    const first = (await post({ name: 'Billing', position: 1 })).body;
    expect((await post({ name: 'Getting started' })).body.slug).toBe('getting-started-2');
    expect((await post({ name: 'x', slug: 'billing' })).body.error.code).toBe('category.slug_taken');

    const article = (await create(t, { title: 'In billing', categoryId: first.id })).body;
    const list = await app.call('GET', '/article-categories', { key: t.liveKey });
    expect(list.body.categories.map((c: { slug: string; articleCount: number }) => [c.slug, c.articleCount])).toEqual([
      ['getting-started-2', 0],
      ['billing', 1],
      ['getting-started', 0],
    ]);

    const refused = await app.call('DELETE', `/article-categories/${first.id}`, { key: t.liveKey });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'category.not_empty', details: { articleCount: 1 } });

    // Moving the article moves the count.
    await app.call('PATCH', `/articles/${article.id}`, { key: t.liveKey, body: { categoryId: second.body.id } });
    const counts = (await app.call('GET', '/article-categories', { key: t.liveKey })).body.categories;
    expect(counts.find((c: { id: string }) => c.id === first.id).articleCount).toBe(0);
    expect(counts.find((c: { id: string }) => c.id === second.body.id).articleCount).toBe(1);

    const renamed = await app.call('PATCH', `/article-categories/${first.id}`, {
      key: t.liveKey,
      body: { name: 'Payments', slug: 'payments', description: null },
    });
    expect(renamed.body).toMatchObject({ name: 'Payments', slug: 'payments', description: null, position: 1 });

    const deleted = await app.call('DELETE', `/article-categories/${first.id}`, { key: t.liveKey });
    expect(deleted.body).toEqual({ deleted: true, id: first.id });
    expect((await app.call('DELETE', `/article-categories/${first.id}`, { key: t.liveKey })).status).toBe(404);
    // Its slug is free again.
    expect((await post({ name: 'Payments again', slug: 'payments' })).status).toBe(200);
  });

  it('is not found from another project or environment', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const { body: cat } = await app.call('POST', '/article-categories', {
      key: t.liveKey,
      headers: { 'Service-Project': 'one' },
      body: { name: 'Scoped' },
    });
    for (const [key, headers] of [
      [t.liveKey, { 'Service-Project': 'two' }],
      [t.sandboxKey, { 'Service-Project': 'one' }],
    ] as const) {
      expect(
        (await app.call('PATCH', `/article-categories/${cat.id}`, { key, headers, body: { name: 'x' } })).status,
      ).toBe(404);
      expect((await app.call('DELETE', `/article-categories/${cat.id}`, { key, headers })).status).toBe(404);
      const usedElsewhere = await app.call('POST', '/articles', {
        key,
        headers,
        body: { title: 'x', categoryId: cat.id },
      });
      expect(usedElsewhere.body.error.code).toBe('article.category_not_found');
      expect((await app.call('GET', '/article-categories', { key, headers })).body.categories).toEqual([]);
    }
  });
});

describe('POST /articles/{articleId}/votes', () => {
  it('counts 50 concurrent votes exactly', async () => {
    const t = await createTenant();
    const key = await t.key({ rateLimit: 1000 });
    const { body: a } = await create(t, { title: 'Popular' }, key);
    const votes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.call('POST', `/articles/${a.id}/votes`, { key, body: { helpful: i % 5 !== 0 } }),
      ),
    );
    expect(votes.every((v) => v.status === 200)).toBe(true);
    const got = await app.call('GET', `/articles/${a.id}`, { key });
    expect(got.body).toMatchObject({ helpfulYes: 40, helpfulNo: 10, updatedAt: a.updatedAt });
    expect((await app.call('POST', `/articles/${a.id}/votes`, { key, body: {} })).status).toBe(422);
  });

  it('is allowed with articles:read only', async () => {
    const t = await createTenant();
    const { body: a } = await create(t, { title: 'Readable' });
    const reader = await t.key({ scopes: ['articles:read'] });
    const res = await app.call('POST', `/articles/${a.id}/votes`, { key: reader, body: { helpful: false } });
    expect(res.body).toEqual({ id: a.id, helpfulYes: 0, helpfulNo: 1 });
  });
});

describe('GET /articles/search', () => {
  const search = (t: TenantFixture, query: Record<string, string | number>, key = t.liveKey) =>
    app.call('GET', '/articles/search', { key, query });
  const ids = (res: { body: { results: { id: string }[] } }) => res.body.results.map((r) => r.id);

  it('finds published articles by a body word, a prefix and one typo, never drafts', async () => {
    const t = await createTenant();
    const word = `zephyr${unique()}`;
    const { body: a } = await create(t, {
      title: 'Configuring webhooks',
      body: `Webhooks deliver the ${word} payload to your server.`,
    });
    await create(t, { title: 'Secret draft', body: `Draft about the ${word} payload.` });
    await app.drain();
    expect((await search(t, { q: word })).body).toEqual({ results: [], query: word, count: 0 });

    await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { status: 'published' } });
    await app.drain();
    const exact = await search(t, { q: word });
    expect(exact.status).toBe(200);
    expect(exact.body).toEqual({
      results: [
        {
          id: a.id,
          title: 'Configuring webhooks',
          slug: 'configuring-webhooks',
          excerpt: expect.stringContaining('Webhooks deliver'),
          categoryId: null,
          publishedAt: expect.any(String),
          highlight: {
            title: 'Configuring webhooks',
            excerpt: expect.stringContaining(`the <em>${word}</em> payload`),
          },
        },
      ],
      query: word,
      count: 1,
    });
    expect(ids(await search(t, { q: word.slice(0, 8) }))).toEqual([a.id]);
    expect(ids(await search(t, { q: 'delivr' }))).toEqual([a.id]); // one typo
    expect(ids(await search(t, { q: 'WEBHOOK' }))).toEqual([a.id]);
    expect(ids(await search(t, { q: 'quarterly' }))).toEqual([]);
  });

  it('ranks title matches first, filters by category slug and bounds limit', async () => {
    const t = await createTenant();
    const { body: cat } = await app.call('POST', '/article-categories', { key: t.liveKey, body: { name: 'Accounts' } });
    const inBody = (
      await create(t, {
        title: 'General help',
        body: 'You can change the password from settings. '.repeat(3),
        status: 'published',
      })
    ).body;
    const inTitle = (
      await create(t, {
        title: 'Password reset',
        body: 'Use the link in the email.',
        status: 'published',
        categoryId: cat.id,
      })
    ).body;
    await app.drain();
    expect(ids(await search(t, { q: 'password' }))).toEqual([inTitle.id, inBody.id]);
    expect(ids(await search(t, { q: 'password', category: 'accounts' }))).toEqual([inTitle.id]);
    expect(ids(await search(t, { q: 'password', category: 'no-such-category' }))).toEqual([]);
    expect((await search(t, { q: 'password', limit: 1 })).body.count).toBe(1);
    for (const limit of [0, 101, 'x']) {
      const res = await search(t, { q: 'password', limit });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
    }
    expect((await search(t, { q: 'password', mode: 'fuzzy' })).status).toBe(422);
  });

  it('searches content words with stems, ranks by how many match, and never drowns in stop words', async () => {
    const t = await createTenant();
    const long = (
      await create(t, {
        title: 'Everything about your account',
        body: `${'All of the things you can do with it are in this article. '.repeat(20)}`,
        status: 'published',
      })
    ).body;
    const del = (
      await create(t, {
        title: 'Delete mail',
        body: 'Sending a deleted mail to the trash: select the mails, then delete.',
        status: 'published',
      })
    ).body;
    const send = (await create(t, { title: 'Send invoices', body: 'Invoices are sent monthly.', status: 'published' }))
      .body;
    await app.drain();
    // Stop words ("I want to ... all ... from my") must not make the long article the only answer.
    expect(ids(await search(t, { q: 'I want to delete all mail from my account' }))[0]).toBe(del.id);
    expect(ids(await search(t, { q: 'sending invoice' }))[0]).toBe(send.id);
    const both = ids(await search(t, { q: 'deleting sent mails' }));
    expect(both[0]).toBe(del.id);
    expect(both).not.toContain(long.id);
    // Two letters are no prefix: "de" alone finds nothing.
    expect(ids(await search(t, { q: 'de' }))).toEqual([]);
    const hit = (await search(t, { q: 'delete' })).body.results[0];
    expect(hit.highlight).toEqual({
      title: '<em>Delete</em> mail',
      excerpt: expect.stringContaining('<em>deleted</em>'),
    });
  });

  it('keeps search per project and environment', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const word = `kumquat${unique()}`;
    await app.call('POST', '/articles', {
      key: t.liveKey,
      headers: { 'Service-Project': 'one' },
      body: { title: 'Fruit', body: word, status: 'published' },
    });
    await app.drain();
    const q = { q: word, project: 'one' };
    expect((await search(t, q)).body.count).toBe(1);
    expect((await search(t, { ...q, project: 'two' })).body.count).toBe(0);
    expect((await search(t, q, t.sandboxKey)).body.count).toBe(0);
  });

  it('finds by meaning in semantic and hybrid modes, and unpublishing removes the article from both indexes', async () => {
    const t = await createTenant();
    const word = `quasar${unique()}`;
    const { body: a } = await create(t, {
      title: 'Exporting your data',
      body: `You can export every ticket as CSV from the ${word} screen.\n\nExports are emailed when ready.`,
      status: 'published',
    });
    await create(t, { title: 'Team members', body: 'Invite colleagues to your account.', status: 'published' });
    await app.drain();
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      const res = await search(t, { q: `export tickets ${word}`, mode });
      expect(res.status).toBe(200);
      expect(ids(res)[0], mode).toBe(a.id);
    }

    await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { status: 'draft' } });
    await app.drain();
    for (const mode of ['keyword', 'semantic', 'hybrid']) {
      expect(ids(await search(t, { q: `export tickets ${word}`, mode })), mode).not.toContain(a.id);
    }
    // Publishing again brings it back.
    await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { status: 'published' } });
    await app.drain();
    expect(ids(await search(t, { q: word, mode: 'semantic' }))).toContain(a.id);
  });

  it('reflects edits of a published article', async () => {
    const t = await createTenant();
    const before = `before${unique()}`;
    const after = `after${unique()}`;
    const { body: a } = await create(t, { title: 'Changing', body: before, status: 'published' });
    await app.drain();
    expect(ids(await search(t, { q: before }))).toEqual([a.id]);
    await app.call('PATCH', `/articles/${a.id}`, { key: t.liveKey, body: { body: after, title: 'Changed title' } });
    await app.drain();
    expect(ids(await search(t, { q: before }))).toEqual([]);
    const res = await search(t, { q: after });
    expect(res.body.results).toEqual([expect.objectContaining({ id: a.id, title: 'Changed title' })]);
  });
});
