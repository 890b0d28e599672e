import http from 'node:http';
import { ticketPageLink } from '@helpdesk/core/kernel/links/ticket-page';
import { describe, expect, it } from 'vitest';
import { ConsoleClient, signInLinkPath } from '../console/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { importer } from '../templates/helpers.js';
import { createTicket, customerEmail } from '../tickets/helpers.js';

/**
 * Promises kept under attack (issue 27, Security and Contract): each case is what an outside check
 * did to the service, and what the service must answer now.
 */
const app = await startTestApp();

async function ticketPage(t: TenantFixture) {
  const ticket = await createTicket(app, t.liveKey, { subject: 'Lost parcel', customer: { email: customerEmail() } });
  const path = new URL(ticketPageLink({ projectId: t.projects.main!.id, env: 'live' }, ticket.id)).pathname;
  return { ticket, path };
}

describe('signed link tokens', () => {
  it('verify only in their canonical spelling: padding, junk after "=" and altered characters are 404', async () => {
    const t = await createTenant();
    const { path } = await ticketPage(t);
    expect((await app.call('GET', path)).status).toBe(200);
    const token = path.split('/').pop()!;
    const [payload = '', mac = ''] = token.split('.');
    const variants = [
      `${payload}=.${mac}`,
      `${payload}=x.${mac}`,
      `${payload}==anything.${mac}`,
      `${payload}!.${mac}`,
      `${payload}.${mac}=`,
      `${payload}.${mac.slice(0, -1)}`,
    ];
    for (const variant of variants) {
      const res = await app.call('GET', path.replace(token, encodeURIComponent(variant)));
      expect(res.status, variant).toBe(404);
    }
    // A character percent-encoded (`%4A` for `J`, `%2E` for the dot) is another spelling too, for a read or a write.
    const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
    for (const spelled of [
      `${hex(token[0]!)}${token.slice(1)}`,
      token.replace('.', '%2E'),
      token.replace('.', '%2e'),
    ]) {
      expect((await app.call('GET', path.replace(token, spelled))).status, spelled).toBe(404);
      const post = await app.call('POST', path.replace(token, spelled), {
        body: { body: 'Through another spelling.' },
      });
      expect(post.status, spelled).toBe(404);
    }
  });

  it('a forged token is 404 before its body is read, whatever the body', async () => {
    const t = await createTenant();
    const { path } = await ticketPage(t);
    const forged = path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    for (const rawBody of ['{not json', '', 'x'.repeat(20_000)]) {
      const res = await app.call('POST', forged, { rawBody, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(404);
    }
  });

  it('the page takes an ordinary HTML form post (urlencoded), and answers the form with a page', async () => {
    const t = await createTenant();
    const { ticket, path } = await ticketPage(t);
    const res = await app.call('POST', path, {
      rawBody: new URLSearchParams({ body: 'Answered from a plain form.' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain('Answered from a plain form.');
    const detail = (await app.call('GET', `/tickets/${ticket.id}`, { key: t.liveKey })).body;
    expect(detail.messages.at(-1)).toMatchObject({ senderType: 'customer', body: 'Answered from a plain form.' });
  });

  it('refuses file names with bidi controls or C1 controls on the page form and in the API', async () => {
    const t = await createTenant();
    const { ticket, path } = await ticketPage(t);
    for (const name of [
      'invoice\u202Efdp.exe',
      'report\u2066.pdf',
      'x\u0085y.txt',
      'a\u200Fb.pdf',
      'a\u200Eb.pdf',
      'a\u061Cb.pdf',
    ]) {
      const form = new FormData();
      form.set('body', 'See the file.');
      form.set('file', new Blob(['bytes'], { type: 'application/pdf' }), name);
      const page = await app.call('POST', path, { rawBody: form });
      expect(page.status, name).toBe(422);
      const api = await app.call('POST', `/tickets/${ticket.id}/messages`, {
        key: t.liveKey,
        body: { body: 'x', attachments: [{ fileName: name, mimeType: 'application/pdf', content: 'Ynl0ZXM=' }] },
      });
      expect(api.status, name).toBe(422);
      expect(api.body.error.details.fields[0].field).toBe('attachments.0.fileName');
    }
  });
});

describe('stored files', () => {
  it('download as attachments (octet-stream), except raster images, whatever type the uploader declared', async () => {
    const t = await createTenant();
    const ticket = await createTicket(app, t.liveKey, { subject: 'Files', customer: { email: customerEmail() } });
    const html = Buffer.from('<script>alert(document.domain)</script>').toString('base64');
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    const posted = await app.call('POST', `/tickets/${ticket.id}/messages`, {
      key: t.liveKey,
      body: {
        body: 'Two files',
        attachments: [
          { fileName: 'page.html', mimeType: 'text/html', content: html },
          { fileName: 'Schöne Grüße.png', mimeType: 'image/png', content: png },
        ],
      },
    });
    expect(posted.status).toBe(200);
    const [page, image] = posted.body.attachments as { url: string }[];
    const pageRes = await fetch(page!.url);
    expect(pageRes.headers.get('content-type')).toBe('application/octet-stream');
    expect(pageRes.headers.get('content-disposition')).toMatch(/^attachment; filename="page.html"/);
    const imageRes = await fetch(image!.url);
    expect(imageRes.headers.get('content-type')).toBe('image/png');
    expect(imageRes.headers.get('content-disposition')).toContain(
      `inline; filename="Sch_ne Gr__e.png"; filename*=UTF-8''${encodeURIComponent('Schöne Grüße.png')}`,
    );
  });
});

describe('article HTML', () => {
  it('keeps only http(s), mailto and relative links and images, however the scheme is spelled', async () => {
    const t = await createTenant();
    const body = [
      '[a](javascript:alert(document.domain))',
      '[b](JaVaScRiPt:alert(1))',
      '[c](&#106;avascript:alert(1))',
      '[d](javascript&colon;alert(1))',
      '<javascript:alert(1)>',
      '![e](javascript:alert(1))',
      '[f](data:text/html,<script>alert(1)</script>)',
      '[g][r]',
      '',
      '[r]: vbscript:msgbox(1)',
      '[ok](https://example.com/x?a=1&b=2) [rel](/help) [mail](mailto:help@example.com)',
    ].join('\n');
    const created = await app.call('POST', '/articles', { key: t.liveKey, body: { title: 'Links', body } });
    expect(created.status).toBe(200);
    const html: string = created.body.bodyHtml;
    const hrefs = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs).toEqual([
      '&amp;#106;avascript:alert(1)',
      'javascript&amp;colon;alert(1)',
      'https://example.com/x?a=1&amp;b=2',
      '/help',
      'mailto:help@example.com',
    ]);
    // The two entity-spelled ones stay text for the browser: it decodes &amp; to &, never to a scheme.
    for (const href of hrefs)
      expect(new URL(href.replaceAll('&amp;', '&'), 'https://x.test/').protocol).toMatch(/^(https?|mailto):$/);
  });
});

describe('account-wide writes', () => {
  it('need a live key that reaches every project, acting on live', async () => {
    const t = await createTenant({ projects: ['one', 'two'] });
    const restricted = await t.key({ env: 'live', projects: ['one'] });
    const file = '<p>Phishing {{link}}</p>';
    for (const [key, headers] of [
      [t.sandboxKey, undefined],
      [restricted, undefined],
      [t.liveKey, { 'Service-Environment': 'sandbox' }],
    ] as const) {
      const res = await importer(app, key, { account: true, headers })('evil.hbs', file, { key: '@account/welcome' });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('auth.account_key_required');
    }
    const ok = await importer(app, t.liveKey, { account: true })('ok.hbs', '<p>Hi</p>', { key: '@account/welcome' });
    expect(ok.status).toBe(200);
  });
});

describe('project and environment given twice', () => {
  it('validates the query value under a header that decides', async () => {
    const t = await createTenant();
    const res = await app.call('POST', '/tickets', {
      key: t.liveKey,
      query: { environment: 'AAA' },
      headers: { 'Service-Environment': 'sandbox' },
      body: { subject: 'x', body: 'y', customer: { email: customerEmail() } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields).toEqual([
      { field: 'environment', in: 'query', message: 'Expected live or sandbox' },
    ]);
    const project = await app.call('GET', '/tickets', {
      key: t.liveKey,
      query: { project: 'a,b' },
      headers: { 'Service-Project': 'main' },
    });
    expect(project.status).toBe(422);
    // A project the key does not reach, named beside the header that decides, is refused like one named alone.
    const other = await createTenant();
    for (const wanted of ['nonexistent', other.projects.main!.id]) {
      const res = await app.call('GET', '/tickets', {
        key: t.liveKey,
        query: { project: wanted },
        headers: { 'Service-Project': 'main' },
      });
      expect([res.status, res.body.error.code]).toEqual([403, 'project.forbidden']);
    }
    const same = await app.call('GET', '/tickets', {
      key: t.liveKey,
      query: { project: 'main' },
      headers: { 'Service-Project': 'main' },
    });
    expect(same.status).toBe(200);
  });
});

describe('a request line and headers as sent', () => {
  const raw = (path: string, headers: Record<string, string | string[]>) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(app.url);
      http
        .get({ host: url.hostname, port: url.port, path, headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });

  it('refuses two Authorization headers (two keys, or a good one and a bad one) in either order', async () => {
    const a = await createTenant();
    const b = await createTenant();
    expect(await raw('/api/v1/projects', { authorization: `Bearer ${a.liveKey}` })).toBe(200);
    for (const keys of [
      [a.liveKey, b.liveKey],
      [a.liveKey, 'sk_live_bogus'],
      ['sk_live_bogus', a.liveKey],
      [a.liveKey, a.liveKey],
    ])
      expect(await raw('/api/v1/projects', { authorization: keys.map((k) => `Bearer ${k}`) }), keys.join(' ')).toBe(
        401,
      );
  });

  it('reads a path that starts with // as a path, not as another host', async () => {
    const t = await createTenant();
    expect(await raw('//evil.example/api/v1/projects', { authorization: `Bearer ${t.liveKey}` })).toBe(404);
  });
});

describe('console sign-in', () => {
  it('refuses a sign-in posted from another site (login CSRF), and the link still works from the console', async () => {
    const t = await createTenant();
    const { email } = await t.member({ role: 'admin' });
    const client = new ConsoleClient(app);
    await client.request('POST', '/console/sign-in', { email });
    const path = await signInLinkPath(email);
    const foreign = await fetch(app.url + path, {
      method: 'POST',
      headers: { origin: 'https://attacker.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    const mailed = await fetch(app.url + '/console/sign-in', {
      method: 'POST',
      headers: { origin: 'https://attacker.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    });
    expect(mailed.status).toBe(403);
    // Without Origin (older browsers, privacy extensions): Sec-Fetch-Site, then Referer, tell a foreign post.
    const foreignHeaders: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { referer: 'https://attacker.example/form' },
    ];
    for (const headers of foreignHeaders) {
      const post = await fetch(app.url + path, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      });
      expect(post.status, JSON.stringify(headers)).toBe(403);
    }
    const done = await client.request('POST', path, {});
    expect(done.status).toBe(303);
  });
});
