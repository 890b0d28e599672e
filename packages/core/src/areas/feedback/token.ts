import { API_PREFIX } from '../../kernel/api/route.js';
import { env } from '../../kernel/config.js';
import { signToken, verifyToken } from '../../kernel/links/signed.js';
import type { Environment } from '../../kernel/tenant.js';
import { trimChars } from '../../kernel/text.js';

/** `r`: a feedback request's rating link (single use); `c`: a conversation's read-only thread link. */
export type TokenKind = 'r' | 'c';

export interface TokenClaims {
  kind: TokenKind;
  projectId: string;
  env: Environment;
  id: string;
}

export const createFeedbackToken = (claims: TokenClaims) =>
  signToken([claims.kind, claims.projectId, claims.env, claims.id]);

/** The claims of a token this service signed; undefined for anything else. */
export function verifyFeedbackToken(token: string): TokenClaims | undefined {
  const [kind, projectId, environment, id, ...rest] = verifyToken(token) ?? [];
  if (
    (kind !== 'r' && kind !== 'c') ||
    !projectId ||
    (environment !== 'live' && environment !== 'sandbox') ||
    !id ||
    rest.length
  )
    return undefined;
  return { kind, projectId, env: environment, id };
}

export const feedbackLink = (claims: TokenClaims) =>
  `${trimChars(env.publicBaseUrl, '/', 'end')}${API_PREFIX}/public/feedback/${createFeedbackToken(claims)}`;
