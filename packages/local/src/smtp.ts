import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { inboundQueue } from '@helpdesk/core/areas/conversations/queue';
import { INBOUND_PREFIX, MAX_INBOUND_BYTES } from '@helpdesk/core/areas/conversations/values';
import { env } from '@helpdesk/core/kernel/config';
import { putObject } from '@helpdesk/core/kernel/ports/blob-store';
import { outboxRecord, putOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/**
 * The authentication results SES would report, decided by the sender (no DNS here to check SPF or
 * DKIM against): `X-Local-Authentication: pass` (or `fail`) in the mail's header marks it; without it
 * a mail is unauthenticated (GRAY), as SES reports mail from a domain without SPF, DKIM or DMARC
 * records. Only this stand-in reads the header; deployed, SES's own checks decide (README, Inbound mail).
 */
export const LOCAL_AUTH_HEADER = 'X-Local-Authentication';

/**
 * The verdicts a mail's header claims. The header ends at the first empty line, written CRLF or, as some
 * local tools send it (Python's `msg.as_bytes()` through smtplib), LF alone.
 */
export function localVerdicts(raw: Buffer) {
  const ends = [raw.indexOf('\r\n\r\n'), raw.indexOf('\n\n')].filter((i) => i >= 0);
  const head = raw.subarray(0, ends.length ? Math.min(...ends) : 0).toString('latin1');
  const line = head
    .split(/\r?\n(?![ \t])/)
    .find((l) => l.toLowerCase().startsWith(`${LOCAL_AUTH_HEADER.toLowerCase()}:`));
  const value = line
    ?.slice(LOCAL_AUTH_HEADER.length + 1)
    .trim()
    .toLowerCase();
  const status = value === 'pass' ? 'PASS' : value === 'fail' ? 'FAIL' : 'GRAY';
  return { spfVerdict: { status }, dkimVerdict: { status }, dmarcVerdict: { status } };
}

const smtpError = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

/**
 * The local stand-in for SES receiving: a real SMTP server on loopback that accepts mail for the
 * inbound domain, stores each raw message in the bucket and queues SES's receipt notification for it,
 * so the inbound consumer runs exactly as in AWS. Mail over MAX_INBOUND_BYTES is refused with 552.
 */
export async function startSmtpServer(host = '127.0.0.1') {
  const server = new SMTPServer({
    name: 'helpdesk-local',
    banner: 'Helpdesk local inbound mail (the SES receiving stand-in)',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_INBOUND_BYTES,
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const domain = address.address.slice(address.address.lastIndexOf('@') + 1).toLowerCase();
      if (domain !== env.inboundDomain)
        return callback(
          smtpError(550, `No mailbox here for ${address.address}: this server takes mail for ${env.inboundDomain}`),
        );
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded)
          return callback(smtpError(552, `Message exceeds the ${MAX_INBOUND_BYTES} bytes inbound mail may have`));
        const id = randomUUID();
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        const now = new Date().toISOString();
        const objectKey = `${INBOUND_PREFIX}${id}`;
        const raw = Buffer.concat(chunks);
        // Stored, then announced through the outbox: a mail answered 250 survives a restart of the stack,
        // as one SES accepted survives in S3 and SQS.
        putObject(objectKey, raw, 'message/rfc822')
          .then(() =>
            putOutbox([
              outboxRecord(inboundQueue, {
                notificationType: 'Received',
                mail: {
                  timestamp: now,
                  source: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  messageId: id,
                  destination: recipients,
                },
                receipt: {
                  timestamp: now,
                  recipients,
                  spamVerdict: { status: 'PASS' },
                  virusVerdict: { status: 'PASS' },
                  ...localVerdicts(raw),
                  action: { type: 'S3', bucketName: env.attachmentsBucket, objectKeyPrefix: INBOUND_PREFIX, objectKey },
                },
              }),
            ]),
          )
          .then(() => callback(null, `Queued as ${id}`))
          .catch((err: Error) => {
            console.error('[smtp] could not store a received message', err.message);
            callback(smtpError(451, 'Could not store the message; try again later'));
          });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A client that drops its connection mid-transaction is an 'error' of the server: without a
  // listener Node ends the process (the whole local stack). That transaction is simply lost, as on SES.
  server.on('error', (err: Error & { code?: string }) => {
    console.error('[smtp] connection error', err.code ?? err.message);
  });
  const { port } = server.server.address() as AddressInfo;
  return { host, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
