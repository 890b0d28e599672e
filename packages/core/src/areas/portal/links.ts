import { env } from '../../kernel/config.js';
import { trimChars } from '../../kernel/text.js';

/** Where a project's help center lives: `{PORTAL_BASE_URL}/help/{handle}` (the public base URL unless the stage has a CDN for it), and its pages below it. */
export const portalPath = (handle: string, rest = '') => `/help/${handle}${rest}`;
export const portalUrl = (handle: string, rest = '') =>
  `${trimChars(env.portalBaseUrl, '/', 'end')}${portalPath(handle, rest)}`;
