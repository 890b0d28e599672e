import type { ReadMail } from './read-mail.js';

const BULK = new Set(['bulk', 'junk', 'list']);
const MAILER_DAEMON = /^(mailer-daemon|postmaster)@/i;

/**
 * Why a mail was written by a machine (RFC 3834 auto-replies, bulk and list mail, delivery status
 * notifications): such mail never becomes a message and is never answered, so two systems that both
 * answer mail cannot loop. Undefined for a mail a person wrote.
 */
export function automaticReason(mail: ReadMail): string | undefined {
  const header = (name: string) => mail.headers.get(name)?.trim().toLowerCase();
  const autoSubmitted = header('auto-submitted');
  if (autoSubmitted && autoSubmitted !== 'no') return `Auto-Submitted: ${autoSubmitted}`;
  const precedence = header('precedence');
  if (precedence && BULK.has(precedence)) return `Precedence: ${precedence}`;
  if (mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond')) return 'X-Autoreply';
  if (/^multipart\/report\b.*report-type="?delivery-status/.test(header('content-type') ?? ''))
    return 'delivery status notification';
  if (mail.from && MAILER_DAEMON.test(mail.from.address)) return 'delivery status notification (mailer-daemon)';
  return undefined;
}
