import { Html, html } from './html.js';

export interface Chrome {
  memberName: string;
  role: 'admin' | 'agent';
  accountName: string;
  projects: { id: string; slug: string; name: string }[];
  projectId?: string;
  env: 'live' | 'sandbox';
  csrf: string;
  /** The nav entry to mark as current. */
  section?: string;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111827;background:#f9fafb}
a{color:#1d4ed8}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
header{background:#111827;color:#f9fafb;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
header a{color:#f9fafb}.skip{position:absolute;left:-999px;background:#fff;padding:.25rem .5rem}.skip:focus{left:.5rem;top:.5rem}header .badge{color:#111827}header .brand{font-weight:700;text-decoration:none;margin-right:.5rem}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a[aria-current=page]{text-decoration:underline;text-underline-offset:.3em;font-weight:600}
header form{display:flex;flex-wrap:wrap;gap:.25rem;align-items:center;margin:0}
header .who{margin-left:auto;display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
header select,header button{font:inherit;font-size:.9rem;padding:.15rem .4rem}
.sandbox-banner{background:#fde68a;color:#78350f;padding:.35rem 1rem;font-weight:700;border-bottom:2px solid #b45309}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e5e7eb;vertical-align:top}
th{background:#f3f4f6;font-weight:600}
.scroll{overflow-x:auto}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin-bottom:1rem}
label{display:block;font-weight:600;font-size:.9rem}
input,select,textarea{font:inherit;padding:.35rem .5rem;border:1px solid #6b7280;border-radius:.25rem;background:#fff;color:#111827;max-width:100%}
textarea{width:100%;min-height:7rem}
button{font:inherit;padding:.4rem .9rem;border:1px solid #1e3a8a;border-radius:.25rem;background:#1d4ed8;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1e3a8a}button.danger{background:#b91c1c;border-color:#7f1d1d}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:.5rem;padding:1rem;margin-bottom:1rem}
.secret{font-family:ui-monospace,monospace;background:#ecfdf5;border:2px solid #047857;padding:.75rem;word-break:break-all}
.notice{background:#eff6ff;border-left:4px solid #1d4ed8;padding:.5rem .75rem;margin-bottom:1rem}
.error{background:#fef2f2;border-left:4px solid #b91c1c;padding:.5rem .75rem;margin-bottom:1rem}
.msg{border-left:4px solid #9ca3af;background:#fff;padding:.5rem .75rem;margin:.75rem 0;white-space:pre-wrap}
.msg.staff{border-color:#1d4ed8}.msg.internal{border-color:#b45309;background:#fffbeb}
.muted{color:#4b5563;font-size:.9rem}
.badge{display:inline-block;padding:0 .4rem;border-radius:.25rem;background:#e5e7eb;font-size:.85rem}
.row{display:flex;flex-wrap:wrap;gap:1rem}.row>*{flex:1 1 18rem}
iframe{width:100%;min-height:24rem;border:1px solid #d1d5db;background:#fff}
pre{white-space:pre-wrap;background:#fff;border:1px solid #e5e7eb;padding:.75rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
@media (max-width:40rem){header .who{margin-left:0}th,td{padding:.3rem}}
`;

const page = (title: string, body: Html) => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Console</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
${body}
</body>
</html>`;

/** A page outside a session (sign-in, errors before sign-in). */
export const bareLayout = (title: string, content: Html) =>
  page(title, html`<header><span class="brand">Helpdesk console</span></header><main>${content}</main>`).value;

const NAV: { section: string; href: string; label: string; adminOnly?: boolean }[] = [
  { section: 'tickets', href: '/console/tickets', label: 'Tickets' },
  { section: 'metrics', href: '/console/metrics', label: 'Metrics' },
  { section: 'customers', href: '/console/customers', label: 'Customers' },
  { section: 'articles', href: '/console/articles', label: 'Articles' },
  { section: 'issues', href: '/console/issues', label: 'Log issues' },
  { section: 'alerts', href: '/console/alerts', label: 'Log alerts' },
  { section: 'emails', href: '/console/emails', label: 'Emails', adminOnly: true },
  { section: 'webhooks', href: '/console/webhooks', label: 'Webhooks', adminOnly: true },
  { section: 'keys', href: '/console/keys', label: 'API keys', adminOnly: true },
];

export const navFor = (role: 'admin' | 'agent') => NAV.filter((n) => role === 'admin' || !n.adminOnly);

/** A signed-in page: navigation, the project and live/sandbox switch, sign-out; sandbox marked on every page. */
export const layout = (chrome: Chrome, title: string, content: Html) =>
  page(
    chrome.env === 'sandbox' ? `[Sandbox] ${title}` : title,
    html`<a href="#main" class="skip">Skip to content</a>
<header>
<a class="brand" href="/console">${chrome.accountName}</a>
<nav aria-label="Sections"><ul>${navFor(chrome.role).map(
      (n) =>
        html`<li><a href="${n.href}"${chrome.section === n.section ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
    )}</ul></nav>
<div class="who">
<form method="post" action="/console/switch">
<input type="hidden" name="csrf" value="${chrome.csrf}">
<input type="hidden" name="section" value="${chrome.section ?? ''}">
<label for="switch-project" style="font-weight:400">Project</label>
<select id="switch-project" name="projectId">${chrome.projects.map(
      (p) => html`<option value="${p.id}"${p.id === chrome.projectId ? html` selected` : ''}>${p.name}</option>`,
    )}</select>
<label for="switch-env" style="font-weight:400">Environment</label>
<select id="switch-env" name="env"><option value="live"${chrome.env === 'live' ? html` selected` : ''}>Live</option><option value="sandbox"${chrome.env === 'sandbox' ? html` selected` : ''}>Sandbox</option></select>
<button type="submit" class="secondary">Switch</button>
</form>
<span>${chrome.memberName} <span class="badge">${chrome.role}</span></span>
<form method="post" action="/console/sign-out"><input type="hidden" name="csrf" value="${chrome.csrf}"><button type="submit" class="secondary">Sign out</button></form>
</div>
</header>
${chrome.env === 'sandbox' ? html`<div class="sandbox-banner" role="status" data-env="sandbox">Sandbox: test data, mail is captured and never delivered</div>` : ''}
<main id="main">
${content}
</main>`,
  ).value;
