import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { getMember, loadTenant } from '../../identity/accounts.js';
import { tenantContextOf } from '../../identity/tenant.js';
import { type RawResult, rawResponse } from '../../kernel/api/route.js';
import { Problem } from '../../kernel/errors/problem.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { CONSOLE_HEADERS, type Html, html } from './html.js';
import { bareLayout, type Chrome, layout } from './layout.js';
import { clearedCookie, csrfValid, endSession, loadSession, type Session, sessionIdOf } from './session.js';

export type Role = 'admin' | 'agent';

export interface ConsoleRequest {
  session: Session;
  member: { id: string; name: string; email: string; role: Role };
  /** The chosen project and environment, as the API's pipeline would build it for a key. */
  ctx: TenantContext;
  chrome: Chrome;
  /** Query string (GET) and form fields (POST). */
  query: Record<string, string | undefined>;
  form: Record<string, string>;
  params: Record<string, string>;
}

export const redirect = (location: string, headers: Record<string, string> = {}): RawResult =>
  rawResponse(303, '', { location, 'cache-control': 'no-store', ...headers });

export const htmlPage = (status: number, body: string, headers: Record<string, string> = {}) =>
  rawResponse(status, body, { ...CONSOLE_HEADERS, ...headers });

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Changed meanwhile',
  422: 'Check your input',
};

export const errorPage = (status: number, message: string, chrome?: Chrome) => {
  const title = TITLES[status] ?? 'Something went wrong';
  const content = html`<h1>${title}</h1><p class="error" role="alert">${message}</p><p><a href="/console">Back to the console</a></p>`;
  return htmlPage(status, chrome ? layout(chrome, title, content) : bareLayout(title, content));
};

/**
 * A POST from this host's own pages. Browsers send Origin with every POST; one without it (an older
 * browser, a privacy extension) is judged by Sec-Fetch-Site, then by Referer: a cross-site one is refused.
 * A request from no browser at all (no Origin, Sec-Fetch-Site or Referer) is not a forged form post.
 */
export const sameOrigin = (event: APIGatewayProxyEventV2) => {
  const host = event.headers?.host ?? event.requestContext.domainName;
  const ours = (url: string) => {
    try {
      return new URL(url).host === host;
    } catch {
      return false;
    }
  };
  const origin = event.headers?.origin;
  if (origin !== undefined) return origin !== 'null' && ours(origin);
  const site = event.headers?.['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const referer = event.headers?.referer;
  return referer === undefined || ours(referer);
};

interface Incoming {
  event: APIGatewayProxyEventV2;
  body: unknown;
  params: unknown;
}

/**
 * A signed-in console route: the session from the cookie (none: to the sign-in page), the CSRF token
 * of every POST, the member's role, then the member's own account's chosen project and environment.
 * Core's HttpErrors (404 for another tenant's id, 422, 409) become HTML pages.
 */
export const signedIn =
  (role: Role | 'any', page: (req: ConsoleRequest) => Promise<RawResult>) =>
  async ({ event, body, params }: Incoming): Promise<RawResult> => {
    const session = await loadSession(sessionIdOf(event.cookies));
    const post = event.requestContext.http.method === 'POST';
    if (!session) return post ? errorPage(401, 'Your session has ended. Sign in again.') : redirect('/console/sign-in');
    const form = (body ?? {}) as Record<string, string>;
    if (post && (!csrfValid(session, form.csrf) || !sameOrigin(event))) {
      return errorPage(
        403,
        'This form is no longer valid (missing or wrong CSRF token). Reload the page and try again.',
      );
    }
    const [member, { account, projects }] = await Promise.all([
      getMember(session.accountId, session.memberId),
      loadTenant(session.accountId),
    ]);
    if (!member || !account) {
      await endSession(session);
      return redirect('/console/sign-in', { 'set-cookie': clearedCookie() });
    }
    const project = projects.find((p) => p.projectId === session.projectId) ?? projects[0];
    const refs = projects.map((p) => ({ id: p.projectId, slug: p.slug, name: p.name, senderEmail: p.senderEmail }));
    const chrome: Chrome = {
      memberName: member.name,
      role: member.role,
      accountName: account.name,
      projects: refs,
      projectId: project?.projectId,
      env: session.env,
      csrf: session.csrf,
    };
    if (role === 'admin' && member.role !== 'admin') return errorPage(403, 'This page is for account admins.', chrome);
    if (!project) return errorPage(404, 'This account has no project yet.', chrome);
    const ctx = tenantContextOf(account, project, session.env);
    try {
      return await page({
        session,
        member: { id: member.memberId, name: member.name, email: member.email, role: member.role },
        ctx,
        chrome,
        query: event.queryStringParameters ?? {},
        form,
        params: (params ?? {}) as Record<string, string>,
      });
    } catch (err) {
      if (err instanceof Problem && err.status < 500) return errorPage(err.status, err.message, chrome);
      throw err;
    }
  };

/** A signed-in page in the layout, its section marked in the navigation. */
export const show = (req: ConsoleRequest, section: string, title: string, content: Html, status = 200) =>
  htmlPage(status, layout({ ...req.chrome, section }, title, content));
