import { emailsQueue, type SignInRequest } from '../../areas/emails/queue.js';
import { getMember, loadTenant } from '../../identity/accounts.js';
import { Member } from '../../identity/entities.js';
import { countRequest } from '../../identity/rate-limit.js';
import { env } from '../../kernel/config.js';
import { isExpired, ttlIn } from '../../kernel/db/client.js';
import { sendViaSes } from '../../kernel/ports/email-sender.js';
import { outboxRecord, putOutbox } from '../../kernel/ports/outbox.js';
import { ConsoleSignIn } from './entities.js';
import { escapeText } from './html.js';
import { randomToken, sha256, startSession } from './session.js';

/** How long an emailed link works. */
export const LINK_SECONDS = 15 * 60;
/** Sign-in requests per minute: per address (mail bombing a member), per source IP (probing many). */
export const SIGN_IN_LIMITS = { perAddress: 5, perIp: 30 };

/** Something shaped like an address: one @, no white space, a dot inside the domain (checked in one pass). */
const looksLikeAddress = (email: string) => {
  const at = email.indexOf('@');
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return at > 0 && !domain.includes('@') && dot > 0 && dot < domain.length - 1 && !/\s/.test(email);
};

/**
 * The system path for console mail: straight to SES from DEFAULT_SENDER, not through a project's
 * Email Logs, where any API key with email access could read the link and sign in as the member.
 */
async function mailLink(to: string, accountName: string, link: string) {
  const minutes = LINK_SECONDS / 60;
  await sendViaSes({
    from: env.defaultSender,
    to,
    cc: [],
    bcc: [],
    subject: `Sign in to the ${accountName} console`,
    text: `Open this link to sign in to the console of ${accountName}:\n\n${link}\n\nIt works once, for ${minutes} minutes. If you did not ask for it, ignore this mail.`,
    html: `<p>Open this link to sign in to the console of ${escapeText(accountName)}:</p><p><a href="${escapeText(link)}">${escapeText(link)}</a></p><p>It works once, for ${minutes} minutes. If you did not ask for it, ignore this mail.</p>`,
    headers: {},
    tags: { kind: 'console_sign_in' },
  });
}

/**
 * POST /console/sign-in. Answers the same, after the same work, whether or not the address is a
 * member (no account enumeration by answer or by timing): it counts the request and queues it; the
 * emails consumer looks the address up and mails the links (`mailSignInLinks`). `limited` when the
 * address or the IP asked too often this minute.
 */
export async function requestSignIn(rawEmail: string, sourceIp: string): Promise<'sent' | 'invalid' | 'limited'> {
  const email = rawEmail.trim().toLowerCase();
  if (email.length > 254 || !looksLikeAddress(email)) return 'invalid';
  const [byAddress, byIp] = await Promise.all([
    countRequest(`console-sign-in:${sha256(email)}`, SIGN_IN_LIMITS.perAddress),
    countRequest(`console-sign-in-ip:${sourceIp}`, SIGN_IN_LIMITS.perIp),
  ]);
  if (byAddress.exceeded || byIp.exceeded) return 'limited';
  await putOutbox([outboxRecord(emailsQueue, { kind: 'console-sign-in', email })]);
  return 'sent';
}

/** The emails consumer's half of a sign-in request: one link per membership of the address, none for a stranger. */
export async function mailSignInLinks({ email }: SignInRequest) {
  const { data: memberships } = await Member.query.byEmail({ email }).go({ pages: 'all' });
  for (const m of memberships) {
    const token = randomToken();
    await ConsoleSignIn.create({
      tokenHash: sha256(token),
      accountId: m.accountId,
      memberId: m.memberId,
      expiresAt: ttlIn(LINK_SECONDS),
    }).go();
    const { account } = await loadTenant(m.accountId);
    await mailLink(email, account?.name ?? 'your account', `${env.publicBaseUrl}/console/sign-in/${token}`);
  }
}

/** Is this link still usable (for the confirm page; does not use it up)? */
export async function signInLinkValid(token: string) {
  const { data } = await ConsoleSignIn.get({ tokenHash: sha256(token) }).go();
  return !!data && !isExpired(data.expiresAt);
}

/**
 * POST /console/sign-in/{token}: uses the link up (a conditional delete, so two clicks cannot both
 * succeed) and starts a session; undefined when the link is unknown, used, expired or its member gone.
 */
export async function completeSignIn(token: string): Promise<string | undefined> {
  const { data } = await ConsoleSignIn.delete({ tokenHash: sha256(token) }).go({ response: 'all_old' });
  if (!data || isExpired(data.expiresAt)) return undefined;
  if (!(await getMember(data.accountId, data.memberId))) return undefined;
  return startSession(data.accountId, data.memberId);
}
