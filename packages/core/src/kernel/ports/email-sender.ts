import { awsClientConfig, env } from '../config.js';
import { lazyClient } from '../lazy-client.js';
import { headerMailbox } from '../mail/mailbox.js';
import { configurationSetFor, type Tracking } from '../mail/tracking.js';

// The SES client loads on the first send (sandbox deliveries never send).
const sesClient = lazyClient(
  () => import('@aws-sdk/client-sesv2'),
  (sdk) => new sdk.SESv2Client(awsClientConfig('ses')),
);

export interface OutgoingMail {
  from: string;
  to: string;
  cc: string[];
  bcc: string[];
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  /** Come back on the SES events (bounces, complaints), so they find their Email Logs row. */
  tags: Record<string, string>;
  /** Open and click tracking for this send (none by default): picks the stage's configuration set. */
  tracking?: readonly Tracking[];
}

/** SES refusals that another attempt would not change. */
const PERMANENT = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'BadRequestException',
  'NotFoundException',
]);
export const isPermanentSesError = (err: unknown) => PERMANENT.has((err as { name?: string }).name ?? '');

/**
 * The SES stand-in publishes no events. Against it (only), the tags also travel in SES's own
 * X-SES-MESSAGE-TAGS header, which the stand-in keeps, so the local stack can play SES's Send event
 * publishing from what the stand-in accepted (packages/local/src/ses-send-events.ts).
 */
const standInTags = (tags: Record<string, string>): Record<string, string> =>
  env.endpoint('ses')
    ? {
        'X-SES-MESSAGE-TAGS': Object.entries(tags)
          .map(([name, value]) => `${name}=${value}`)
          .join(', '),
      }
    : {};

/** Sends one message through SES v2; returns SES's message id. */
export async function sendViaSes(mail: OutgoingMail): Promise<string> {
  const charset = 'UTF-8';
  const { sdk, client: ses } = await sesClient();
  const out = await ses.send(
    new sdk.SendEmailCommand({
      // Display names as RFC 2047 encoded-words and domains in punycode: SES takes 7-bit ASCII only.
      FromEmailAddress: headerMailbox(mail.from),
      Destination: {
        ToAddresses: [headerMailbox(mail.to)],
        CcAddresses: mail.cc.map(headerMailbox),
        BccAddresses: mail.bcc.map(headerMailbox),
      },
      ReplyToAddresses: mail.replyTo ? [headerMailbox(mail.replyTo)] : undefined,
      Content: {
        Simple: {
          // A header: one line whatever a template's partials rendered since the send was accepted.
          Subject: { Data: mail.subject.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' '), Charset: charset },
          Body: { Html: { Data: mail.html, Charset: charset }, Text: { Data: mail.text, Charset: charset } },
          Headers: Object.entries({ ...mail.headers, ...standInTags(mail.tags) }).map(([Name, Value]) => ({
            Name,
            Value,
          })),
        },
      },
      EmailTags: Object.entries(mail.tags).map(([Name, Value]) => ({ Name, Value })),
      ConfigurationSetName: env.sesConfigurationSet && configurationSetFor(env.sesConfigurationSet, mail.tracking),
    }),
  );
  return out.MessageId ?? '';
}

/** Whether SES may send from this identity (a domain or an address): false when it is unknown or unverified. */
export async function isVerifiedIdentity(identity: string): Promise<boolean> {
  try {
    const { sdk, client: ses } = await sesClient();
    const out = await ses.send(new sdk.GetEmailIdentityCommand({ EmailIdentity: identity }));
    return out.VerifiedForSendingStatus === true;
  } catch (err) {
    if ((err as { name?: string }).name === 'NotFoundException') return false;
    throw err;
  }
}

/**
 * The Message-ID header SES gives a mail it accepted (it replaces any the caller sets): its message id
 * at `email.amazonses.com` in us-east-1, `<region>.amazonses.com` elsewhere.
 */
export async function sesMessageIdHeader(messageId: string) {
  const region = await sesRegion();
  return `<${messageId}@${region === 'us-east-1' ? 'email' : region}.amazonses.com>`;
}

/** The region SES answers from (identities are per region). */
export const sesRegion = async () => (await sesClient()).client.config.region();
