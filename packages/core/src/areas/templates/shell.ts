import { handlebars } from './analyze.js';

/** The built-in responsive wrapper for custom sends without a layout: one centred column, fluid below 600 px. */
const shell = handlebars.compile(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>{{subject}}</title>
<style>
body { margin: 0; padding: 0; background: #f4f5f7; -webkit-text-size-adjust: 100%; }
.wrapper { width: 100%; background: #f4f5f7; padding: 24px 0; }
.content { width: 100%; max-width: 600px; margin: 0 auto; background: #ffffff; border-radius: 6px; }
.body { padding: 32px; font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif; font-size: 16px; line-height: 1.5; color: #1f2328; }
.body a { color: #0969da; }
.body img { max-width: 100%; height: auto; }
@media only screen and (max-width: 620px) { .wrapper { padding: 0; } .content { border-radius: 0; } .body { padding: 20px; } }
</style>
</head>
<body>
<table role="presentation" class="wrapper" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><td align="center">
<table role="presentation" class="content" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><td class="body">
{{{body}}}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`);

export const wrapInShell = (subject: string, body: string) => shell({ subject, body });
