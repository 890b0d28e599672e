import { createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '../config.js';
import { API_PREFIX } from '../http/route.js';
import type { Environment } from '../auth/entities.js';

/** `r`: a feedback request's rating link (single use); `c`: a conversation's read-only thread link. */
export type TokenKind = 'r' | 'c';

export interface TokenClaims {
  kind: TokenKind;
  projectId: string;
  env: Environment;
  id: string;
}

const sign = (payload: string) => createHmac('sha256', env.signingSecret).update(payload).digest('base64url');

export function createFeedbackToken(claims: TokenClaims) {
  const payload = [claims.kind, claims.projectId, claims.env, claims.id].join(':');
  return `${Buffer.from(payload).toString('base64url')}.${sign(payload)}`;
}

/** The claims of a token this service signed; undefined for anything else. */
export function verifyFeedbackToken(token: string): TokenClaims | undefined {
  const [encoded, signature, ...rest] = token.split('.');
  if (!encoded || !signature || rest.length) return undefined;
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [kind, projectId, environment, id] = payload.split(':');
  if ((kind !== 'r' && kind !== 'c') || !projectId || (environment !== 'live' && environment !== 'sandbox') || !id) return undefined;
  return { kind, projectId, env: environment, id };
}

export const feedbackLink = (claims: TokenClaims) =>
  `${env.publicBaseUrl.replace(/\/+$/, '')}${API_PREFIX}/public/feedback/${createFeedbackToken(claims)}`;
