/** The portal's vocabulary and limits (no database imports here). */

/** A public handle: lower-case letters, digits and single dashes, 3 to 40 characters, unique across the service. */
export const HANDLE_RE = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,39}$/;
/** Handles that would read as the service's own pages. */
export const RESERVED_HANDLES = new Set([
  'api',
  'admin',
  'help',
  'console',
  'docs',
  'static',
  'assets',
  'www',
  'support',
]);
/** How long an old handle still redirects (301) to the new one; it stays reserved for its project meanwhile. */
export const HANDLE_REDIRECT_DAYS = 90;

/** The request form: files per request (the API's attachment byte limit applies to their sum). */
export const REQUEST_FILES = 5;
/** Requests one source IP may send per minute, and requests naming one address per hour (each mails it). */
export const REQUESTS_PER_IP_PER_MINUTE = 10;
export const REQUESTS_PER_ADDRESS_PER_HOUR = 5;
/** The honeypot field: hidden from people, filled by bots. */
export const HONEYPOT_FIELD = 'website';

/** Results per page of the portal's search, articles listed on the home page, suggestions on the form. */
export const SEARCH_PAGE_SIZE = 10;
export const HOME_ARTICLES = 6;
export const SUGGESTIONS = 3;
export const RELATED_ARTICLES = 5;

export const FOOTER_MAX = 500;
export const ACCENT_DEFAULT = '#1d4ed8';
/** WCAG 2.2 AA for normal text: the accent carries white button text and is link color on white. */
export const MIN_CONTRAST = 4.5;
