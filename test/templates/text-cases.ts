import { readFileSync, readdirSync } from 'node:fs';
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

export const ARTICLE_MARKDOWN = MARKDOWN;
