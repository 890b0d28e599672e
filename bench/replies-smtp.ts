import { createAccount, createProject, setAccountLimits } from '@helpdesk/core/identity/accounts';
import { createApiKey } from '@helpdesk/core/identity/keys';
import { env } from '@helpdesk/core/kernel/config';
import { inboundAddress } from '@helpdesk/core/kernel/mail/reply-address';
import { startApp } from '../packages/local/src/app.js';
import { startEmulators } from '../packages/local/src/emulators.js';
import { handlerEnvironment, provision } from '../packages/local/src/provision.js';
import type { ReplyCase } from './replies-cases.js';
import { sendSmtp } from './smtp-client.js';
import { progress } from './stack.js';

const CONCURRENCY = 8;

/** The case's mail as a client sends it: from its own sender, to the project's inbound address. */
function mailOf(c: ReplyCase, index: number, from: string, to: string): string {
  const headers = [
    `From: Case ${index} <${from}>`,
    `To: ${to}`,
    `Subject: Re: case ${index}`,
    `Message-ID: <case-${index}.${Date.now()}@bench.example>`,
    'Date: Thu, 26 Nov 2026 10:00:00 +0000',
    // The local SMTP stand-in's stand-in for SES's SPF/DKIM/DMARC verdicts.
    'X-Local-Authentication: pass',
  ];
  if (c.raw !== undefined) {
    // The corpus's own MIME structure and encodings; its addressing headers give way to the bench's.
    const raw = c.raw.replace(/\r?\n/g, '\r\n');
    const end = raw.indexOf('\r\n\r\n');
    const kept = raw
      .slice(0, end)
      .split(/\r\n(?![ \t])/)
      .filter((h) => !/^(from|to|cc|subject|message-id|date|received|dkim-signature|return-path):/i.test(h));
    return [...headers, ...kept].join('\r\n') + raw.slice(end);
  }
  const html = c.text === undefined;
  const body = Buffer.from(c.text ?? c.html ?? '', 'utf8').toString('base64');
  return [
    ...headers,
    'MIME-Version: 1.0',
    `Content-Type: text/${html ? 'html' : 'plain'}; charset=utf-8`,
    'Content-Transfer-Encoding: base64',
    '',
    (body.match(/.{1,76}/g) ?? []).join('\r\n'),
  ].join('\r\n');
}

/**
 * Every case through the deployed path: SMTP stand-in, the inbound consumer, the ticket. Answers the
 * first message of each case's ticket (found by its sender's address) by case id.
 */
export async function smtpReplies(cases: ReplyCase[]): Promise<Map<string, string>> {
  const emulators = await startEmulators();
  const resources = await provision(emulators.endpoints, {
    tableName: 'replies',
    queuePrefix: 'replies',
    bucket: 'replies',
  });
  Object.assign(process.env, handlerEnvironment(emulators.endpoints, resources), { LOG_LEVEL: 'CRITICAL' });
  const app = await startApp({ endpoints: emulators.endpoints, resources, port: 0 });
  try {
    const account = await createAccount({ name: 'Replies bench', plan: 'pro' });
    await setAccountLimits(account.accountId, { tickets: 1_000_000 });
    const project = await createProject({ accountId: account.accountId, slug: 'replies', name: 'Replies' });
    const { key } = await createApiKey({ accountId: account.accountId, env: 'live', rateLimit: 100_000 });
    const to = inboundAddress({ id: project.projectId, slug: 'replies' }, 'live', env.mailDomain);
    const sender = (i: number) => `case-${i}@bench.example`;

    progress(`sending ${cases.length} mails over SMTP to ${to}`);
    let next = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < cases.length; i = next++) {
          const ok = await sendSmtp(app.smtp, { from: sender(i), to }, mailOf(cases[i] as ReplyCase, i, sender(i), to));
          if (!ok) refused++;
        }
      }),
    );
    progress(`sent (${refused} refused); waiting for the inbound consumer`);
    await app.drain(600_000);

    const api = async (path: string) =>
      (await fetch(`${app.apiUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<any>;
    const byEmail = new Map<string, string>();
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await api(`/tickets?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      for (const t of page.tickets) byEmail.set(t.customerEmail, t.id);
      cursor = page.nextCursor ?? undefined;
    }
    const stored = new Map<string, string>();
    next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < cases.length; i = next++) {
          const ticketId = byEmail.get(sender(i));
          if (!ticketId) continue;
          const detail = await api(`/tickets/${ticketId}`);
          stored.set((cases[i] as ReplyCase).id, detail.messages?.[0]?.body ?? '');
        }
      }),
    );
    progress(`${stored.size} of ${cases.length} mails became tickets`);
    return stored;
  } finally {
    await app.stop();
    await emulators.stop();
  }
}
