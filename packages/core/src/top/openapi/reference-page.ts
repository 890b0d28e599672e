import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { API_PREFIX } from '../../kernel/api/route.js';

export const REDOC_FILE = 'redoc.standalone.js';

/** The reference page: Redoc rendering this API's own OpenAPI document. */
export const referencePageHtml = () => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Helpdesk API reference</title>
  <style>body { margin: 0; padding: 0; }</style>
</head>
<body>
  <redoc spec-url="${API_PREFIX}/openapi.json" hide-download-button="false"></redoc>
  <script src="/docs/${REDOC_FILE}"></script>
</body>
</html>`;

/**
 * The reference page's policy: Redoc's own script and the document from this origin, the styles it injects,
 * its search worker (a blob), nothing framed or framing it.
 */
export const REFERENCE_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'strict-origin-when-cross-origin',
};

let script: string | undefined;

/**
 * The Redoc bundle: copied beside the Lambda bundle at deploy time, read from the installed package
 * locally.
 */
export function redocScript(): string {
  if (script) return script;
  const beside = fileURLToPath(new URL(`./${REDOC_FILE}`, import.meta.url));
  const path = existsSync(beside) ? beside : createRequire(import.meta.url).resolve(`redoc/bundles/${REDOC_FILE}`);
  return (script = readFileSync(path, 'utf8'));
}
