import { env } from '../../kernel/config.js';
import { trimChars } from '../../kernel/text.js';

/** Where a project's help center lives: `{PUBLIC_BASE_URL}/help/{handle}`, and its pages below it. */
export const portalPath = (handle: string, rest = '') => `/help/${handle}${rest}`;
export const portalUrl = (handle: string, rest = '') =>
  `${trimChars(env.publicBaseUrl, '/', 'end')}${portalPath(handle, rest)}`;
