import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { TestApp } from '../support/app.js';

export interface StoredMail {
  messageId: string;
  from: string;
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
}

/** A recipient no other test (or test file) uses: the SES stand-in's store is shared. */
export const uniqueAddress = (prefix = 'to') => `${prefix}-${randomBytes(5).toString('hex')}@example.com`;

/** Mails the SES stand-in received for an address (in any of to, cc, bcc). */
export async function mailsTo(address: string): Promise<StoredMail[]> {
  const res = await fetch(`${inject('endpoints').ses}/store`);
  const { emails } = (await res.json()) as { emails: StoredMail[] };
  const a = address.toLowerCase();
  return emails.filter((m) =>
    [...(m.destination.to ?? []), ...(m.destination.cc ?? []), ...(m.destination.bcc ?? [])].some((d) =>
      d.toLowerCase().includes(a),
    ),
  );
}

/** Imports a project template through the API, as a customer would. */
export async function importTemplate(
  app: TestApp,
  key: string,
  source: string,
  options: { apiKey: string; headers?: Record<string, string> },
) {
  const form = new FormData();
  form.set('file', new Blob([source], { type: 'text/plain' }), `${key}.hbs`);
  const res = await app.call('POST', '/email-templates/import', {
    key: options.apiKey,
    rawBody: form,
    headers: options.headers,
  });
  if (res.status !== 200) throw new Error(`Template import failed: ${res.status} ${res.text}`);
  return res.body;
}
