import { readMail } from '@helpdesk/core/areas/conversations/read-mail';
import { extractReply } from '@helpdesk/core/areas/conversations/reply/extract';
import type { ReplyCase } from './replies-cases.js';

/** The extraction in process: what the inbound consumer would store, without the mail round trip. */
export async function offlineReplies(cases: ReplyCase[]): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  for (const c of cases)
    stored.set(
      c.id,
      c.raw !== undefined
        ? (await readMail(Buffer.from(c.raw))).body
        : (await extractReply({ text: c.text, html: c.html })).body,
    );
  return stored;
}
