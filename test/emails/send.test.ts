import { suppress } from '@helpdesk/core/areas/emails/suppression';
import { ProjectTemplate } from '@helpdesk/core/areas/templates/entities';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importer } from '../templates/helpers.js';
import { importTemplate, mailsTo, uniqueAddress } from './helpers.js';

const app = await startTestApp();

const custom = (to: string, extra: Record<string, unknown> = {}) => ({
  to,
  subject: 'Your order',
  body: 'Thanks for **ordering**. See [the docs](https://example.com/docs).',
  ...extra,
});

describe('POST /emails/send (live)', () => {
  it('queues a custom send, which reaches SES rendered, and the row reads back as sent', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const cc = uniqueAddress('cc');
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(to, {
        cc: [cc],
        replyTo: 'help@example.com',
        metadata: { orderId: '42' },
        headers: { 'X-Campaign': 'spring' },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      projectId: t.projects.main!.id,
      projectSlug: 'main',
      id: expect.any(String),
      kind: 'custom',
      status: 'queued',
      to,
      subject: 'Your order',
      deduplicated: false,
      blocked: false,
      blockReason: null,
      scheduledAt: null,
      createdAt: expect.any(String),
    });
    await app.drain();

    const [mail, ...more] = await mailsTo(to);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Your order');
    expect(mail!.body.html).toContain('<strong>ordering</strong>');
    expect(mail!.destination.cc).toEqual([cc]);

    const row = await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(row.status).toBe(200);
    expect(row.body).toMatchObject({
      id: res.body.id,
      kind: 'custom',
      status: 'sent',
      to,
      cc: [cc],
      bcc: [],
      replyTo: 'help@example.com',
      subject: 'Your order',
      templateKey: null,
      metadata: { orderId: '42' },
      blocked: false,
      sentAt: expect.any(String),
    });
    expect(row.body.captured).toBeUndefined();
  });

  it('renders a template send with its variables and records the template version', async () => {
    const t = await createTenant();
    await importTemplate(
      app,
      'welcome',
      '{{!-- subject: Welcome, {{name}} --}}\n<p>Hello {{name}}, your plan is {{plan}}.</p>',
      {
        apiKey: t.liveKey,
      },
    );
    const to = uniqueAddress();
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, templateKey: 'welcome', variables: { name: 'Ada', plan: 'Pro' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'template', status: 'queued', to });
    await app.drain();

    const [mail] = await mailsTo(to);
    expect(mail!.subject).toBe('Welcome, Ada');
    expect(mail!.body.html).toContain('Hello Ada, your plan is Pro.');
    const row = await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(row.body).toMatchObject({
      status: 'sent',
      templateKey: 'welcome',
      templateVersion: 1,
      subject: 'Welcome, Ada',
    });
  });

  it('answers a template send with its rendered subject, stored on the row before delivery (also when blocked)', async () => {
    const t = await createTenant();
    await importTemplate(app, 'order', '{{!-- subject: Order {{order.id}} for {{name}} --}}\n<p>Hi {{name}}</p>', {
      apiKey: t.liveKey,
    });
    const to = uniqueAddress();
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, templateKey: 'order', variables: { name: 'A & B', order: { id: 7 } } },
    });
    expect(res.status).toBe(200);
    // Not escaped: a subject is plain text.
    expect(res.body).toMatchObject({ kind: 'template', status: 'queued', subject: 'Order 7 for A & B' });
    const beforeDelivery = await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey });
    expect(beforeDelivery.body.subject).toBe('Order 7 for A & B');

    const blockedTo = uniqueAddress();
    await suppress({ projectId: t.projects.main!.id, env: 'live' }, blockedTo, 'manual');
    const blocked = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to: blockedTo, templateKey: 'order', variables: { name: 'C' } },
    });
    expect(blocked.body).toMatchObject({ status: 'blocked', subject: 'Order  for C' });
    await app.drain();
    expect((await mailsTo(to))[0]!.subject).toBe('Order 7 for A & B');
  });

  it('refuses variables that are not an object, unsafe header names and values, X-SES-* headers and control characters in subject', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    await importTemplate(app, 'plain', '<p>Hi</p>', { apiKey: t.liveKey });
    const refused = async (body: Record<string, unknown>, field: string) => {
      const res = await app.call('POST', '/emails/send', { key: t.liveKey, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    };
    await refused({ to, templateKey: 'plain', variables: [1, 2] }, 'variables');
    await refused({ to, templateKey: 'plain', variables: null }, 'variables');
    for (const value of ['a\u2028b', 'a\u2029b', 'a\u0000b', 'a\tb'])
      await refused(custom(to, { headers: { 'X-Note': value } }), 'headers');
    await refused(custom(to, { headers: JSON.parse('{"__proto__":"v"}') }), 'headers');
    await refused(custom(to, { headers: { 'X-SES-Configuration-Set': 'other' } }), 'headers');
    await refused(custom(to, { headers: { 'x-ses-source-arn': 'arn' } }), 'headers');
    await refused(custom(to, { headers: ['X-A'] }), 'headers');
    await refused(custom(to, { metadata: ['a', 'b'] }), 'metadata');
    for (const subject of ['a\u0000b', 'a\u0007b', 'a\u2028b']) await refused(custom(to, { subject }), 'subject');

    const batch = await app.call('POST', '/emails/batch', {
      key: (await createTenant({ plan: 'starter' })).liveKey,
      body: {
        emails: [{ to, templateKey: 'plain', variables: [1, 2] }, custom(to, { headers: { 'X-SES-Tenant': 'x' } })],
      },
    });
    expect(batch.body.results).toEqual([
      { index: 0, error: { code: 'validation.failed', message: expect.stringContaining('variables') } },
      { index: 1, error: { code: 'validation.failed', message: expect.stringContaining('headers') } },
    ]);
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(0);
  });

  it('sends from the project sender by default, and from `from` when given', async () => {
    const t = await createTenant();
    const a = uniqueAddress();
    const b = uniqueAddress();
    await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(a) });
    await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(b, { from: 'billing@example.com' }) });
    await app.drain();
    expect((await mailsTo(a))[0]!.from).toContain('no-reply@helpdesk.local');
    expect((await mailsTo(b))[0]!.from).toContain('billing@example.com');
  });

  it('answers 422 naming an unknown template, and for both or neither content forms', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const unknown = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, templateKey: 'nope', variables: {} },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ code: 'template.not_found', details: { templateKey: 'nope' } });
    expect(unknown.body.error.message).toContain('nope');

    const both = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, templateKey: 'x', subject: 's', body: 'b' },
    });
    expect(both.status).toBe(422);
    expect(both.body.error.code).toBe('validation.failed');
    const neither = await app.call('POST', '/emails/send', { key: t.liveKey, body: { to } });
    expect(neither.status).toBe(422);
    const halfCustom = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, subject: 'only a subject' },
    });
    expect(halfCustom.status).toBe(422);
    const unknownField = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(to, { priority: 'high' }),
    });
    expect(unknownField.status).toBe(422);
    const badAddress = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom('not-an-address') });
    expect(badAddress.status).toBe(422);
    expect(badAddress.body.error.details.fields[0].field).toBe('to');
    const longSubject = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(to, { subject: 'x'.repeat(201) }),
    });
    expect(longSubject.status).toBe(422);
    const tooManyCc = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(to, { cc: Array.from({ length: 51 }, (_, i) => `cc${i}@example.com`) }),
    });
    expect(tooManyCc.status).toBe(422);
    const reservedHeader = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: custom(to, { headers: { Subject: 'x' } }),
    });
    expect(reservedHeader.status).toBe(422);

    await app.drain();
    expect(await mailsTo(to)).toHaveLength(0);
    const list = await app.call('GET', '/emails', { key: t.liveKey });
    expect(list.body.total).toBe(0);
  });

  it('refuses at request time a template whose body, subject, layout or partial calls a helper that does not exist', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    await imp('frame.hbs', '<div>{{{body}}}\n{{year}} {{copyright year}}</div>', { type: 'layout' });
    await imp('price.hbs', '{{usd amount}}', { type: 'partial' });
    await imp('in-body.hbs', '<p>{{t "greeting"}}</p>');
    await imp('in-subject.hbs', '<p>Hi</p>', { subject: 'Order {{#eq a b}}same{{/eq}}' });
    await imp('in-layout.hbs', '<p>Hi</p>', { layout: 'frame' });
    await imp('in-partial.hbs', '<p>{{> price amount=total}}</p>');
    await imp('fine.hbs', '<p>{{missing.value}}</p>', { subject: 'Hi {{name}}' });
    const to = uniqueAddress();
    const send = (templateKey: string) =>
      app.call('POST', '/emails/send', { key: t.liveKey, body: { to, templateKey, variables: {} } });
    const expected: [string, Record<string, unknown>][] = [
      ['in-body', { helper: 't', in: 'template', key: 'in-body', line: 1 }],
      ['in-subject', { helper: 'eq', in: 'subject', key: 'in-subject', line: 1 }],
      ['in-layout', { helper: 'copyright', in: 'layout', key: 'frame', line: 2 }],
      ['in-partial', { helper: 'usd', in: 'partial', key: 'price', line: 1 }],
    ];
    for (const [templateKey, details] of expected) {
      const res = await send(templateKey);
      expect(res.status, templateKey).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'template.unknown_helper', details });
    }
    const batch = await app.call('POST', '/emails/batch', {
      key: t.liveKey,
      body: { emails: [{ to, templateKey: 'in-partial', variables: {} }] },
    });
    expect(batch.body.results).toEqual([
      {
        index: 0,
        error: { code: 'template.unknown_helper', message: expect.stringContaining('helper usd on line 1') },
      },
    ]);
    // Variables that do not resolve are no reason to refuse: they render empty.
    expect((await send('fine')).status).toBe(200);
    expect((await app.call('GET', '/emails', { key: t.liveKey })).body.total).toBe(1);
  });

  it('also refuses a template whose partial was imported before unknown helpers were recorded on it', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('price.hbs', '{{usd amount}}', { type: 'partial' });
    await importer(app, t.liveKey)('invoice.hbs', '<p>{{> price amount=total}}</p>');
    // As an item written by an earlier release: no unknownHelpers attribute.
    await ProjectTemplate.patch({ projectId: t.projects.main!.id, env: 'live', type: 'partial', key: 'price' })
      .remove(['unknownHelpers'])
      .go();
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to: uniqueAddress(), templateKey: 'invoice', variables: {} },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'template.unknown_helper',
      details: { helper: 'usd', in: 'partial', key: 'price' },
    });
  });

  it("refuses a custom send's unknown layout or a layout calling a missing helper at request time, single and batched", async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('money.hbs', '<div>{{money2 total}}{{{body}}}</div>', { type: 'layout' });
    const to = uniqueAddress();
    const nope = await app.call('POST', '/emails/send', { key: t.liveKey, body: { ...custom(to), layout: 'nope' } });
    expect(nope.status).toBe(422);
    expect(nope.body.error).toMatchObject({ code: 'template.not_found', details: { layout: 'nope' } });
    const helper = await app.call('POST', '/emails/send', { key: t.liveKey, body: { ...custom(to), layout: 'money' } });
    expect(helper.status).toBe(422);
    expect(helper.body.error).toMatchObject({
      code: 'template.unknown_helper',
      details: { helper: 'money2', in: 'layout', key: 'money' },
    });
    const batch = await app.call('POST', '/emails/batch', {
      key: t.liveKey,
      body: {
        emails: [
          { ...custom(to), layout: 'nope' },
          { ...custom(to), layout: 'money' },
        ],
      },
    });
    expect(batch.body.results.map((r: { error?: { code: string } }) => r.error?.code)).toEqual([
      'template.not_found',
      'template.unknown_helper',
    ]);
    expect((await app.call('GET', '/emails', { key: t.liveKey })).body.total).toBe(0);
  });

  it('refuses variables that would put a line break or control character into the rendered subject (no header injection)', async () => {
    const t = await createTenant();
    await importer(app, t.liveKey)('hello.hbs', '{{!-- subject: Hi {{name}} --}}<p>Hello</p>');
    const to = uniqueAddress();
    for (const name of ['x\r\nBcc: evil@example.com', 'bell\u0007', 'line\u2028sep']) {
      // Preview answers what a send would: the same refusal, never a subject a send could not have.
      for (const [path, body] of [
        ['/emails/send', { to, templateKey: 'hello', variables: { name } }],
        ['/emails/preview', { templateKey: 'hello', variables: { name } }],
      ] as const) {
        const res = await app.call('POST', path, { key: t.liveKey, body });
        expect(res.status, `${path} ${JSON.stringify(name)}`).toBe(422);
        expect(res.body.error.details.fields).toEqual([expect.objectContaining({ field: 'variables', in: 'body' })]);
      }
    }
    expect(
      (
        await app.call('POST', '/emails/send', {
          key: t.liveKey,
          body: { to, templateKey: 'hello', variables: { name: 'Ann' } },
        })
      ).body.subject,
    ).toBe('Hi Ann');
  });

  it('refuses a template send without a subject at request time: none imported, or one that renders empty', async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    await imp('bare.hbs', '<p>{{a}}</p>');
    await imp('titled.hbs', '<p>{{a}}</p>', { subject: '{{title}}' });
    const to = uniqueAddress();
    const send = (templateKey: string, variables: Record<string, unknown>) =>
      app.call('POST', '/emails/send', { key: t.liveKey, body: { to, templateKey, variables } });
    const bare = await send('bare', { a: 1 });
    expect(bare.status).toBe(422);
    expect(bare.body.error.details.fields).toEqual([
      {
        field: 'templateKey',
        in: 'body',
        message: 'The template bare has no subject: import it with one (the subject field or a subject comment).',
      },
    ]);
    const empty = await send('titled', { a: 1 });
    expect(empty.status).toBe(422);
    expect(empty.body.error.details.fields).toEqual([
      { field: 'variables', in: 'body', message: "The template's subject renders empty with these variables." },
    ]);
    const sent = await send('titled', { a: 1, title: 'Your receipt' });
    expect(sent.body).toMatchObject({ status: 'queued', subject: 'Your receipt' });
    await app.drain();
    expect((await app.call('GET', `/emails/${sent.body.id}`, { key: t.liveKey })).body.status).toBe('sent');
    expect((await app.call('GET', '/emails', { key: t.liveKey })).body.emails).toHaveLength(1);
  });
  it('needs the emails:send scope', async () => {
    const t = await createTenant();
    const key = await t.key({ scopes: ['tickets:read'] });
    const res = await app.call('POST', '/emails/send', { key, body: custom(uniqueAddress()) });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('auth.forbidden');
  });
});

describe('sandbox', () => {
  it('never reaches SES: the rendered message is stored on the row as captured', async () => {
    const t = await createTenant();
    const viaSandboxKey = uniqueAddress();
    const viaHeader = uniqueAddress();
    const a = await app.call('POST', '/emails/send', { key: t.sandboxKey, body: custom(viaSandboxKey) });
    const b = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      headers: { 'Service-Environment': 'sandbox' },
      body: custom(viaHeader),
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    await app.drain();
    expect(await mailsTo(viaSandboxKey)).toHaveLength(0);
    expect(await mailsTo(viaHeader)).toHaveLength(0);

    const row = await app.call('GET', `/emails/${a.body.id}`, { key: t.sandboxKey });
    expect(row.body.status).toBe('captured');
    expect(row.body.sentAt).toBeNull();
    expect(row.body.captured).toEqual({
      subject: 'Your order',
      html: expect.stringContaining('<strong>ordering</strong>'),
      text: expect.stringContaining('the docs (https://example.com/docs)'),
    });
  });

  it('is exempt from the email quota, which stops live sends with the plan 403', async () => {
    const t = await createTenant({ limits: { emails: 2 } });
    for (let i = 0; i < 2; i++) {
      expect((await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(uniqueAddress()) })).status).toBe(
        200,
      );
    }
    const over = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(uniqueAddress()) });
    expect(over.status).toBe(403);
    expect(over.body.error.code).toBe('plan.email_limit');
    expect(over.body.error.message).toContain('email allowance');
    for (let i = 0; i < 3; i++) {
      expect(
        (await app.call('POST', '/emails/send', { key: t.sandboxKey, body: custom(uniqueAddress()) })).status,
      ).toBe(200);
    }
    await app.drain();
  });
});

describe('suppression', () => {
  it('blocks a suppressed recipient (any case): 200, blocked, nothing sent, no quota used', async () => {
    const t = await createTenant({ limits: { emails: 1 } });
    const to = uniqueAddress();
    await suppress({ projectId: t.projects.main!.id, env: 'live' }, to, 'manual');
    const res = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(to.toUpperCase()) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'blocked', blocked: true, blockReason: 'manual' });
    // The one unit of quota is still there.
    expect((await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(uniqueAddress()) })).status).toBe(
      200,
    );

    // Suppression is per environment: the same address is deliverable (captured) in sandbox.
    const sandbox = await app.call('POST', '/emails/send', { key: t.sandboxKey, body: custom(to) });
    expect(sandbox.body.blocked).toBe(false);
    await app.drain();
    expect(await mailsTo(to)).toHaveLength(0);
    expect((await app.call('GET', `/emails/${res.body.id}`, { key: t.liveKey })).body.status).toBe('blocked');
  });

  it('drops a suppressed cc at delivery but still sends to the others', async () => {
    const t = await createTenant();
    const to = uniqueAddress();
    const cc = uniqueAddress('cc');
    await suppress({ projectId: t.projects.main!.id, env: 'live' }, cc, 'manual');
    await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(to, { cc: [cc] }) });
    await app.drain();
    const [mail] = await mailsTo(to);
    expect(mail!.destination.to).toEqual([to]);
    expect(mail!.destination.cc ?? []).toEqual([]);
  });
});

describe('GET /emails', () => {
  it('lists newest first with filters on status, recipient, template and dates', async () => {
    const t = await createTenant();
    await importTemplate(app, 'receipt', '{{!-- subject: Receipt --}}<p>{{total}}</p>', { apiKey: t.liveKey });
    const ada = uniqueAddress('ada');
    const sent: string[] = [];
    for (const body of [
      custom(ada),
      { to: uniqueAddress(), templateKey: 'receipt', variables: { total: 3 } },
      custom(uniqueAddress()),
    ]) {
      const res = await app.call('POST', '/emails/send', { key: t.liveKey, body });
      sent.push(res.body.id);
    }
    const blockedTo = uniqueAddress();
    await suppress({ projectId: t.projects.main!.id, env: 'live' }, blockedTo, 'manual');
    const blocked = await app.call('POST', '/emails/send', { key: t.liveKey, body: custom(blockedTo) });
    await app.drain();

    const all = await app.call('GET', '/emails', { key: t.liveKey });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, page: 1, limit: 25 });
    expect(all.body.emails.map((e: { id: string }) => e.id)).toEqual([blocked.body.id, ...sent.slice().reverse()]);

    const page2 = await app.call('GET', '/emails', { key: t.liveKey, query: { limit: 3, page: 2 } });
    expect(page2.body.emails.map((e: { id: string }) => e.id)).toEqual([sent[0]]);

    const byTo = await app.call('GET', '/emails', { key: t.liveKey, query: { to: ada.toUpperCase() } });
    expect(byTo.body.emails.map((e: { id: string }) => e.id)).toEqual([sent[0]]);
    // A value no recipient can have is the caller's mistake, told rather than answered with nothing.
    const notAnAddress = await app.call('GET', '/emails', { key: t.liveKey, query: { to: 'notanemail' } });
    expect(notAnAddress.status).toBe(422);
    expect(notAnAddress.body.error.details.fields[0]).toMatchObject({ field: 'to', in: 'query' });
    const byTemplate = await app.call('GET', '/emails', { key: t.liveKey, query: { templateKey: 'receipt' } });
    expect(byTemplate.body.emails.map((e: { id: string }) => e.id)).toEqual([sent[1]]);
    const byStatus = await app.call('GET', '/emails', { key: t.liveKey, query: { status: 'blocked' } });
    expect(byStatus.body.emails.map((e: { id: string }) => e.id)).toEqual([blocked.body.id]);
    const sentOnes = await app.call('GET', '/emails', {
      key: t.liveKey,
      query: { status: 'sent', templateKey: 'receipt' },
    });
    expect(sentOnes.body.total).toBe(1);
    // Only a template's key can match; a repeated filter is not two of them, nor a key with control characters.
    for (const path of ['/emails?templateKey=receipt&templateKey=receipt', '/emails?templateKey=a%00b']) {
      const refused = await app.call('GET', path, { key: t.liveKey });
      expect(refused.status, path).toBe(422);
      expect(refused.body.error.details.fields[0]).toMatchObject({ field: 'templateKey', in: 'query' });
    }

    // A bound finer than a millisecond rounds inward: a row made in that millisecond, before the instant, is out.
    const first = (await app.call('GET', `/emails/${sent[0]}`, { key: t.liveKey })).body.createdAt as string;
    const justAfter = first.replace(/Z$/, '1Z');
    const from = await app.call('GET', '/emails', { key: t.liveKey, query: { dateFrom: justAfter } });
    expect(from.body.emails.map((e: { id: string }) => e.id)).not.toContain(sent[0]);
    const until = await app.call('GET', '/emails', { key: t.liveKey, query: { dateTo: justAfter } });
    expect(until.body.emails.map((e: { id: string }) => e.id)).toContain(sent[0]);

    const today = new Date().toISOString().slice(0, 10);
    const inclusive = await app.call('GET', '/emails', { key: t.liveKey, query: { dateFrom: today, dateTo: today } });
    expect(inclusive.body.total).toBe(4);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await app.call('GET', '/emails', { key: t.liveKey, query: { dateFrom: tomorrow } })).body.total).toBe(0);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await app.call('GET', '/emails', { key: t.liveKey, query: { dateTo: yesterday } })).body.total).toBe(0);

    expect((await app.call('GET', '/emails', { key: t.liveKey, query: { status: 'nope' } })).status).toBe(422);
    expect((await app.call('GET', '/emails', { key: t.liveKey, query: { dateFrom: 'soon' } })).status).toBe(422);
    expect((await app.call('GET', '/emails', { key: t.sandboxKey })).body.total).toBe(0);
  });

  it('keeps rows to their project and environment: other ids are 404', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const res = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      headers: { 'Service-Project': 'one' },
      body: custom(uniqueAddress()),
    });
    const id = res.body.id;
    expect(
      (await app.call('GET', `/emails/${id}`, { key: t.liveKey, headers: { 'Service-Project': 'one' } })).status,
    ).toBe(200);
    const otherProject = await app.call('GET', `/emails/${id}`, {
      key: t.liveKey,
      headers: { 'Service-Project': 'two' },
    });
    expect(otherProject.status).toBe(404);
    expect(otherProject.body.error.code).toBe('not_found');
    const otherEnv = await app.call('GET', `/emails/${id}`, {
      key: t.sandboxKey,
      headers: { 'Service-Project': 'one' },
    });
    expect(otherEnv.status).toBe(404);
    expect(
      (await app.call('DELETE', `/emails/${id}`, { key: t.liveKey, headers: { 'Service-Project': 'two' } })).status,
    ).toBe(404);
    expect(
      (await app.call('DELETE', `/emails/${id}`, { key: t.sandboxKey, headers: { 'Service-Project': 'one' } })).status,
    ).toBe(404);
    const otherAccount = await createTenant();
    expect((await app.call('GET', `/emails/${id}`, { key: otherAccount.liveKey })).status).toBe(404);
    expect(
      (await app.call('GET', '/emails/not-a-uuid', { key: t.liveKey, headers: { 'Service-Project': 'one' } })).status,
    ).toBe(404);
    await app.drain();
  });
});
