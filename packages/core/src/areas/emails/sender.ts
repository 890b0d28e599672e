import { env } from '../../kernel/config.js';
import { parseMailbox } from '../../kernel/mail/mailbox.js';
import { isVerifiedIdentity, sesRegion } from '../../kernel/ports/email-sender.js';

/**
 * The identities SES would send `address` from: the address itself, its domain and each parent
 * domain (a verified domain covers its subdomains), most specific first.
 */
function identitiesFor(address: string): string[] {
  const labels = address.slice(address.lastIndexOf('@') + 1).split('.');
  return [address, ...labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'))];
}

/**
 * Checks a project's own sender (`Name <address>` or an address) when it is set: one mailbox, and in
 * a deployed stage on an SES identity verified for sending (SES v2 GetEmailIdentity), since SES
 * refuses any other `From` and every mail of the project would end `failed`. The local stack's SES
 * stand-in has no identities, so STAGE=local only checks the form. Answers the sender as given.
 */
export async function checkProjectSender(sender: string): Promise<string> {
  const parsed = parseMailbox(sender);
  if ('problem' in parsed) throw new Error(`Sender "${sender}": ${parsed.problem}.`);
  if (env.stage === 'local') return sender.trim();
  for (const identity of identitiesFor(parsed.address)) {
    if (await isVerifiedIdentity(identity)) return sender.trim();
  }
  const domain = parsed.address.slice(parsed.address.lastIndexOf('@') + 1);
  throw new Error(
    `Sender "${sender}": neither ${parsed.address} nor the domain ${domain} is an SES identity verified for sending in ${await sesRegion()}. ` +
      'Verify the domain in SES (DNS records for DKIM) first; see the README, Deploy.',
  );
}
