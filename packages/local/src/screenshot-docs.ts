import { mkdirSync } from 'node:fs';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { chromium } from 'playwright-core';

/**
 * `npm run docs:screenshot` (with `npm start` running): opens /docs in headless Chromium (Debian's
 * `chromium` package), checks that every API operation is on the page and saves a screenshot to
 * docs/api-reference.png. Exits non-zero when an operation is missing.
 */
const base = process.env.DOCS_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
  await page.waitForSelector('.menu-content', { timeout: 30_000 });
  const text = await page.innerText('body');
  const missing = allRoutes
    .filter((r) => !r.root && !text.includes(r.summary))
    .map((r) => `${r.method} ${r.path} (${r.summary})`);
  mkdirSync('docs', { recursive: true });
  await page.screenshot({ path: 'docs/api-reference.png' });
  if (missing.length) {
    console.error(`Missing from the reference page:\n  ${missing.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      `All ${allRoutes.filter((r) => !r.root).length} operations are on ${base}/docs; screenshot: docs/api-reference.png`,
    );
  }
} finally {
  await browser.close();
}
