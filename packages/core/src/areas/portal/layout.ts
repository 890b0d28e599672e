import { escapeHtml } from '../templates/escape.js';
import { portalPath, portalUrl } from './links.js';
import type { Site } from './site.js';
import { ACCENT_DEFAULT } from './values.js';

export const esc = escapeHtml;

export interface PageMeta {
  title: string;
  /** The page's path below the handle (`/articles/…`), for its canonical URL; none for pages not to index. */
  canonical?: string;
  description?: string;
  /** schema.org data, written as JSON-LD. */
  structured?: object;
  /** Search engines leave it out (search results, the request form). */
  noindex?: boolean;
  /** The search box's current text. */
  query?: string;
}

/** JSON inside a <script> element: `<` escaped so no text of the data can close the element. */
const jsonLd = (data: object) =>
  `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;

// One stylesheet inline: no request for an asset, and a page stays far under its size budget.
const STYLE = `*{box-sizing:border-box}
body{margin:0;font:1rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#fff}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}
.skip:focus{left:.5rem}
header,main,footer{max-width:52rem;margin:0 auto;padding:1rem}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;border-bottom:1px solid #e5e7eb}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:600;font-size:1.15rem;color:#111827;text-decoration:none}
.brand img{height:2rem;width:auto}
form.search{display:flex;gap:.5rem;flex:1;min-width:14rem;max-width:28rem}
input,textarea{font:inherit;padding:.55rem .7rem;border:1px solid #6b7280;border-radius:.4rem;width:100%}
textarea{min-height:9rem}
button,.button{font:inherit;padding:.55rem 1.1rem;border:0;border-radius:.4rem;background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.plain{background:#fff;color:var(--accent);border:1px solid var(--accent)}
h1{font-size:1.9rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.3rem;margin:2rem 0 .75rem}
ul.cards{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem}
ul.cards li{border:1px solid #e5e7eb;border-radius:.5rem;padding:1rem}
ul.links{padding-left:1.2rem}
ul.links li{margin:.35rem 0}
.muted{color:#4b5563}
.result{margin:1.25rem 0}
.result em{font-style:normal;background:#fef3c7}
article img{max-width:100%;height:auto}
article pre{overflow:auto;background:#f3f4f6;padding:.75rem;border-radius:.4rem}
nav.crumbs ol{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.4rem}
nav.crumbs li+li::before{content:"›";margin-right:.4rem;color:#4b5563}
.field{margin:1rem 0}
.field label{display:block;font-weight:600;margin-bottom:.25rem}
.error{color:#b91c1c}
.notice{border-left:4px solid var(--accent);background:#f9fafb;padding:.75rem 1rem}
.sr,.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.vote{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;border-top:1px solid #e5e7eb;margin-top:2rem;padding-top:1rem}
.vote fieldset{border:0;padding:0;margin:0;display:flex;gap:.5rem;align-items:center}
.pager{display:flex;justify-content:space-between;margin:2rem 0}
footer{border-top:1px solid #e5e7eb;color:#4b5563;font-size:.9rem}`;

/** Every portal page: skip link, header with the project's name or logo and the search box, main, footer. */
export function layout(site: Site, meta: PageMeta, content: string): string {
  const accent = site.settings.accentColor ?? ACCENT_DEFAULT;
  const home = portalPath(site.handle);
  const logo = site.settings.logoUrl ? `<img src="${esc(site.settings.logoUrl)}" alt="" width="32" height="32">` : '';
  const title = meta.title === site.name ? `${site.name} Help Center` : `${meta.title} · ${site.name} Help Center`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
${meta.description ? `<meta name="description" content="${esc(meta.description)}">` : ''}
${meta.canonical !== undefined ? `<link rel="canonical" href="${esc(portalUrl(site.handle, meta.canonical))}">` : ''}
${meta.noindex ? '<meta name="robots" content="noindex">' : ''}
${meta.structured ? jsonLd(meta.structured) : ''}
<style>:root{--accent:${accent}}
${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<a class="brand" href="${home}">${logo}<span>${esc(site.name)} Help Center</span></a>
<form class="search" role="search" method="get" action="${home}/search">
<label for="q" class="sr">Search the help center</label>
<input id="q" name="q" type="search" maxlength="500" value="${esc(meta.query ?? '')}" placeholder="Search for answers" required>
<button type="submit">Search</button>
</form>
</header>
<main id="main">
${content}
</main>
<footer>
${site.settings.footer ? `<p>${esc(site.settings.footer)}</p>` : ''}
<p><a href="${home}/requests/new">Contact support</a></p>
</footer>
</body>
</html>`;
}

/** The page for anything not found: the same for an unknown handle, a turned-off portal and a draft. */
export const missingPage = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Page not found</title>
<style>body{font:1rem/1.6 system-ui,sans-serif;color:#1f2937;max-width:40rem;margin:3rem auto;padding:0 1rem}</style>
</head>
<body>
<main>
<h1>Page not found</h1>
<p>There is no help center page at this address.</p>
</main>
</body>
</html>`;
