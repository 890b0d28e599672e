import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importer } from './helpers.js';

const app = await startTestApp();

describe('POST /emails/preview, custom', () => {
  it('renders Markdown into the built-in responsive shell', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 'Hello & welcome', body: '# Hi\n\nSee **the docs** at [our site](https://example.com/docs).' },
    });
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe('Hello & welcome');
    expect(res.body.html).toContain('<meta name="viewport"');
    expect(res.body.html).toContain('<title>Hello &amp; welcome</title>');
    expect(res.body.html).toContain('<h1>Hi</h1>');
    expect(res.body.html).toContain('<strong>the docs</strong>');
    expect(res.body.text).toBeUndefined();
    expect(res.body.detectedVariables).toEqual([]);
  });

  it('answers text with links as text (url), one line per block', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 'S', body: 'First para with [a link](https://example.com/a).\n\nSecond para.', format: 'text' },
    });
    expect(res.status).toBe(200);
    expect(res.body.html).toBeUndefined();
    expect(res.body.text).toBe('First para with a link (https://example.com/a).\nSecond para.');
  });

  it('wraps in a named layout, project or @account/, and refuses an unknown one', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('base.hbs', '<main class="p">{{{body}}}</main>', { type: 'layout' });
    await importer(app, t.liveKey, { account: true })('brand.hbs', '<div class="a">{{{body}}}</div>', {
      type: 'layout',
    });
    const project = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 'S', body: 'Hi', layout: 'base' },
    });
    expect(project.body.html).toBe('<main class="p"><p>Hi</p>\n</main>');
    const account = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 'S', body: 'Hi', layout: '@account/brand' },
    });
    expect(account.body.html).toBe('<div class="a"><p>Hi</p>\n</div>');
    const missing = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 'S', body: 'Hi', layout: 'nope' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toBe('template.not_found');
    expect(missing.body.error.message).toContain('nope');
  });

  it('validates the custom variant: subject at most 200, body at most 50000, unknown fields refused', async () => {
    const t = await createTenant();
    const long = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 'x'.repeat(201), body: 'b' },
    });
    expect(long.status).toBe(422);
    const big = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 's', body: 'b'.repeat(50001) },
    });
    expect(big.status).toBe(422);
    const extra = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 's', body: 'b', to: 'x@y.z' },
    });
    expect(extra.status).toBe(422);
    expect(extra.body.error.code).toBe('validation.failed');
  });

  it('bounds layout and templateKey before any lookup, and a self-including partial imports without a false warning', async () => {
    const t = await createTenant();
    const long = 'k'.repeat(1_100);
    for (const body of [{ subject: 'S', body: 'B', layout: long }, { templateKey: long }]) {
      const res = await app.call('POST', '/emails/preview', { key: t.liveKey, body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
      expect(res.body.error.message.length).toBeLessThan(500);
    }
    const tree = await importer(app, t.liveKey)(
      'node.hbs',
      '<li>{{name}}<ul>{{#each children}}{{> node}}{{/each}}</ul></li>',
      { type: 'partial' },
    );
    expect(tree.status).toBe(200);
    expect(tree.body.warnings).toEqual([]);
  });

  it('names the failing fields of the variant meant, chosen by the presence of templateKey', async () => {
    const t = await createTenant();
    const fields = async (body: unknown) => {
      const res = await app.call('POST', '/emails/preview', { key: t.liveKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('validation.failed');
      expect(res.body.error.message).not.toContain('Expected Object but received Object');
      return res.body.error.details.fields.map((f: { field: string; message: string }) => `${f.field}: ${f.message}`);
    };
    expect(await fields({})).toEqual([expect.stringMatching(/^subject: /), expect.stringMatching(/^body: /)]);
    expect(await fields({ subject: 's', body: 'b', format: 'pdf' })).toEqual(['format: Expected one of html, text']);
    expect(await fields({ templateKey: 123 })).toEqual([
      expect.stringMatching(/^templateKey: templateKey must be a non-empty string/),
    ]);
    expect(await fields({ templateKey: 'k', variables: [1, 2] })).toEqual(['variables: Expected a JSON object']);
    expect(await fields({ templateKey: 'k', subject: 's' })).toEqual([expect.stringMatching(/^subject: /)]);
    expect(await fields({ subject: 'a\u0000b', body: 'b' })).toEqual([
      expect.stringMatching(/^subject: Control characters/),
    ]);
    expect(await fields({ subject: 'a\u2028b', body: 'b' })).toEqual([
      expect.stringMatching(/^subject: Control characters/),
    ]);
  });
});
