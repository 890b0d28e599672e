import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { openPortal } from './helpers.js';

const app = await startTestApp();

/** What a browser gets: an HTML page with the status, no JSON, never stored. */
function expectPage(res: { status: number; headers: Headers; text: string }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('text/html');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.text).toMatch(/^<!doctype html>/);
  expect(res.text).toContain('<h1>');
  expect(res.text).not.toContain('"error"');
}

describe('errors on pages', () => {
  it('are HTML pages for browsers on every page route, and JSON for clients that ask for it', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    expectPage(await app.call('GET', `/help/${handle}/search`, { query: { q: 'x'.repeat(10_000) } }), 422);
    expectPage(await app.call('GET', `/help/${handle}/no/such/page`), 404);
    expectPage(await app.call('GET', '/console/no-such-page'), 404);
    expectPage(await app.call('GET', '/public/feedback/not-a-token'), 404);
    expectPage(
      await app.call('POST', `/help/${handle}/articles/any/votes`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: 'helpful=maybe',
      }),
      422,
    );
    // A client that asks for JSON (the ticket page's own API use) keeps the API's error shape.
    const json = await app.call('GET', '/public/feedback/not-a-token', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(json.body.error.code).toBe('not_found');
    // API routes never answer pages.
    const api = await app.call('GET', '/tickets/not-an-id', { key: t.liveKey, headers: { accept: 'text/html' } });
    expect(api.body.error.code).toBe('not_found');
  });

  it('escape what the problem says', async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const res = await app.call('GET', `/help/${handle}/search`, { query: { q: `<script>${'x'.repeat(5000)}` } });
    expect(res.text).not.toContain('<script>');
  });
});
