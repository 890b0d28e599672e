import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTenant, type TenantFixture } from '../support/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';
import { mailsTo, signInLinkPath } from './helpers.js';

/** CONSOLE_SCREENSHOTS=1 saves each page to docs/console/ (the README shows one). */
const SHOTS = process.env.CONSOLE_SCREENSHOTS === '1' ? 'docs/console' : undefined;
const address = (p: string) => `${p}-${randomBytes(5).toString('hex')}@example.com`;

describe('the console in a browser', { timeout: 90_000 }, () => {
  let app: TestApp;
  let tenant: TenantFixture;
  let browser: Browser;
  let admin: { context: BrowserContext; page: Page };
  let adminEmail: string;
  let sandboxKey: string;
  let ticketUrl: string;
  let previousBaseUrl: string | undefined;

  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();
  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };

  /** Through the sign-in form and the link the SES stand-in received, as a member would. */
  async function signIn(email: string) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Generous: the shared machine can be slow; a failure still names the element it waited for.
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await page.goto(`${app.url}/console`);
    await page.getByLabel('Your email address').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText('a sign-in link is on its way').waitFor();
    await page.goto(app.url + (await signInLinkPath(email)));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}/console`);
    return { context, page };
  }

  beforeAll(async () => {
    app = await startTestApp();
    // Sign-in links point at the public base URL: this app's (restored after the file).
    previousBaseUrl = process.env.PUBLIC_BASE_URL;
    process.env.PUBLIC_BASE_URL = app.url;
    tenant = await createTenant();
    adminEmail = (await tenant.member({ email: address('admin'), name: 'Ada Admin', role: 'admin' })).email;
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    // Playwright gives every launch a fresh temporary profile (user-data-dir).
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    if (previousBaseUrl === undefined) delete process.env.PUBLIC_BASE_URL;
    else process.env.PUBLIC_BASE_URL = previousBaseUrl;
    await browser?.close();
  });

  it('signs in through the emailed link', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/console/sign-in`);
    await shot(page, 'sign-in');
    await context.close();
    admin = await signIn(adminEmail);
    await expect(admin.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      await admin.page.locator('a.brand').innerText(),
    );
    await expect(admin.page.locator('header').innerText()).resolves.toContain('Ada Admin');
    await shot(admin.page, 'overview');
  });

  it('creates a key (shown once) that the API accepts', async () => {
    const { page } = admin;
    await nav(page, 'API keys');
    await page.getByLabel('Environment', { exact: true }).last().selectOption('sandbox');
    await page.getByRole('button', { name: 'Create key' }).click();
    sandboxKey = (await page.locator('#new-secret').innerText()).trim();
    expect(sandboxKey).toMatch(/^sk_sandbox_/);
    await shot(page, 'keys');
    const res = await fetch(`${app.apiUrl}/tickets`, { headers: { authorization: `Bearer ${sandboxKey}` } });
    expect(res.status).toBe(200);
    await page.reload({ waitUntil: 'load' }).catch(() => undefined);
    await page.goto(`${app.url}/console/keys`);
    await expect(page.content()).resolves.not.toContain(sandboxKey);
  });

  it('switches to sandbox, marked on every page, and shows a captured email in a sandboxed frame', async () => {
    const { page } = admin;
    await page.locator('#switch-env').selectOption('sandbox');
    await page.getByRole('button', { name: 'Switch' }).click();
    await page.locator('.sandbox-banner').waitFor();
    const to = address('reader');
    const sent = await app.call('POST', '/emails/send', {
      key: sandboxKey,
      body: { to, subject: 'Welcome aboard', body: 'Hello **there**, welcome.' },
    });
    expect(sent.status).toBe(200);
    await app.drain();
    await nav(page, 'Emails');
    expect(await page.locator('.sandbox-banner').count()).toBe(1);
    await page.getByLabel('Recipient').fill(to);
    await page.getByRole('button', { name: 'Filter' }).click();
    await shot(page, 'emails');
    await page.getByRole('link', { name: 'Welcome aboard' }).click();
    const frame = page.locator('iframe[title="Rendered HTML of the email"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    await expect(page.frameLocator('iframe').locator('strong').first().innerText()).resolves.toBe('there');
    await expect(page.locator('pre').innerText()).resolves.toContain('welcome');
    await shot(page, 'email');
  });

  it('sends a webhook test and shows its delivery', async () => {
    const { page } = admin;
    const receiver = await startReceiver();
    const hook = await app.call('POST', '/webhooks', {
      key: sandboxKey,
      body: { url: receiver.url, events: ['ticket.created'] },
    });
    expect(hook.status).toBe(200);
    await nav(page, 'Webhooks');
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('button', { name: 'Send test' }).click();
    await app.drain();
    expect(receiver.requests).toHaveLength(1);
    await page.reload();
    await expect(page.locator('tr.delivery').first().innerText()).resolves.toMatch(/ticket\.created\s+1\s+200/);
    await shot(page, 'webhook');
  });

  it('lists a log issue and changes its status', async () => {
    const { page } = admin;
    await app.call('POST', '/logs', {
      key: sandboxKey,
      body: { events: [{ level: 'error', message: 'Checkout crashed', scope: 'shop' }] },
    });
    await app.drain();
    await nav(page, 'Log issues');
    await shot(page, 'issues');
    await page.getByRole('link', { name: 'Checkout crashed' }).click();
    await page.getByLabel('Change status').selectOption('resolved');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('dl .badge').innerText()).resolves.toBe('resolved');
    await shot(page, 'issue');
  });

  it('answers a ticket in live data; the reply is mailed and in the email log', async () => {
    const { page } = admin;
    await page.locator('#switch-env').selectOption('live');
    await page.getByRole('button', { name: 'Switch' }).click();
    expect(await page.locator('.sandbox-banner').count()).toBe(0);
    const customer = address('cust');
    const created = await app.call('POST', '/tickets', {
      key: tenant.liveKey,
      body: { subject: 'Refund please', body: 'Order 42 arrived broken.', customer: { email: customer, name: 'Cleo' } },
    });
    expect(created.status).toBe(200);
    await nav(page, 'Tickets');
    await page.getByLabel('Search').fill('refund');
    await page.getByRole('button', { name: 'Filter' }).click();
    await shot(page, 'tickets');
    await page.getByRole('link', { name: 'Refund please' }).click();
    ticketUrl = page.url();
    await page.getByLabel('Reply or note').fill('Sorry! A replacement is on its way.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Reply or note').fill('Checked with the warehouse.');
    await page.getByLabel('Internal note (staff only)').check();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Status').selectOption('pending');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('article.internal').innerText()).resolves.toContain('Checked with the warehouse.');
    await shot(page, 'ticket');
    await app.drain();
    const mailed = (await mailsTo(customer)).map((m) => m.body.text ?? '').join('\n');
    expect(mailed).toContain('A replacement is on its way.');
    expect(mailed).not.toContain('warehouse');
    await page.goto(`${app.url}/console/emails?to=${encodeURIComponent(customer)}`);
    // The list's table (the chart above it has a table of its numbers too).
    await expect(page.locator('.scroll tbody').innerText()).resolves.toMatch(/sent/);
    expect(await page.getByRole('img', { name: 'Emails per day, last 30 days (UTC)' }).count()).toBe(1);
    await nav(page, 'Customers');
    await expect(page.locator('tbody').innerText()).resolves.toContain(customer);
    await shot(page, 'customers');
    await nav(page, 'Articles');
    await shot(page, 'articles');
    // Readable on a phone: the same page at a phone's width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(ticketUrl);
    await shot(page, 'ticket-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps an agent out of the keys page', async () => {
    const agent = await signIn(
      (await tenant.member({ email: address('agent'), name: 'Andy Agent', role: 'agent' })).email,
    );
    expect(await agent.page.getByRole('navigation').getByRole('link', { name: 'API keys' }).count()).toBe(0);
    const res = await agent.page.goto(`${app.url}/console/keys`);
    expect(res?.status()).toBe(403);
    await agent.context.close();
  });

  it('shows a member of another account none of this account’s data', async () => {
    const other = await createTenant();
    const outsider = await signIn((await other.member({ email: address('outsider'), role: 'admin' })).email);
    const { page } = outsider;
    for (const path of [
      '/console/tickets',
      '/console/emails',
      '/console/webhooks',
      '/console/issues',
      '/console/keys',
    ]) {
      await page.goto(app.url + path);
      const text = await page.content();
      for (const secretOrName of ['Refund please', 'Welcome aboard', 'Checkout crashed', sandboxKey.slice(0, 15)])
        expect(text).not.toContain(secretOrName);
    }
    expect((await page.goto(ticketUrl))?.status()).toBe(404);
    await outsider.context.close();
  });

  it('refuses a state-changing request without the CSRF token, then signs out', async () => {
    const { context, page } = admin;
    const forged = await context.request.post(`${app.url}/console/switch`, {
      form: { projectId: tenant.projects.main!.id, env: 'sandbox' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    await page.goto(`${app.url}/console`);
    expect(await page.locator('.sandbox-banner').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/console/sign-in`);
    await page.goto(`${app.url}/console/tickets`);
    expect(page.url()).toBe(`${app.url}/console/sign-in`);
    await context.close();
  });
});
