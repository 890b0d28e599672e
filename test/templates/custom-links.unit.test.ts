import { renderEmail } from '@helpdesk/core/areas/templates/render';
import type { TenantContext } from '@helpdesk/core/kernel/tenant';
import { describe, expect, it } from 'vitest';

// A custom message without a layout renders without reading anything.
const ctx = {} as TenantContext;
const render = async (body: string) => (await renderEmail(ctx, { subject: 'Re: your ticket', body })).html;

describe('custom message links (ticket replies, notices, one-off sends)', () => {
  it('keeps only the text of a link or image whose target is not http(s), mailto or relative', async () => {
    for (const target of [
      'javascript:fetch(1)',
      'JavaScript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'vbscript:msgbox(1)',
    ]) {
      const html = await render(`Please [verify here](${target}) and ![logo](${target}) now.`);
      expect(html, target).toContain('Please verify here and logo now.');
      expect(html, target).not.toMatch(/<a |<img /);
    }
  });

  it('writes a kept target fully escaped, so a character reference never decodes into a scheme', async () => {
    // The URL parser reads these as relative paths; a browser would decode them to javascript: if the
    // references reached the attribute as they are.
    for (const target of ['java&#x73;cript:alert(1)', 'javascript&colon;alert(1)', '&#106;avascript:alert(1)']) {
      const html = await render(`[z](${target}) ![i](${target})`);
      const hrefs = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);
      expect(hrefs.length, target).toBeGreaterThan(0);
      for (const href of hrefs) {
        // What the browser reads: the attribute with its references decoded once.
        const read = href.replace(/&amp;/g, '&');
        expect(new URL(read, 'https://relative.invalid/').protocol, target).toBe('https:');
        expect(href, target).not.toMatch(/&(?!amp;)/);
      }
    }
  });

  it('keeps web, mail and relative links as links', async () => {
    const html = await render(
      '[docs](https://example.com/a?b=1&c=2) [mail](mailto:help@example.com) [page](/help) ![x](https://example.com/x.png)',
    );
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2">docs</a>');
    expect(html).toContain('<a href="mailto:help@example.com">mail</a>');
    expect(html).toContain('<a href="/help">page</a>');
    expect(html).toContain('<img src="https://example.com/x.png" alt="x">');
  });
});
