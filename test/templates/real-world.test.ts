import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { mailsTo, uniqueAddress } from '../emails/helpers.js';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importer } from './helpers.js';

/** Public email templates from open-source projects, unchanged (sources and licenses: fixtures/real-world/README.md). */
const app = await startTestApp();

const fixture = (name: string) => readFile(new URL(`./fixtures/real-world/${name}`, import.meta.url), 'utf8');
const data = async (name: string) => JSON.parse(await fixture(name)) as Record<string, unknown>;

describe('real-world templates: import, preview, send', () => {
  it("SendGrid's receipt: #if, #each over items with this.*, rendered in preview, sandbox capture and a live send", async () => {
    const t = await createTenant();
    const imported = await importer(app, t.liveKey)('receipt.hbs', await fixture('sendgrid-receipt.hbs'), {
      subject: 'Your receipt, {{name}}',
    });
    expect(imported.status).toBe(200);
    expect(imported.body.warnings).toEqual([]);
    expect(imported.body.variables).toEqual([
      'name',
      'receipt',
      'items',
      'items.image',
      'items.text',
      'items.price',
      'total',
      'address01',
      'address02',
      'city',
      'state',
      'zip',
    ]);
    const variables = await data('sendgrid-receipt.json');
    const preview = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'receipt', variables },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.subject).toBe('Your receipt, Sample Name');
    for (const text of [
      'New Line Sneakers',
      'Blue Line Sneakers',
      '$ 79.95',
      '$ 239.85',
      '1234 Fake St.',
      'Place, CO 80202',
    ]) {
      expect(preview.body.html).toContain(text);
    }
    expect(preview.body.missingVariables).toEqual([]);

    const to = uniqueAddress();
    const sent = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to, templateKey: 'receipt', variables },
    });
    expect(sent.status).toBe(200);
    await app.drain();
    const [mail] = await mailsTo(to);
    expect(mail!.subject).toBe('Your receipt, Sample Name');
    expect(mail!.body.html).toContain('Old Line Sneakers');
  });

  it("SendGrid's call to action (password reset): triple-stash link, captured in the sandbox", async () => {
    const t = await createTenant();
    const imported = await importer(app, t.sandboxKey)('reset.hbs', await fixture('sendgrid-call-to-action.hbs'), {
      subject: '{{header}}',
    });
    expect(imported.body).toMatchObject({ warnings: [], variables: ['header', 'text', 'c2a_link', 'c2a_button'] });
    const variables = {
      ...(await data('sendgrid-call-to-action.json')),
      c2a_link: 'https://example.com/reset?t=1&u=2',
    };
    const sent = await app.call('POST', '/emails/send', {
      key: t.sandboxKey,
      body: { to: uniqueAddress(), templateKey: 'reset', variables },
    });
    expect(sent.status).toBe(200);
    await app.drain();
    const row = await app.call('GET', `/emails/${sent.body.id}`, { key: t.sandboxKey });
    expect(row.body.status).toBe('captured');
    expect(row.body.captured.subject).toBe('Password Reset');
    expect(row.body.captured.html).toContain('href="https://example.com/reset?t=1&u=2"');
    expect(row.body.captured.html).toContain('Reset Password');
  });

  it("Ghost's newsletter partials: ../ paths and hash arguments detected; Ghost's own t helper warned at import, refused at preview and send", async () => {
    const t = await createTenant();
    const imp = importer(app, t.liveKey);
    expect(
      (await imp('latestPosts.hbs', await fixture('ghost-latest-posts.hbs'), { type: 'partial' })).body.warnings,
    ).toEqual([]);
    const button = await imp('feedbackButton.hbs', await fixture('ghost-feedback-button.hbs'), { type: 'partial' });
    expect(button.status).toBe(200);
    expect(button.body.warnings).toEqual([
      expect.stringMatching(/^The file calls the helper t on line 4, which does not exist/),
    ]);

    // As Ghost's template.hbs calls them.
    const reading = await imp(
      'digest.hbs',
      '{{!-- subject: {{site.title}} digest --}}\n{{#if latestPosts.length}}<h3 class="latest-posts-header">Keep reading</h3>\n{{> latestPosts}}\n{{/if}}',
    );
    expect(reading.body.warnings).toEqual([]);
    expect(reading.body.variables).toEqual([
      'site.title',
      'latestPosts.length',
      'latestPosts',
      'latestPosts.url',
      'latestPostsHasImages',
      'latestPosts.featureImage',
      'latestPosts.featureImageMobile.src',
      'latestPosts.featureImageMobile.width',
      'latestPosts.featureImageMobile.height',
      'latestPosts.title',
      'latestPosts.excerpt',
      'latestPosts.featureImage.src',
      'latestPosts.featureImage.width',
      'latestPosts.featureImage.height',
    ]);
    const posts = {
      site: { title: 'Blog' },
      latestPosts: [{ url: 'https://b.example/1', title: 'First post', excerpt: 'Intro' }],
    };
    const preview = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'digest', variables: posts },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.subject).toBe('Blog digest');
    expect(preview.body.html).toContain('<h4>First post</h4>');
    expect(preview.body.html).toContain('<a href="https://b.example/1" style="">');

    const feedback = await imp(
      'feedback.hbs',
      '{{!-- subject: Feedback --}}\n<tr>\n{{> feedbackButton feedbackButtons href=feedbackButtons.likeHref buttonText=\'More like this\' width="145" }}\n</tr>',
    );
    expect(feedback.status).toBe(200);
    expect(feedback.body.warnings).toEqual([
      expect.stringMatching(/^The partial feedbackButton calls the helper t on line 4/),
    ]);
    // The hash key href stands for the caller's feedbackButtons.likeHref; literals are no variables.
    expect(feedback.body.variables).toEqual([
      'feedbackButtons',
      'feedbackButtons.likeHref',
      'feedbackButtons.iconUrl',
      'feedbackButtons.height',
    ]);
    const refused = {
      code: 'template.unknown_helper',
      details: { helper: 't', in: 'partial', key: 'feedbackButton', line: 4 },
    };
    const previewed = await app.call('POST', '/emails/preview', {
      key: t.liveKey,
      body: { templateKey: 'feedback', variables: {} },
    });
    expect(previewed.status).toBe(422);
    expect(previewed.body.error).toMatchObject(refused);
    const sent = await app.call('POST', '/emails/send', {
      key: t.liveKey,
      body: { to: uniqueAddress(), templateKey: 'feedback', variables: {} },
    });
    expect(sent.status).toBe(422);
    expect(sent.body.error).toMatchObject(refused);
    expect((await app.call('GET', '/emails', { key: t.liveKey })).body.emails).toEqual([]);
  });
});
