import { markdownToHtml } from '@helpdesk/core/areas/articles/text';
import { renderEmail } from '@helpdesk/core/areas/templates/render';
import { boundMarkdown, MAX_DELIMITERS, MAX_NESTING } from '@helpdesk/core/kernel/markdown-bounds';
import type { TenantContext } from '@helpdesk/core/kernel/tenant';
import { describe, expect, it } from 'vitest';

describe('Markdown within marked bounds', () => {
  it('leaves ordinary Markdown as written', () => {
    const samples = [
      'Some *emphasis*, __strong__ and `snake_case` text.\n\n> A quote\n> - with a list\n>   1. nested',
      '```\nfenced_code = a*b*c\n```\n\n    indented_code = 1',
      `${'- '.repeat(MAX_NESTING)}deep but allowed`,
      `${'_a'.repeat(MAX_DELIMITERS / 2)}`,
    ];
    for (const sample of samples) expect(boundMarkdown(sample)).toBe(sample);
  });

  it('shows emphasis delimiters past the bound as typed, and renders them in linear time', () => {
    const body = '__a'.repeat(33_000);
    const html = markdownToHtml(body);
    expect(html).not.toContain('<em>');
    expect(html).not.toContain('<strong>');
    expect(html).toContain('__a__a');
    // The bound is per paragraph: the next one keeps its emphasis.
    expect(markdownToHtml(`${'_a'.repeat(MAX_DELIMITERS)}\n\nA *word*`)).toContain('<em>word</em>');
  });

  it('keeps fenced code as written whatever it holds', () => {
    const code = `\`\`\`\n${'a_b*c '.repeat(1000)}\n\`\`\``;
    expect(boundMarkdown(code)).toBe(code);
  });

  it('renders containers nested past the bound as text instead of failing', async () => {
    for (const body of ['>'.repeat(10_000), '- '.repeat(5000), '1. '.repeat(5000), '> - 1. '.repeat(3000)]) {
      const html = markdownToHtml(`${body}end`);
      expect(html).toContain('end');
      expect((html.match(/<blockquote>|<li>/g) ?? []).length).toBeLessThanOrEqual(MAX_NESTING);
      const mail = await renderEmail({} as TenantContext, { subject: 'Deep', body: `${body}end` });
      expect(mail.html).toContain('end');
    }
  });
});
