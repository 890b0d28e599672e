import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { env } from '../../kernel/config.js';
import { isExpired, ttlIn } from '../../kernel/db/client.js';
import type { Environment } from '../../kernel/tenant.js';
import { ConsoleSession } from './entities.js';

export const SESSION_COOKIE = 'console_session';
/** A working day; signing in again is one emailed link away. */
export const SESSION_SECONDS = 12 * 60 * 60;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const randomToken = () => randomBytes(32).toString('base64url');

export interface Session {
  sessionHash: string;
  accountId: string;
  memberId: string;
  csrf: string;
  projectId?: string;
  env: Environment;
}

const cookie = (value: string, maxAge: number) =>
  `${SESSION_COOKIE}=${value}; Path=/console; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${env.stage === 'local' ? '' : '; Secure'}`;

/** Starts a session; returns the Set-Cookie value (the only place the id ever exists in clear). */
export async function startSession(accountId: string, memberId: string) {
  const id = randomToken();
  await ConsoleSession.create({
    sessionHash: sha256(id),
    accountId,
    memberId,
    csrf: randomToken(),
    expiresAt: ttlIn(SESSION_SECONDS),
  }).go();
  return cookie(id, SESSION_SECONDS);
}

export const clearedCookie = () => cookie('', 0);

/** The session id from the request's cookies (API Gateway v2 hands them over as `event.cookies`). */
export const sessionIdOf = (cookies: string[] | undefined) => {
  for (const c of cookies ?? []) {
    const [name, ...rest] = c.trim().split('=');
    if (name === SESSION_COOKIE && rest.length) return rest.join('=');
  }
  return undefined;
};

export async function loadSession(id: string | undefined): Promise<Session | undefined> {
  if (!id) return undefined;
  const { data } = await ConsoleSession.get({ sessionHash: sha256(id) }).go();
  if (!data || isExpired(data.expiresAt)) return undefined;
  return data;
}

export async function endSession(session: Session) {
  await ConsoleSession.delete({ sessionHash: session.sessionHash }).go();
}

export async function chooseTenant(session: Session, projectId: string, environment: Environment) {
  await ConsoleSession.patch({ sessionHash: session.sessionHash }).set({ projectId, env: environment }).go();
}

/** Constant-time comparison of the form's token with the session's. */
export const csrfValid = (session: Session, token: unknown) =>
  typeof token === 'string' &&
  token.length === session.csrf.length &&
  timingSafeEqual(Buffer.from(token), Buffer.from(session.csrf));
