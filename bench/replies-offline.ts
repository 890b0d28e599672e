import { extractReply } from '@helpdesk/core/areas/conversations/reply/extract';
import PostalMime from 'postal-mime';
import type { ReplyCase } from './replies-cases.js';

/** The extraction in process: what the inbound consumer would store, without the mail round trip. */
export async function offlineReplies(cases: ReplyCase[]): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  for (const c of cases) {
    let input: { text?: string; html?: string } = { text: c.text, html: c.html };
    if (c.raw !== undefined) {
      const mail = await PostalMime.parse(c.raw);
      input = { text: mail.text, html: mail.html };
    }
    stored.set(c.id, (await extractReply(input)).body);
  }
  return stored;
}
