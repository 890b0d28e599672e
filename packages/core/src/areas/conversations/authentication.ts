import type { ReceivedMail } from './queue.js';
import type { ReadMail } from './read-mail.js';

export type Verdict = { verified: true; by: string } | { verified: false; why: string };

/** Relaxed alignment (RFC 7489 3.1): the same domain, or one a subdomain of the other. */
const aligned = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Whether the mail's From is vouched for by its authentication results, as SES (or the local stand-in)
 * reports them in the receipt: DMARC passing; or, for a domain without a DMARC policy, a passing DKIM
 * signature of the From domain (the only signature on the mail) or a passing SPF check of an envelope
 * sender in the From domain. A DMARC failure is never verified. Anyone can write any From; only a
 * verified sender may join an existing ticket as its customer (docs/decisions.md, Conversations).
 */
export function senderVerdict(
  receipt: ReceivedMail['receipt'],
  envelopeFrom: string | undefined,
  mail: ReadMail,
): Verdict {
  const dmarc = receipt.dmarcVerdict?.status?.toUpperCase();
  const spf = receipt.spfVerdict?.status?.toUpperCase();
  const dkim = receipt.dkimVerdict?.status?.toUpperCase();
  const from = mail.from ? domainOf(mail.from.address) : '';
  if (!from) return { verified: false, why: 'no sender' };
  // DMARC judges one author domain: with several From mailboxes a verdict may be about another one (RFC 7489 6.6.1).
  if (mail.fromCount !== 1) return { verified: false, why: 'several From mailboxes' };
  if (dmarc === 'FAIL') return { verified: false, why: 'DMARC failed' };
  if (dmarc === 'PASS') return { verified: true, by: 'DMARC' };
  const [onlySignature, ...more] = mail.dkimDomains;
  if (dkim === 'PASS' && onlySignature && more.length === 0 && aligned(onlySignature, from))
    return { verified: true, by: 'DKIM' };
  if (spf === 'PASS' && envelopeFrom?.includes('@') && aligned(domainOf(envelopeFrom), from))
    return { verified: true, by: 'SPF' };
  return {
    verified: false,
    why: `not authenticated (SPF ${spf ?? 'none'}, DKIM ${dkim ?? 'none'}, DMARC ${dmarc ?? 'none'})`,
  };
}
