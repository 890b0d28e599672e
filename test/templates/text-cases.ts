import { readdirSync, readFileSync } from 'node:fs';
import { marked } from 'marked';

const dir = new URL('./', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');

/** Markdown a message body may hold: every block and inline form the email and article renderers meet. */
const MARKDOWN: Record<string, string> = {
  'md-blocks': [
    '# Title',
    'Intro with a [link](https://example.com/a) and <https://example.com/b>.',
    '## Sub *heading*',
    '- one\n- two\n  - nested a\n  - nested b\n- three',
    '3. third\n4. fourth\n\n   more of fourth\n5. fifth',
    '1. outer\n   1. inner one\n   2. inner two\n2. outer two',
    '> quoted **bold**\n>\n> second paragraph',
    '---',
    '```\ncode line 1\n  indented\n```',
    'Inline `code`, ![img](https://x.example/i.png) image, trailing  ',
    '| a | b |\n|---|---|\n| 1 | 2 |',
  ].join('\n\n'),
  'md-plain': 'Hello *there*',
  'md-entities': 'Tom & Jerry <3 "quotes" and &amp; already &lt;escaped&gt;\nline two\\\nhard break',
  'md-same-link': '[https://example.com](https://example.com) and [mailto](mailto:a@b.example)',
};

/** HTML the renderers do not produce but a layout or template may hold. */
const HTML: Record<string, string> = {
  'html-edges': [
    '<body><style>p { color: red }</style><script>var x = 1;</script>',
    '<p>a<b>b</b> c <i> d </i>e&nbsp;f&amp;g &copy; &rarr;</p>',
    '<p><a href="#top">anchor</a> <a href="https://x.example/i"><img src="i.png" alt="pic"></a> <a href="">empty</a> <a>none</a></p>',
    '<p><a href="https://x.example/a b">Click   <em>here</em></a>, then</p>',
    '<ol start="9"><li>nine</li><li>ten<ul><li>deep <div>block in item</div></li></ul></li><li><p>eleven</p><p>more</p></li></ol>',
    '<blockquote><p>outer</p><blockquote>inner<br>line</blockquote><ul><li>quoted item</li></ul><hr></blockquote>',
    '<table><tr><th><h3>Head</h3></th><td>cell <a href="https://t.example">t</a></td></tr></table>',
    '<section>sec</section><article>art</article><header>hdr</header><footer>ftr</footer><span>in</span><span>line</span>',
    '<ul>\n  text before\n  <li>item</li>\n  <!-- comment -->\n</ul><pre>  keep\n\n  spaces  </pre>x<br><br>y',
    '</body>',
  ].join(''),
  'html-no-body': '<div>one</div>two<p>three <br> four</p>',
};

/** Name -> HTML: the rendered golden email, the raw fixtures (HTML with Handlebars tags) and Markdown rendered as the email path renders it. */
export const TEXT_CASES: Record<string, string> = {
  'order-shipped': read('golden/order-shipped.html'),
  ...Object.fromEntries(
    readdirSync(new URL('fixtures/', dir))
      .filter((f) => f.endsWith('.hbs'))
      .map((f) => [`fixture-${f}`, read(`fixtures/${f}`)]),
  ),
  ...Object.fromEntries(Object.entries(MARKDOWN).map(([k, md]) => [k, marked.parse(md, { async: false, gfm: true })])),
  ...HTML,
};

/**
 * Markdown only articles meet here: table cells that wrap at 60 characters, task lists, named
 * entities, quotes holding blocks, every heading level, raw HTML (shown as text), wide ordered lists,
 * hard breaks, reference links and empty items.
 */
const ARTICLE_EDGES: Record<string, string> = {
  'md-table-wrap': `| Long column | b |\n|---|---|\n| ${'word '.repeat(30)}| x |\n| short | averyveryverylongwordwithoutanyspacesthatexceedssixtycharacterswidthforsure yes |`,
  'md-tasks-code': '- [ ] todo\n- [x] done **bold**\n\n1. a\n\n   ```js\n   code\n   ```\n2. b',
  'md-named-entities': '&copy; &rarr; &notit; &AElig &#x41; &#169; &nbsp;x &hellip;',
  'md-quote-blocks': '> # Heading in quote\n> - list\n>   - nested\n>\n> > deeper\n\ntext',
  'md-headings': '#### h4\n##### h5\n###### h6\n\nSetext\n===\n\nOther\n---',
  'md-raw-html': 'Line with <b>raw</b> html and <div>block</div>\n\n<div>\nblock html\n</div>\n\nafter',
  'md-wide-numbers':
    '1. one\n10. ten\n100. hundred\n\n* a\n\n  para\n\n* b\n  > quote in item\n* c\n\n      indented code',
  'md-breaks-refs':
    'a  \nb\\\nc   \nd\n\n[ref link][r] ~~strike~~ ***both*** <https://auto.link> www.example.com\n\n[r]: https://example.com "Title"\n\n- \n- empty item\n-',
};

export const ARTICLE_MARKDOWN = { ...MARKDOWN, ...ARTICLE_EDGES };
