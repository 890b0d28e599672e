import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueAddress } from '../emails/helpers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { category, openPortal, publish } from './helpers.js';

/** PORTAL_SCREENSHOTS=1 saves three pages to docs/portal/ (the README shows them). */
const SHOTS = process.env.PORTAL_SCREENSHOTS === '1' ? 'docs/portal' : undefined;
const SHOWN = new Set(['home', 'article', 'request-form']);
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

describe('the help center in a browser', { timeout: 120_000 }, () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let base: string;
  let article: { slug: string };
  let categorySlug: string;

  const focused = () => page.locator(':focus');
  const violations = async (name: string) => {
    if (SHOTS && SHOWN.has(name)) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
    const { violations: found } = await new AxeBuilder({ page }).withTags(WCAG).analyze();
    return found.map((v) => `${name}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
  };

  beforeAll(async () => {
    app = await startTestApp();
    const t = await createTenant();
    const handle = await openPortal(app, t, { accentColor: '#0f766e', footer: '© Acme Inc. · Open Monday to Friday' });
    // The request form shows the project's ticket fields: axe checks their controls too.
    for (const body of [
      { key: 'order_id', label: 'Order number', type: 'text', required: true },
      { key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'], required: true },
      { key: 'regions', label: 'Regions', type: 'multi-select', options: ['eu', 'us'] },
      { key: 'urgent', label: 'Urgent', type: 'boolean', required: true },
    ])
      await app.call('POST', '/ticket-fields', { key: t.liveKey, body });
    const billing = await category(app, t.liveKey, 'Billing');
    categorySlug = billing.slug;
    article = await publish(app, t.liveKey, {
      title: 'How refunds work',
      body: '## When\n\nRefunds reach your card within **five days**.\n\n- Card payments\n- Bank transfers\n\nSee [our terms](https://example.com/terms).',
      categoryId: billing.id,
    });
    await publish(app, t.liveKey, {
      title: 'Refund a gift card',
      body: 'Gift cards are refunded as credit.',
      categoryId: billing.id,
    });
    await publish(app, t.liveKey, { title: 'Change your password', body: 'Use the reset link on the sign-in page.' });
    await app.drain();
    base = `${app.url}/help/${handle}`;
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('has no WCAG 2.2 AA violation that axe finds on any page type', async () => {
    const found: string[] = [];
    for (const [name, path] of [
      ['home', ''],
      ['search', '/search?q=refund'],
      ['search-empty', '/search?q=zebra'],
      ['category', `/categories/${categorySlug}`],
      ['article', `/articles/${article.slug}`],
      ['request-start', '/requests/new'],
      ['request-form', '/requests/new?subject=refund'],
      ['not-found', '/articles/no-such-article'],
    ] as const) {
      await page.goto(base + path);
      found.push(...(await violations(name)));
    }
    // The form refused (422) and thanked (after a vote) are pages too.
    await page.goto(`${base}/requests/new?subject=refund`);
    // Valid to the browser's own checks, refused by the service's: an address without a dot, a blank message.
    await page.getByLabel('Your email address').fill('kim@localhost');
    await page.getByLabel('How can we help?').fill(' ');
    await page.getByLabel('Order number').fill('42');
    await page.getByLabel('Plan').selectOption('pro');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Please check the fields marked below.').waitFor();
    found.push(...(await violations('request-refused')));
    await page.goto(`${base}/articles/${article.slug}`);
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Thank you for your feedback.').waitFor();
    found.push(...(await violations('article-voted')));
    expect(found).toEqual([]);
    // The check itself finds what it should: an image without a text alternative, a field without a label.
    await page.setContent(
      '<!doctype html><html lang="en"><title>x</title><main><img src="x.png"><input></main></html>',
    );
    expect((await violations('broken')).map((v) => v.split(' ')[1])).toEqual(
      expect.arrayContaining(['image-alt', 'label']),
    );
  });

  it('searches and opens a request by keyboard alone', async () => {
    await page.goto(base);
    await page.keyboard.press('Tab');
    expect(await focused().textContent()).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused().getAttribute('id')).toBe('q');
    await page.keyboard.type('refund');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=refund/);
    expect(await page.getByRole('link', { name: 'How refunds work' }).count()).toBe(1);

    await page.goto(`${base}/requests/new`);
    // Skip link, brand, search box, search button, then the subject.
    for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
    expect(await focused().getAttribute('id')).toBe('subject');
    await page.keyboard.type('refund for order 42');
    await page.keyboard.press('Enter');
    await page.getByText('Do any of these answer your question?').waitFor();
    await page.getByLabel('Your email address').focus();
    const email = uniqueAddress('keyboard');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Kim Keyboard');
    await page.keyboard.press('Tab');
    expect(await focused().inputValue()).toBe('refund for order 42');
    await page.keyboard.press('Tab');
    await page.keyboard.type('My order 42 arrived broken.');
    await page.keyboard.press('Tab');
    expect(await focused().getAttribute('id')).toBe('cf-order_id');
    await page.keyboard.type('42');
    // The plan (the arrow picks the first option), the urgent box, the files, then the button: the optional
    // regions are not on the public form, and the honeypot is out of the tab order.
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused().textContent()).toBe('Send request');
    await page.keyboard.press('Enter');
    await page.getByText('we received your request').waitFor();
    expect(await page.getByText('We have sent a confirmation with a link').count()).toBe(1);
    // Its confirmation mail goes out before the file's stack stops.
    await app.drain();
  });
});
