import { normalizeMessageId } from '../../kernel/mail/threads.js';
import type { GivenFile } from '../tickets/files.js';
import type { OriginalMail } from '../tickets/present.js';
import { ATTACHMENTS_PER_MESSAGE, BODY_MAX, MAX_ATTACHMENT_BYTES, SUBJECT_MAX } from '../tickets/values.js';
import { asPlainText, holdsNoPart, unreadableType } from './broken-multipart.js';
import { fromC1, relabelledCharsets, utf8HeaderBlock } from './charset.js';
import { decodeFlowed, unflowedRaw } from './flowed.js';
import { extractReply } from './reply/extract.js';

/** What the service takes from a received mail. */
export interface ReadMail {
  /** The first From mailbox. */
  from?: { address: string; name?: string };
  /** How many From mailboxes the mail names, over all its From headers (RFC 5322 allows one header, several mailboxes). */
  fromCount: number;
  subject: string;
  messageId?: string;
  /** In-Reply-To, then References: the Message-IDs this mail answers, oldest first. */
  references: string[];
  /** Header values by lower-cased name (the first of each), for the automatic-mail rules. */
  headers: Map<string, string>;
  /** The signing domain (`d=`) of every DKIM-Signature header, lower-cased, in order. */
  dkimDomains: string[];
  /** The customer's new text only: quoted history and signature removed; HTML-only mail reduced to text. */
  body: string;
  /** The whole text and HTML, when the body is less than the whole text (reply/extract.ts). */
  original?: OriginalMail;
  /** Files kept as attachments, within the API's limits. */
  attachments: (GivenFile & { fileName: string })[];
}

const CONTROL = /[\u0000-\u001f\u007f]+/g;
/**
 * What a name (the sender's, a file's) may not hold, as the API refuses it: controls (C0, DEL, C1), line
 * separators and bidi controls, which can make `invoice\u202Efdp.exe` read as `invoiceexe.pdf`.
 */
const NOT_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;
/** Controls a body may not hold, as the API's `noControls`: all but tab, CR and LF. */
const NOT_IN_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]+/g;
/**
 * The sender's display name as the API would take it: one line, at most 200 characters, or none. A name
 * that holds an address (`"jose@gmail.test" <mallory@evil.test>`) is none: staff would read it as the sender.
 */
const nameOf = (name: string | undefined) => {
  const line = name?.replace(NOT_IN_NAME, ' ').trim().slice(0, 200);
  return line && !/[^\s@]@[^\s@]/.test(line) ? line : undefined;
};
const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/**
 * How many `@` a header value holds outside quoted strings and comments: one per address it names, however
 * it is spelled (a quoted display name such as `"jose@x" <m@y>` holds one). Linear, no regular expression.
 */
function addressSigns(value: string): number {
  let count = 0;
  let quoted = false;
  let comment = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\') i++;
    else if (quoted) quoted = c !== '"';
    else if (c === '(') comment++;
    else if (c === ')' && comment > 0) comment--;
    else if (comment === 0 && c === '"') quoted = true;
    else if (comment === 0 && c === '@') count++;
  }
  return count;
}

/** The `d=` tag of a DKIM-Signature (RFC 6376 tag list: `tag=value;` with folding white space). */
function dkimDomain(signature: string): string {
  for (const tag of signature.split(';')) {
    const eq = tag.indexOf('=');
    if (eq > 0 && tag.slice(0, eq).trim().toLowerCase() === 'd')
      return tag
        .slice(eq + 1)
        .replace(/\s/g, '')
        .toLowerCase();
  }
  return '';
}

/** Parses raw RFC 5322 mail with postal-mime (loaded on the first mail). */
export async function readMail(sent: Buffer): Promise<ReadMail> {
  const { addressParser } = await import('postal-mime');
  const raw = utf8HeaderBlock(sent) ?? sent;
  const first = await parseMail(raw);
  const relabelled = relabelledCharsets(raw, `${first.text ?? ''}${first.html ?? ''}`);
  const mail = relabelled ? await parseMail(relabelled) : first;
  if (mail.text !== undefined) mail.text = fromC1(mail.text);
  if (mail.html !== undefined) mail.html = fromC1(mail.html);
  if (mail.subject !== undefined) mail.subject = fromC1(mail.subject);
  for (const part of mail.attachments) if (part.filename) part.filename = fromC1(part.filename);
  const headers = new Map<string, string>();
  for (const h of mail.headers) if (!headers.has(h.key)) headers.set(h.key, h.value);
  const dkimDomains = mail.headers.filter((h) => h.key === 'dkim-signature').map((h) => dkimDomain(h.value));
  const name = nameOf(mail.from?.name && fromC1(mail.from.name));
  const from =
    mail.from && 'address' in mail.from && mail.from.address
      ? { address: mail.from.address.toLowerCase(), ...(name ? { name } : {}) }
      : undefined;
  const fromHeaders = mail.headers.filter((h) => h.key === 'from');
  const fromCount = Math.max(
    fromHeaders.flatMap((h) => addressParser(h.value)).flatMap((a) => ('group' in a && a.group ? a.group : [a])).length,
    // A parser reads `Jose <jose@x> <mallory@y>` or `a@x b@y` as one mailbox; DMARC may have judged the other.
    fromHeaders.reduce((n, h) => n + addressSigns(h.value), 0),
  );
  const ids = (value: string | undefined) =>
    (value?.match(/<[^<>\s]+>/g) ?? [])
      .map((id) => normalizeMessageId(id))
      .filter((id): id is string => id !== undefined);
  const { kept, notes } = keptAttachments(mail.attachments);
  const extracted = await extractReply({ text: mail.text, html: mail.html });
  // Control characters (a NUL, a terminal escape), in the text or the HTML's, are no text: dropped, as the API refuses them.
  const reply = {
    body: extracted.body.replace(NOT_IN_BODY, ''),
    original: extracted.original.replace(NOT_IN_BODY, ''),
  };
  const body = [reply.body || (kept.length ? '(attachments only)' : '(no text)'), ...notes].join('\n\n');
  // Shortened by extraction, or cut at the body's limit: the whole text stays reachable either way.
  const shortened = reply.body !== reply.original.trim() || body.length > BODY_MAX;
  return {
    from,
    fromCount,
    subject: (mail.subject ?? '').replace(CONTROL, ' ').trim().slice(0, SUBJECT_MAX) || '(no subject)',
    messageId: mail.messageId,
    references: [...new Set([...ids(mail.references), ...ids(mail.inReplyTo)])],
    headers,
    dkimDomains,
    body: body.slice(0, BODY_MAX),
    ...(shortened ? { original: { text: reply.original, ...(mail.html ? { html: mail.html } : {}) } } : {}),
    attachments: kept,
  };
}

/**
 * postal-mime's reading of a raw mail, with a flowed text part unfolded by its quote depths (flowed.ts) and
 * a top-level multipart that holds no part, or a type nobody can read, read as plain text.
 */
async function parseMail(raw: Buffer) {
  const { default: PostalMime } = await import('postal-mime');
  const unflowed = unflowedRaw(raw);
  const parsed = await PostalMime.parse(unflowed?.raw ?? raw, { attachmentEncoding: 'base64' });
  if (unflowed && parsed.text !== undefined) parsed.text = decodeFlowed(parsed.text, unflowed.delSp);
  const topType = parsed.headers.find((h) => h.key === 'content-type')?.value;
  const partless =
    parsed.text === undefined &&
    parsed.html === undefined &&
    !parsed.attachments.length &&
    holdsNoPart(raw, topType ?? '');
  return partless || unreadableType(topType)
    ? await PostalMime.parse(asPlainText(raw), { attachmentEncoding: 'base64' })
    : parsed;
}

type Part = Awaited<ReturnType<typeof import('postal-mime').default.parse>>['attachments'][number];

/**
 * Attachments as the API stores them: at most ATTACHMENTS_PER_MESSAGE files and MAX_ATTACHMENT_BYTES
 * per message. Inline images of an HTML body (a logo in a signature) are not files the customer sent.
 * What does not fit is named in the message instead.
 */
function keptAttachments(parts: Part[]) {
  const kept: ReadMail['attachments'] = [];
  const notes: string[] = [];
  let bytes = 0;
  for (const part of parts) {
    if (part.disposition === 'inline' && part.contentId && !part.filename) continue;
    const fileName =
      (part.filename ?? 'attachment').replace(/[\\/]/g, '_').replace(NOT_IN_NAME, '').trim().slice(0, 200) ||
      'attachment';
    const content =
      typeof part.content === 'string' ? part.content : Buffer.from(part.content as ArrayBuffer).toString('base64');
    const size = Buffer.byteLength(content, 'base64');
    if (kept.length >= ATTACHMENTS_PER_MESSAGE || bytes + size > MAX_ATTACHMENT_BYTES) {
      notes.push(
        `[Attachment not kept, over the limit of ${ATTACHMENTS_PER_MESSAGE} files and ${MAX_ATTACHMENT_BYTES} bytes per message: ${fileName}]`,
      );
      continue;
    }
    bytes += size;
    kept.push({
      fileName,
      mimeType: MIME_TYPE.test(part.mimeType) ? part.mimeType : 'application/octet-stream',
      content,
    });
  }
  return { kept, notes };
}
