import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { setEnv } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';
import { openPortal, publish } from './helpers.js';

const app = await startTestApp();
const EDGE = 'edge-secret-for-this-test-file-0123456789';
setEnv({ EDGE_SECRET: EDGE });
afterAll(() => setEnv({ EDGE_SECRET: undefined }));

describe('behind CloudFront', () => {
  it("counts votes by the viewer's address when the edge proves itself, by the connection's otherwise", async () => {
    const t = await createTenant();
    const handle = await openPortal(app, t);
    const a = await publish(app, t.liveKey, { title: 'Edge votes', body: 'Counted per viewer.' });
    const vote = (headers: Record<string, string>) =>
      app.call('POST', `/help/${handle}/articles/${a.slug}/votes`, {
        rawBody: 'helpful=yes',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Same browser', ...headers },
      });
    // Two viewers behind the same edge: two votes.
    await vote({ 'cloudfront-viewer-address': '203.0.113.7:51000', 'x-helpdesk-edge': EDGE });
    await vote({ 'cloudfront-viewer-address': '2001:db8::7:443', 'x-helpdesk-edge': EDGE });
    // The first viewer again, from another port: no new vote.
    await vote({ 'cloudfront-viewer-address': '203.0.113.7:52000', 'x-helpdesk-edge': EDGE });
    expect((await app.call('GET', `/articles/${a.id}`, { key: t.liveKey })).body.helpfulYes).toBe(2);
    // Claimed addresses without the edge's secret are the connection's own (127.0.0.1): one vote, whatever they claim.
    await vote({ 'cloudfront-viewer-address': '198.51.100.1:1', 'x-helpdesk-edge': 'guessed' });
    await vote({ 'cloudfront-viewer-address': '198.51.100.2:1' });
    await vote({});
    expect((await app.call('GET', `/articles/${a.id}`, { key: t.liveKey })).body.helpfulYes).toBe(3);
  });
});
