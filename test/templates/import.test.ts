import { ProjectTemplateVersion } from '@helpdesk/core/areas/templates/entities';
import { renderEmail, resolveTemplate } from '@helpdesk/core/areas/templates/render';
import { allowancesFor } from '@helpdesk/core/identity/plans';
import type { TenantContext } from '@helpdesk/core/kernel/tenant';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importer, importForm } from './helpers.js';

const app = await startTestApp();

const preview = (
  key: string,
  templateKey: string,
  variables: Record<string, unknown> = {},
  headers?: Record<string, string>,
) => app.call('POST', '/emails/preview', { key, body: { templateKey, variables }, headers });

describe('POST /email-templates/import', () => {
  it('imports a template: key from the file name, subject from its comment, variables from the AST', async () => {
    const t = await createTenant();
    const source = [
      '{{!-- subject: Order {{order.number}} for {{customer.name}} --}}',
      '<p>Hi {{customer.name}},</p>',
      '{{#if order.paid}}<p>Paid: {{formatMoney order.total currency=order.currency}}</p>{{/if}}',
      '{{#each order.items}}<li>{{@index}} {{name}} x{{qty}} {{../customer.name}}</li>{{/each}}',
      '<p>{{this.greeting}} {{@root.brand}}</p>',
    ].join('\n');
    const res = await importer(app, t.liveKey)('order-confirmation.hbs', source);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      key: 'order-confirmation',
      name: 'order-confirmation',
      type: 'template',
      scope: 'project',
      subject: 'Order {{order.number}} for {{customer.name}}',
      version: 1,
      variables: [
        'order.number',
        'customer.name',
        'order.paid',
        'order.total',
        'order.currency',
        'order.items',
        'order.items.name',
        'order.items.qty',
        'greeting',
        'brand',
      ],
      referencedPartials: [],
      layoutKey: null,
      layoutId: null,
      layoutLinked: false,
      warnings: [
        'The file calls the helper formatMoney on line 3, which does not exist: previews and sends are refused until it is removed.',
      ],
    });
  });

  it('lets the form fields override key, name and subject', async () => {
    const t = await createTenant();
    const res = await importer(app, t.liveKey)('file.hbs', '{{!-- subject: From file --}}Hi {{name}}', {
      key: 'welcome.v2',
      name: 'Welcome (v2)',
      subject: 'Welcome {{firstName}}',
    });
    expect(res.body).toMatchObject({ key: 'welcome.v2', name: 'Welcome (v2)', subject: 'Welcome {{firstName}}' });
    expect(res.body.variables).toEqual(['firstName', 'name']);
  });

  it('updates in place on re-import: same id, next version, every version kept', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const first = await imp('welcome.hbs', '{{!-- subject: One --}}<p>One {{a}}</p>');
    const second = await imp('welcome.hbs', '<p>Two {{b}}</p>', { name: 'Renamed' });
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.version).toBe(2);
    // No subject comment and no field: the current subject stays.
    expect(second.body.subject).toBe('One');
    expect(second.body.name).toBe('Renamed');

    const list = await app.call('GET', '/email-templates', { key: t.liveKey });
    expect(list.body.templates).toEqual([
      expect.objectContaining({ key: 'welcome', name: 'Renamed', type: 'template', scope: 'project', version: 2 }),
    ]);
    const rendered = await preview(t.liveKey, 'welcome', { b: 'B' });
    expect(rendered.body.html).toBe('<p>Two B</p>');

    const projectId = t.projects.main!.id;
    const versions = await ProjectTemplateVersion.query
      .byVersion({ projectId, env: 'live' })
      .begins({ type: 'template', key: 'welcome' })
      .go();
    expect(versions.data.map((v) => v.version).sort()).toEqual([1, 2]);
  });

  it('renders the version a send recorded, and resolves the current one for send-time checks', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    await imp('receipt.hbs', '{{!-- subject: First {{n}} --}}<p>first {{n}}</p>');
    await imp('receipt.hbs', '{{!-- subject: Second {{n}} --}}<p>second {{n}}</p>');
    const main = t.projects.main!;
    const ctx: TenantContext = {
      accountId: t.accountId,
      plan: 'pro',
      allowances: allowancesFor('pro'),
      env: 'live',
      projectId: main.id,
      projectSlug: main.slug,
      project: main,
    };
    expect(await resolveTemplate(ctx, 'receipt')).toMatchObject({ key: 'receipt', version: 2 });
    expect(await resolveTemplate(ctx, 'nope')).toBeUndefined();
    expect(await resolveTemplate({ ...ctx, env: 'sandbox' }, 'receipt')).toBeUndefined();
    const old = await renderEmail(ctx, { templateKey: 'receipt', variables: { n: 1 }, version: 1 });
    expect(old).toMatchObject({
      subject: 'First 1',
      html: '<p>first 1</p>',
      text: 'first 1',
      templateKey: 'receipt',
      templateVersion: 1,
    });
    const current = await renderEmail(ctx, { templateKey: 'receipt', variables: {} });
    expect(current).toMatchObject({
      subject: 'Second',
      html: '<p>second </p>',
      templateVersion: 2,
      missingVariables: ['n'],
    });
    await expect(renderEmail(ctx, { templateKey: 'receipt', variables: {}, version: 3 })).rejects.toMatchObject({
      code: 'template.not_found',
    });
  });

  it('links the layout from the file comment; the layout field overrides it; none or empty removes it', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const base = await imp('base.hbs', '<div class="base">{{{body}}}</div>', { type: 'layout' });
    const alt = await imp('alt.hbs', '<div class="alt">{{{body}}}</div>', { type: 'layout' });
    expect(base.body).toMatchObject({ type: 'layout', warnings: [] });

    const fromComment = await imp('note.hbs', '{{!-- layout: base --}}<p>Note</p>');
    expect(fromComment.body).toMatchObject({
      layoutKey: 'base',
      layoutId: base.body.id,
      layoutLinked: true,
      warnings: [],
    });
    expect((await preview(t.liveKey, 'note')).body.html).toBe('<div class="base"><p>Note</p></div>');

    const fromField = await imp('note.hbs', '{{!-- layout: base --}}<p>Note</p>', { layout: 'alt' });
    expect(fromField.body).toMatchObject({ layoutKey: 'alt', layoutId: alt.body.id, layoutLinked: true });
    expect((await preview(t.liveKey, 'note')).body.html).toBe('<div class="alt"><p>Note</p></div>');

    const kept = await imp('note.hbs', '<p>Note 2</p>');
    expect(kept.body).toMatchObject({ layoutKey: 'alt', layoutLinked: true, version: 3 });

    const none = await imp('note.hbs', '<p>Note 3</p>', { layout: 'none' });
    expect(none.body).toMatchObject({ layoutKey: null, layoutId: null, layoutLinked: false });
    expect((await preview(t.liveKey, 'note')).body.html).toBe('<p>Note 3</p>');

    await imp('note.hbs', '<p>Note 4</p>', { layout: 'base' });
    const empty = await imp('note.hbs', '{{!-- layout: base --}}<p>Note 5</p>', { layout: '' });
    expect(empty.body).toMatchObject({ layoutKey: null, layoutLinked: false });
  });

  it('warns that a layout or subject comment in a layout or partial is ignored, as it does for the fields', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    await imp('outer.hbs', '<main>{{{body}}}</main>', { type: 'layout' });
    const layout = await imp('inner.hbs', '{{!-- layout: outer --}}\n<div>{{{body}}}</div>', { type: 'layout' });
    expect(layout.status).toBe(200);
    expect(layout.body).toMatchObject({ layoutKey: null, layoutLinked: false });
    expect(layout.body.warnings).toEqual(['The layout comment applies to templates only and was ignored.']);
    const partial = await imp('card.hbs', '{{!-- subject: Hi --}}{{!-- layout: outer --}}<p>{{x}}</p>', {
      type: 'partial',
    });
    expect(partial.body.warnings).toEqual([
      'The subject comment applies to templates only and was ignored.',
      'The layout comment applies to templates only and was ignored.',
    ]);
  });

  it('still imports when the layout does not resolve, with a warning, and sends render unwrapped', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const res = await imp('promo.hbs', '<p>Promo</p>', { layout: 'missing' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ layoutKey: 'missing', layoutId: null, layoutLinked: false });
    expect(res.body.warnings).toEqual([expect.stringContaining('missing')]);
    // Linking happens at import: a layout imported later does not wrap until the template is re-imported.
    await imp('missing.hbs', '<section>{{{body}}}</section>', { type: 'layout' });
    expect((await preview(t.liveKey, 'promo')).body.html).toBe('<p>Promo</p>');
    const relinked = await imp('promo.hbs', '<p>Promo</p>');
    expect(relinked.body.layoutLinked).toBe(true);
    expect((await preview(t.liveKey, 'promo')).body.html).toBe('<section><p>Promo</p></section>');
  });

  it('does not link a project template to an account layout', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey, { account: true })('brand.hbs', '<b>{{{body}}}</b>', { type: 'layout' });
    const res = await importer(app, t.liveKey)('promo.hbs', '<p>Promo</p>', { layout: '@account/brand' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ layoutKey: '@account/brand', layoutId: null, layoutLinked: false });
    expect(res.body.warnings).toEqual([expect.stringContaining('project templates can use only project layouts')]);
    expect((await preview(t.liveKey, 'promo')).body.html).toBe('<p>Promo</p>');
  });

  it('reports unresolved partials as warnings, renders them empty, and picks them up once imported', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const res = await imp('receipt.hbs', '<p>{{total}}</p>{{> footer}}{{> @account/legal}}');
    expect(res.status).toBe(200);
    expect(res.body.referencedPartials).toEqual(['footer', '@account/legal']);
    expect(res.body.warnings).toEqual([expect.stringContaining('footer'), expect.stringContaining('@account/legal')]);
    expect((await preview(t.liveKey, 'receipt', { total: 5 })).body.html).toBe('<p>5</p>');

    await imp('footer.hbs', '<footer>{{company.name}}</footer>', { type: 'partial' });
    await importer(app, t.liveKey, { account: true })('legal.hbs', '<small>{{legal}}</small>', { type: 'partial' });
    const rendered = await preview(t.liveKey, 'receipt', { total: 5, company: { name: 'ACME' }, legal: 'L' });
    expect(rendered.body.html).toBe('<p>5</p><footer>ACME</footer><small>L</small>');
    // Partials' variables count as the template's.
    expect(rendered.body.detectedVariables).toEqual(['total', 'company.name', 'legal']);
    const again = await imp('receipt.hbs', '<p>{{total}}</p>{{> footer}}{{> @account/legal}}');
    expect(again.body.warnings).toEqual([]);
    expect(again.body.variables).toEqual(['total', 'company.name', 'legal']);
  });

  it('answers 422 with line and column for a file that is not valid Handlebars', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const unclosed = await imp('bad.hbs', '<p>ok</p>\n<p>{{#if x}}yes{{/each}}</p>');
    expect(unclosed.status).toBe(422);
    expect(unclosed.body.error).toMatchObject({ code: 'template.invalid', details: { line: 2, column: 7 } });
    const syntax = await imp('bad.hbs', 'line one\nline two {{name');
    expect(syntax.status).toBe(422);
    expect(syntax.body.error.details).toMatchObject({ line: 2 });
    expect(syntax.body.error.details.column).toBeGreaterThan(9);
    const badSubject = await imp('bad.hbs', 'fine', { subject: 'Hi {{#if}}' });
    expect(badSubject.status).toBe(422);
    expect(badSubject.body.error.code).toBe('template.invalid');
    expect(badSubject.body.error.message).toContain('subject');
    // Nothing was stored.
    expect((await app.call('GET', '/email-templates', { key: t.liveKey })).body.templates).toEqual([]);
  });

  it('answers 422 for a missing file, a bad type, a bad key and a file over 512 KB', async () => {
    const t = await createTenant();
    const call = (form: FormData) => app.call('POST', '/email-templates/import', { key: t.liveKey, rawBody: form });
    const noFile = await call(importForm(undefined, undefined, { key: 'x' }));
    expect(noFile.status).toBe(422);
    expect(noFile.body.error.code).toBe('validation.failed');
    const badType = await call(importForm('x.hbs', 'x', { type: 'snippet' }));
    expect(badType.status).toBe(422);
    expect(badType.body.error.details.fields[0].field).toBe('type');
    const badKey = await call(importForm('x.hbs', 'x', { key: 'has space' }));
    expect(badKey.status).toBe(422);
    const tooBig = await call(importForm('big.hbs', 'x'.repeat(512 * 1024 + 1)));
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error.details.fields[0].field).toBe('file');
    const wayTooBig = await call(importForm('big.hbs', 'x'.repeat(2 * 1024 * 1024)));
    expect(wayTooBig.status).toBe(422);
    expect(wayTooBig.body.error.details.fields).toEqual([
      { field: '(body)', in: 'body', message: 'A file is larger than this operation takes' },
    ]);
    const atLimit = await call(importForm('edge.hbs', 'x'.repeat(512 * 1024)));
    expect(atLimit.status).toBe(200);
    const unknownField = await call(importForm('x.hbs', 'x', { colour: 'red' } as never));
    expect(unknownField.status).toBe(422);
    // A subject is a header: a line break in it could add one (and the send would refuse it forever).
    const brokenSubject = await call(importForm('x.hbs', 'x', { subject: 'Hello\r\nBcc: evil@example.com' }));
    expect(brokenSubject.status).toBe(422);
    expect(brokenSubject.body.error.details.fields[0].field).toBe('subject');
    const brokenComment = await call(importForm('y.hbs', '{{!-- subject: Hello\nBcc: evil@example.com --}}x'));
    expect(brokenComment.status).toBe(422);
    expect(brokenComment.body.error.details.fields[0].field).toBe('file');
  });

  it('needs the emails:manage scope', async () => {
    const t = await createTenant();
    const sender = await t.key({ scopes: ['emails:send'] });
    const res = await importer(app, sender)('x.hbs', 'x');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth.forbidden');
  });

  it('keeps project items per project and environment', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const imp = importer(app, t.liveKey, { headers: { 'Service-Project': 'one' } });
    await imp('welcome.hbs', 'Hi');
    const list = (key: string, project: string, env?: string) =>
      app.call('GET', '/email-templates', {
        key,
        headers: { 'Service-Project': project, ...(env ? { 'Service-Environment': env } : {}) },
      });
    expect((await list(t.liveKey, 'one')).body.templates.map((r: { key: string }) => r.key)).toEqual(['welcome']);
    expect((await list(t.liveKey, 'two')).body.templates).toEqual([]);
    expect((await list(t.sandboxKey, 'one')).body.templates).toEqual([]);
    const other = await preview(t.liveKey, 'welcome', {}, { 'Service-Project': 'two' });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('template.not_found');
  });
});

describe('POST /account/email-templates/import', () => {
  it('shares account items with every project and both environments under @account/', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const res = await importer(app, t.liveKey, { account: true })(
      'file.hbs',
      '{{!-- subject: Hi {{name}} --}}<p>Hi {{name}}</p>{{> sig}}',
      {
        key: '@account/welcome',
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      key: '@account/welcome',
      scope: 'account',
      version: 1,
      referencedPartials: ['@account/sig'],
    });
    await importer(app, t.liveKey, { account: true })('sig.hbs', '<i>{{team}}</i>', { type: 'partial' });

    for (const [key, project] of [
      [t.liveKey, 'one'],
      [t.liveKey, 'two'],
      [t.sandboxKey, 'two'],
    ] as const) {
      const r = await preview(
        key,
        '@account/welcome',
        { name: 'Ann', team: 'Support' },
        { 'Service-Project': project },
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ subject: 'Hi Ann', html: '<p>Hi Ann</p><i>Support</i>' });
    }
    // One shared item, which live mail renders: a sandbox key may read it but never change it.
    const fromSandbox = await importer(app, t.sandboxKey, { account: true })('welcome.hbs', '<p>v2</p>');
    expect(fromSandbox.status).toBe(403);
    const fromLive = await importer(app, t.liveKey, { account: true })('welcome.hbs', '<p>v2</p>');
    expect(fromLive.body).toMatchObject({ id: res.body.id, version: 2 });
    const live = await app.call('GET', '/email-templates', { key: t.liveKey, headers: { 'Service-Project': 'one' } });
    expect(live.body.templates).toEqual([
      expect.objectContaining({ key: '@account/sig', type: 'partial', scope: 'account' }),
      expect.objectContaining({ key: '@account/welcome', type: 'template', scope: 'account', version: 2 }),
    ]);
  });

  it('resolves an account template layout by key at send time', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey, { account: true });
    const res = await imp('news.hbs', '{{!-- layout: frame --}}<p>News</p>');
    expect(res.body).toMatchObject({ layoutKey: '@account/frame', layoutLinked: false });
    expect(res.body.warnings).toEqual([expect.stringContaining('send time')]);
    expect((await preview(t.liveKey, '@account/news')).body.html).toBe('<p>News</p>');
    await imp('frame.hbs', '<div>{{{body}}}</div>', { type: 'layout' });
    expect((await preview(t.liveKey, '@account/news')).body.html).toBe('<div><p>News</p></div>');
  });
});
