import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { errorPage, htmlPage, redirect, sameOrigin, signedIn } from './guard.js';
import { html } from './html.js';
import { bareLayout } from './layout.js';
import { clearedCookie, endSession, loadSession, sessionIdOf } from './session.js';
import { completeSignIn, LINK_SECONDS, requestSignIn, signInLinkValid } from './sign-in.js';

const form = (message?: string, email = '') =>
  bareLayout(
    'Sign in',
    html`<h1>Sign in</h1>
${message ? html`<p class="notice" role="status">${message}</p>` : ''}
<form method="post" action="/console/sign-in" class="card">
<label for="email">Your email address</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${email}" size="32">
<p class="muted">We email you a link that signs you in. It works once, for ${LINK_SECONDS / 60} minutes.</p>
<button type="submit">Email me a sign-in link</button>
</form>`,
  );

export const signInForm = async ({ event }: { event: APIGatewayProxyEventV2 }) =>
  (await loadSession(sessionIdOf(event.cookies))) ? redirect('/console') : htmlPage(200, form());

/** A sign-in POST from another site's page: refused like any console POST (login CSRF). */
const foreignPost = () =>
  errorPage(403, 'This form was sent from another site. Open the console yourself and try again.');

export async function sendSignInLink({
  event,
  body,
  sourceIp,
}: {
  event: APIGatewayProxyEventV2;
  body: unknown;
  sourceIp: string;
}) {
  if (!sameOrigin(event)) return foreignPost();
  const email = String((body as Record<string, unknown>)?.email ?? '');
  const outcome = await requestSignIn(email, sourceIp);
  if (outcome === 'invalid') return htmlPage(422, form('Enter a valid email address.', email));
  if (outcome === 'limited')
    return htmlPage(429, form('Too many sign-in requests. Wait a minute and try again.', email), {
      'retry-after': '60',
    });
  return htmlPage(
    200,
    form(`If ${email} belongs to a console member, a sign-in link is on its way. Check your inbox.`),
  );
}

/**
 * GET of an emailed link only shows a button: mail scanners and link previews fetch GETs, and must
 * not use up (or use) the link. The POST signs in.
 */
export async function confirmSignIn({ params }: { params: { token: string } }) {
  if (!(await signInLinkValid(params.token))) return expiredLink();
  return htmlPage(
    200,
    bareLayout(
      'Sign in',
      html`<h1>Sign in to the console</h1>
<form method="post" class="card"><p>Continue to sign in on this device.</p><button type="submit">Sign in</button></form>`,
    ),
  );
}

const expiredLink = () =>
  htmlPage(
    404,
    bareLayout(
      'Link not valid',
      html`<h1>This sign-in link is no longer valid</h1><p>It was used already or has expired. <a href="/console/sign-in">Ask for a new one</a>.</p>`,
    ),
  );

export async function finishSignIn({ event, params }: { event: APIGatewayProxyEventV2; params: { token: string } }) {
  // Else another site could sign a visitor into the attacker's account with the attacker's link.
  if (!sameOrigin(event)) return foreignPost();
  const cookie = await completeSignIn(params.token);
  return cookie ? redirect('/console', { 'set-cookie': cookie }) : expiredLink();
}

/** Sign-out is a signed-in POST like any other: its CSRF token is checked first. */
export const signOut = signedIn('any', async ({ session }) => {
  await endSession(session);
  return redirect('/console/sign-in', { 'set-cookie': clearedCookie() });
});
