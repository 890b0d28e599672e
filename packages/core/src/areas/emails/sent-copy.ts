import { logger } from '../../kernel/logger.js';
import { getObjectText, putObject } from '../../kernel/ports/blob-store.js';

/** A live send's row, as the bucket key of its rendered copy names it. */
type Key = { projectId: string; env: 'live' | 'sandbox'; emailId: string };
export interface RenderedCopy {
  subject: string;
  html: string;
  text: string;
}

/** Sandbox captures live on the row (`captured`); a live send's rendered copy is an object beside the attachments. */
const copyKey = (key: Key) => `${key.projectId}/${key.env}/emails/${key.emailId}.json`;

/**
 * Keeps what SES was given, so the console can show sent mail as it shows sandbox captures. It runs
 * after the row says `sent`: a failure is logged, never thrown, since a retried delivery would send twice.
 */
export async function keepSentCopy(key: Key, rendered: RenderedCopy) {
  try {
    const copy: RenderedCopy = { subject: rendered.subject, html: rendered.html, text: rendered.text };
    await putObject(copyKey(key), JSON.stringify(copy), 'application/json');
  } catch (error) {
    logger.warn('Could not keep the sent copy of an email', { ...key, error: error as Error });
  }
}

/** The rendered copy of a live send, or undefined when none was kept (not sent yet, or sent before copies were kept). */
export async function readSentCopy(key: Key): Promise<RenderedCopy | undefined> {
  const text = await getObjectText(copyKey(key));
  return text === undefined ? undefined : (JSON.parse(text) as RenderedCopy);
}
