import { markdownToHtml } from '@helpdesk/core/areas/articles/text';
import { describe, expect, it } from 'vitest';

describe('article body HTML', () => {
  it("puts the body's headings under the page's title on a help-center page, and keeps them in the API", () => {
    const body = '# Setup\n\n## Steps\n\n###### Deepest';
    expect(markdownToHtml(body, { underTitle: true })).toBe('<h2>Setup</h2>\n<h3>Steps</h3>\n<h6>Deepest</h6>\n');
    expect(markdownToHtml(body)).toBe('<h1>Setup</h1>\n<h2>Steps</h2>\n<h6>Deepest</h6>\n');
    // The page's renderer keeps the same safety: no live script link, raw HTML as text.
    expect(markdownToHtml('# [x](javascript:alert(1)) <b>', { underTitle: true })).toBe('<h2>x &lt;b&gt;</h2>\n');
  });
});
