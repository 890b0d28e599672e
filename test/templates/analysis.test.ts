import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importer } from './helpers.js';

const app = await startTestApp();

const preview = (key: string, templateKey: string, variables: Record<string, unknown> = {}) =>
  app.call('POST', '/emails/preview', { key, body: { templateKey, variables } });

describe('nesting limit and our own error messages', () => {
  it('refuses blocks nested past 100 levels at once, naming the limit and where; 100 levels import', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const nested = (n: number) => `<p>\n${'{{#if a}}'.repeat(n)}x${'{{/if}}'.repeat(n)}</p>`;
    const deep = await imp('deep.hbs', nested(3000));
    expect(deep.status).toBe(422);
    expect(deep.body.error).toEqual({
      code: 'template.invalid',
      message: 'The file nests blocks or sub-expressions deeper than the limit of 100 levels (line 2, column 901).',
      details: { line: 2, column: 901, reason: 'blocks or sub-expressions nest deeper than 100 levels' },
    });
    expect((await imp('edge.hbs', nested(100))).status).toBe(200);
    expect((await imp('over.hbs', nested(101))).status).toBe(422);

    const parens = await imp('parens.hbs', `{{#if ${'(or '.repeat(3000)}a${')'.repeat(3000)}}}x{{/if}}`);
    expect(parens.status).toBe(422);
    expect(parens.body.error.message).toContain('limit of 100 levels');
    const subject = await imp('s.hbs', 'body', { subject: `{{#if ${'(or '.repeat(101)}a${')'.repeat(101)}}}x{{/if}}` });
    expect(subject.status).toBe(422);
    expect(subject.body.error.message).toMatch(
      /^The subject nests blocks or sub-expressions deeper than the limit of 100 levels \(line 1, column 407\)/,
    );
    // Comments and escaped mustaches do not count.
    expect((await imp('comment.hbs', `{{!-- ${'{{#if a}}'.repeat(200)} --}}\\{{#if}}ok`)).status).toBe(200);
  });

  it('words parse errors itself: no parser text in the message or details', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const mismatch = await imp('bad.hbs', '<p>ok</p>\n<p>{{#if x}}yes{{/each}}</p>');
    expect(mismatch.body.error).toEqual({
      code: 'template.invalid',
      message: 'The file is not valid Handlebars (line 2, column 7): {{/each}} does not close {{#if}}.',
      details: { line: 2, column: 7, reason: '{{/each}} does not close {{#if}}' },
    });
    const open = await imp('bad.hbs', 'Hi {{#if x}}yes');
    expect(open.body.error.details.reason).toBe('unexpected the end of the source (a tag or block is left open)');
    const close = await imp('bad.hbs', 'Hi {{> }}');
    expect(close.body.error.details.reason).toBe('unexpected }}');
    for (const res of [mismatch, open, close])
      expect(JSON.stringify(res.body)).not.toMatch(/Parse error|Expecting|doesn't match/);
  });

  it('answers a render failure in its own words (a partial that includes itself)', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('loop.hbs', '<i>{{> loop}}</i>', { type: 'partial' });
    await importer(app, t.liveKey)('looping.hbs', '<p>{{> loop}}</p>');
    const res = await preview(t.liveKey, 'looping');
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({
      code: 'template.render_failed',
      message: 'The template looping could not be rendered: its partials include each other without end.',
      details: { in: 'template', key: 'looping' },
    });
  });

  it('stops a render that fans out past its limits: partials that call the next ten times, loops in loops', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    // Six partials of ten calls each: a million leaves from 90 bytes of source.
    await imp('wide.hbs', '{{> w1}}'.repeat(10));
    for (let level = 1; level <= 5; level++)
      await imp(`w${level}.hbs`, `{{> w${level + 1}}}`.repeat(10), { type: 'partial' });
    await imp('w6.hbs', 'leaf ', { type: 'partial' });
    const started = Date.now();
    const wide = await preview(t.liveKey, 'wide');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(wide.status).toBe(422);
    expect(wide.body.error).toEqual({
      code: 'template.render_failed',
      message:
        'The template wide could not be rendered: with these variables its partials and loops render more than an email can hold.',
      details: { in: 'template', key: 'wide' },
    });
    // Loops in loops over the variables, inline partials alike.
    await imp('square.hbs', '{{#each items}}{{#each ../items}}{{#each ../../items}}.{{/each}}{{/each}}{{/each}}');
    const items = Array.from({ length: 100 }, (_, i) => i);
    expect((await preview(t.liveKey, 'square', { items })).body.error?.code).toBe('template.render_failed');
    await imp(
      'inline.hbs',
      `{{#*inline "a"}}${'{{> b}}'.repeat(10)}{{/inline}}{{#*inline "b"}}${'x'.repeat(50_000)}{{/inline}}${'{{> a}}'.repeat(50)}`,
    );
    expect((await preview(t.liveKey, 'inline')).body.error?.code).toBe('template.render_failed');
    // An ordinary invoice: a thousand lines through a partial each.
    await imp('line.hbs', '<tr><td>{{name}}</td><td>{{price}}</td></tr>', { type: 'partial' });
    await imp('invoice.hbs', '<table>{{#each lines}}{{> line}}{{/each}}</table>');
    const lines = Array.from({ length: 1000 }, (_, i) => ({ name: `Item ${i}`, price: i }));
    const invoice = await preview(t.liveKey, 'invoice', { lines });
    expect(invoice.status).toBe(200);
    expect(invoice.body.html.match(/<tr>/g)).toHaveLength(1000);
  });
});

describe('inline partials', () => {
  const withInline =
    '{{!-- subject: Hi --}}{{#*inline "content"}}<p>Hi {{name}}</p>{{/inline}}{{#> preview}}fallback{{/preview}}';

  it('account scope: the inline partial is not rewritten to @account/, not reported, and renders through a partial', async () => {
    const t = await createTenant();
    const account = importer(app, t.liveKey, { account: true });
    await account('preview.hbs', '<div class="preview">{{> content}}</div>', { type: 'partial' });
    const res = await account('welcome.hbs', withInline);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ referencedPartials: ['@account/preview'], warnings: [], variables: ['name'] });
    const rendered = await preview(t.liveKey, '@account/welcome', { name: 'Ann' });
    expect(rendered.body.html).toBe('<div class="preview"><p>Hi Ann</p></div>');

    const sent = await app.call('POST', '/emails/send', {
      key: t.sandboxKey,
      body: { to: 'a@example.com', templateKey: '@account/welcome', variables: { name: 'Bo' } },
    });
    expect(sent.status).toBe(200);
    await app.drain();
    const row = await app.call('GET', `/emails/${sent.body.id}`, { key: t.sandboxKey });
    expect(row.body.captured.html).toBe('<div class="preview"><p>Hi Bo</p></div>');
  });

  it('project scope: no false "does not resolve" warning, and the inline definition wins over a stored partial of the same name', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    await imp('preview.hbs', '<div>{{> content}}</div>', { type: 'partial' });
    const res = await imp('welcome.hbs', withInline);
    expect(res.body).toMatchObject({ referencedPartials: ['preview'], warnings: [] });
    await imp('content.hbs', '<p>stored</p>', { type: 'partial' });
    expect((await preview(t.liveKey, 'welcome', { name: 'Ann' })).body.html).toBe('<div><p>Hi Ann</p></div>');
    await imp('plain.hbs', '{{> preview}}');
    expect((await preview(t.liveKey, 'plain')).body.html).toBe('<div><p>stored</p></div>');
  });

  it('account scope: the inline definition wins over a stored @account/ partial of the same name, which still serves others', async () => {
    const t = await createTenant();
    const account = importer(app, t.liveKey, { account: true });
    await account('preview.hbs', '<div>{{> content}}</div>', { type: 'partial' });
    await account('content.hbs', '<p>stored</p>', { type: 'partial' });
    await account('welcome.hbs', withInline);
    await account('plain.hbs', '{{> preview}}');
    expect((await preview(t.liveKey, '@account/welcome', { name: 'Ann' })).body.html).toBe('<div><p>Hi Ann</p></div>');
    expect((await preview(t.liveKey, '@account/plain')).body.html).toBe('<div><p>stored</p></div>');
  });
});

describe('partial names', () => {
  it('takes names that are also Object properties (constructor, toString) literally', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('constructor.hbs', '<b>{{name}}</b>', { type: 'partial' });
    const res = await importer(app, t.liveKey)(
      'odd.hbs',
      '{{#*inline "valueOf"}}<i>{{x}}</i>{{/inline}}{{> constructor}}{{> toString}}{{> valueOf}}',
    );
    expect(res.body).toMatchObject({
      referencedPartials: ['constructor', 'toString'],
      warnings: [expect.stringContaining('Partial toString does not resolve')],
    });
    expect(res.body.variables).toEqual(['name', 'x']);
    const rendered = await preview(t.liveKey, 'odd', { name: 'N', x: 'X' });
    expect(rendered.body).toMatchObject({ html: '<b>N</b><i>X</i>' });
  });
});

describe('variables', () => {
  it('reads inside inline partial bodies, through hash arguments to the caller path, and over segment-literal indexes', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    await imp('money.hbs', '{{amount.value}} {{amount.currency}} {{rate}}', { type: 'partial' });
    const res = await imp(
      'invoice.hbs',
      [
        '{{#*inline "row"}}<td>{{line.name}}</td><td>{{> money amount=line.unitPrice}}</td>{{/inline}}',
        '{{#*inline "first"}}{{content.[0]}} {{items.[0].title}}{{/inline}}',
        '{{#each lines as |line|}}{{> row line=line}}{{/each}}',
        '{{> money amount=total rate="fixed"}}',
        '{{> first}}',
      ].join('\n'),
    );
    expect(res.body.warnings).toEqual([]);
    expect(res.body.variables).toEqual([
      'lines',
      'total',
      'lines.name',
      'lines.unitPrice',
      'lines.unitPrice.value',
      'lines.unitPrice.currency',
      'rate',
      'total.value',
      'total.currency',
      'content',
      'items.title',
    ]);
  });
});

describe('unknown helpers', () => {
  it('lists each helper call that does not exist with its name and line; plain mustaches are variables', async () => {
    const t = await createTenant();
    const res = await importer(app, t.liveKey)(
      'h.hbs',
      '<p>{{usd total}}</p>\n{{t "greeting.key"}}\n{{#eq a b}}same{{/eq}} {{#if (eq a b)}}x{{/if}}\n{{foo}} {{#items}}{{name}}{{/items}} {{equals a b}}',
      { subject: 'Total {{usd total}}' },
    );
    expect(res.status).toBe(200);
    const warn = (what: string, name: string, line: number) =>
      `${what} calls the helper ${name} on line ${line}, which does not exist: previews and sends are refused until it is removed.`;
    expect(res.body.warnings).toEqual([
      warn('The subject', 'usd', 1),
      warn('The file', 'usd', 1),
      warn('The file', 't', 2),
      warn('The file', 'eq', 3),
    ]);
    const refused = await preview(t.liveKey, 'h', { total: 1 });
    expect(refused.body.error).toMatchObject({
      code: 'template.unknown_helper',
      details: { helper: 'usd', in: 'subject', key: 'h', line: 1 },
    });
  });

  it('names a helper missing in a layout', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('frame.hbs', '<div>\n{{{body}}}\n{{year now}}</div>', { type: 'layout' });
    const res = await importer(app, t.liveKey)('note.hbs', '<p>n</p>', { layout: 'frame' });
    expect(res.body.warnings).toEqual([expect.stringMatching(/^The layout frame calls the helper year on line 3/)]);
    const refused = await preview(t.liveKey, 'note');
    expect(refused.body.error).toMatchObject({
      code: 'template.unknown_helper',
      details: { helper: 'year', in: 'layout', key: 'frame', line: 3 },
    });
    const custom = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { subject: 'S', body: 'b', layout: 'frame' },
    });
    expect(custom.body.error).toMatchObject({
      code: 'template.unknown_helper',
      details: { in: 'layout', key: 'frame' },
    });
  });
});

describe('subjects', () => {
  it('applies one length rule to the subject field and the subject comment: 1000 characters of template source', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const long = `{{#if vip}}Dear valued customer {{name}}{{else}}Hello {{name}}{{/if}}, ${'x'.repeat(400)}`;
    expect((await imp('field.hbs', 'b', { subject: long })).status).toBe(200);
    expect((await imp('comment.hbs', `{{!-- subject: ${long} --}}b`)).body.subject).toBe(long);
    const tooLongField = await imp('field.hbs', 'b', { subject: 'x'.repeat(1001) });
    expect(tooLongField.status).toBe(422);
    expect(tooLongField.body.error.details.fields).toEqual([
      { field: 'subject', in: 'body', message: 'At most 1000 characters of template source' },
    ]);
    const tooLongComment = await imp('comment.hbs', `{{!-- subject: ${'x'.repeat(1001)} --}}b`);
    expect(tooLongComment.status).toBe(422);
    expect(tooLongComment.body.error.details.fields).toEqual([
      { field: 'file', in: 'body', message: 'The subject comment is longer than 1000 characters of template source' },
    ]);
  });

  it('counts the partials the subject uses: referenced, warned while missing, variables, rendered and sent', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    const first = await imp('hello.hbs', '{{!-- subject: Welcome to {{> brand}} --}}<p>Hi {{name}}</p>');
    expect(first.body).toMatchObject({
      referencedPartials: ['brand'],
      warnings: [expect.stringContaining('Partial brand does not resolve')],
    });
    await imp('brand.hbs', '{{company.name}}', { type: 'partial' });
    const again = await imp('hello.hbs', '{{!-- subject: Welcome to {{> brand}} --}}<p>Hi {{name}}</p>');
    expect(again.body).toMatchObject({
      referencedPartials: ['brand'],
      warnings: [],
      variables: ['company.name', 'name'],
    });
    const variables = { name: 'Ann', company: { name: 'ACME' } };
    expect((await preview(t.liveKey, 'hello', variables)).body.subject).toBe('Welcome to ACME');
    const live = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to: 'ann@example.com', templateKey: 'hello', variables },
    });
    expect(live.status).toBe(200);
    expect(live.body.subject).toBe('Welcome to ACME');
  });
});
