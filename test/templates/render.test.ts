import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importer } from './helpers.js';

const app = await startTestApp();

const fixture = (name: string) => readFile(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** Compares with test/templates/golden/<name>; `UPDATE_GOLDEN=1` rewrites the file instead. */
async function expectGolden(name: string, actual: string) {
  const file = new URL(`./golden/${name}`, import.meta.url);
  if (process.env.UPDATE_GOLDEN) await writeFile(file, actual);
  expect(actual).toBe(await readFile(file, 'utf8'));
}

const variables = {
  customer: { firstName: 'Ann <3' },
  order: {
    number: 1042,
    items: [
      { name: 'Widget', quantity: 2 },
      { name: 'Gadget & co', quantity: 1 },
    ],
    trackingUrl: 'https://track.example/1Z999',
    carrier: 'UPS',
    accountUrl: 'https://shop.example/orders/1042',
  },
  brand: { name: 'Shop', address: '1 Main St', logoUrl: 'https://shop.example/logo.png' },
  unsubscribeUrl: 'https://shop.example/unsubscribe?u=1',
};

async function importShippedEmail(key: string) {
  await importer(app, key, { account: true })('footer.hbs', await fixture('footer.hbs'), { type: 'partial' });
  await importer(app, key)('email.hbs', await fixture('email.hbs'), { type: 'layout' });
  await importer(app, key)('button.hbs', await fixture('button.hbs'), { type: 'partial' });
  return importer(app, key)('order-shipped.hbs', await fixture('order-shipped.hbs'));
}

describe('template rendering', () => {
  it('renders a template with its layout and partials (golden files)', async () => {
    const t = await createTenant();
    const imported = await importShippedEmail(t.liveKey);
    expect(imported.body).toMatchObject({
      subject: 'Your order #{{order.number}} has shipped',
      layoutKey: 'email',
      layoutLinked: true,
      referencedPartials: ['button'],
      warnings: [],
    });
    const html = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'order-shipped', variables },
    });
    expect(html.status).toBe(200);
    expect(html.body.subject).toBe('Your order #1042 has shipped');
    await expectGolden('order-shipped.html', html.body.html);
    expect(html.body.missingVariables).toEqual(['note']);

    const text = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'order-shipped', variables, format: 'text' },
    });
    await expectGolden('order-shipped.txt', text.body.text);
  });

  it('writes the text part of a realistic email: links as text (url), lists, headings, one line per block', async () => {
    const t = await createTenant();
    await importShippedEmail(t.liveKey);
    const res = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'order-shipped', variables: { ...variables, note: 'It ships today.' }, format: 'text' },
    });
    expect(res.body.text.split('\n')).toEqual([
      'Good news, Ann <3!',
      'Your order #1042 is on its way. It ships today.',
      "What's in the box",
      '- Widget × 2',
      '- Gadget & co × 1',
      'Track it with UPS (https://track.example/1Z999), or open your account:',
      'View my order (https://shop.example/orders/1042)',
      'What happens next',
      '1. UPS picks it up',
      '2. It arrives',
      'Thanks,',
      'The Shop team',
      'Shop · 1 Main St',
      'Unsubscribe (https://shop.example/unsubscribe?u=1)',
    ]);
    expect(res.body.missingVariables).toEqual([]);
  });

  it('escapes variables in HTML, not in the subject; missing variables render empty and are reported', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('hello.hbs', '<p>{{greeting}} {{user.name}}</p><p>{{{trusted}}}</p>', {
      subject: '{{user.name}} & {{team}}',
    });
    const res = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'hello', variables: { user: { name: '<b>Bo</b>' }, trusted: '<i>ok</i>' } },
    });
    expect(res.body).toEqual({
      subject: '<b>Bo</b> &',
      html: '<p> &lt;b&gt;Bo&lt;/b&gt;</p><p><i>ok</i></p>',
      detectedVariables: ['user.name', 'team', 'greeting', 'trusted'],
      missingVariables: ['team', 'greeting'],
    });
  });

  it('answers 422 template.not_found for an unknown template key', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'nope', variables: {} },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'template.not_found', details: { templateKey: 'nope' } });
  });

  it('answers 422 naming a helper that does not exist, where it stands and its line', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('fancy.hbs', '<p>\n{{shout name}}</p>');
    const res = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'fancy', variables: { name: 'x' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({
      code: 'template.unknown_helper',
      message: expect.stringMatching(/^The template fancy calls the helper shout on line 2, which does not exist/),
      details: { helper: 'shout', in: 'template', key: 'fancy', line: 2 },
    });
  });
});

describe('GET /email-templates/{key}/schema', () => {
  it('returns key, name, subject and the variables of the template, its partials and layout', async () => {
    const t = await createTenant();
    await importShippedEmail(t.liveKey);
    const res = await app.call('GET', '/email-templates/order-shipped/schema', { key: t.liveKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      key: 'order-shipped',
      name: 'order-shipped',
      subject: 'Your order #{{order.number}} has shipped',
      variables: [
        'order.number',
        'customer.firstName',
        'note',
        'order.items',
        'order.items.name',
        'order.items.quantity',
        'order.trackingUrl',
        'order.carrier',
        'order.accountUrl',
        'brand.name',
        'brand.logoUrl',
        'brand.address',
        'unsubscribeUrl',
      ],
    });
  });

  it('reads partial variables through the context and hash the call passes', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('card.hbs', '<b>{{name}}</b> {{role}} {{@index}}', { type: 'partial' });
    await importer(app, t.liveKey)(
      'team.hbs',
      '{{#each people}}{{> card role="member"}}{{/each}}{{> card boss}}{{> card}}',
    );
    const res = await app.call('GET', '/email-templates/team/schema', { key: t.liveKey });
    expect(res.body.variables).toEqual(['people', 'boss', 'people.name', 'boss.name', 'boss.role', 'name', 'role']);
  });

  it('answers for account templates at /email-templates/@account/{key}/schema', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey, { account: true })(
      'digest.hbs',
      '{{!-- subject: {{count}} updates --}}{{#each posts}}{{title}}{{/each}}',
    );
    const res = await app.call('GET', '/email-templates/@account/digest/schema', { key: t.sandboxKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      key: '@account/digest',
      name: 'digest',
      subject: '{{count}} updates',
      variables: ['count', 'posts', 'posts.title'],
    });
    // The same key sent encoded in the {key} route.
    const encoded = await app.call('GET', '/email-templates/%40account%2Fdigest/schema', { key: t.sandboxKey });
    expect(encoded.status).toBe(200);
    expect(encoded.body).toEqual(res.body);
    expect((await app.call('GET', '/email-templates/%40account%2Fnope/schema', { key: t.sandboxKey })).status).toBe(
      404,
    );
  });

  it('answers 404 for an unknown key, another project, the other environment, and a layout', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    await importer(app, t.liveKey, { headers: { 'Service-Project': 'one' } })('welcome.hbs', 'Hi {{name}}');
    await importer(app, t.liveKey, { headers: { 'Service-Project': 'one' } })('frame.hbs', '{{{body}}}', {
      type: 'layout',
    });
    const get = (path: string, key: string, project: string) =>
      app.call('GET', path, { key, headers: { 'Service-Project': project } });
    expect((await get('/email-templates/welcome/schema', t.liveKey, 'one')).status).toBe(200);
    for (const res of [
      await get('/email-templates/nope/schema', t.liveKey, 'one'),
      await get('/email-templates/welcome/schema', t.liveKey, 'two'),
      await get('/email-templates/welcome/schema', t.sandboxKey, 'one'),
      await get('/email-templates/frame/schema', t.liveKey, 'one'),
      await get('/email-templates/@account/welcome/schema', t.liveKey, 'one'),
      await get('/email-templates/bad%20key/schema', t.liveKey, 'one'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('GET /email-templates', () => {
  it('lists project items, then @account/ items, with the agreed fields', async () => {
    const t = await createTenant();
    await importShippedEmail(t.liveKey);
    const res = await app.call('GET', '/email-templates', { key: t.liveKey });
    expect(res.status).toBe(200);
    expect(res.body.templates.map((r: { key: string; type: string }) => `${r.key}:${r.type}`)).toEqual([
      'button:partial',
      'email:layout',
      'order-shipped:template',
      '@account/footer:partial',
    ]);
    expect(res.body.templates[2]).toEqual({
      key: 'order-shipped',
      name: 'order-shipped',
      type: 'template',
      scope: 'project',
      subject: 'Your order #{{order.number}} has shipped',
      version: 1,
      layoutKey: 'email',
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });
});
