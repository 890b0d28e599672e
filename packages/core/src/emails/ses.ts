import { env, localCredentials } from '../config.js';

// The SES client loads on the first send (sandbox deliveries never send).
let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-sesv2'); ses: import('@aws-sdk/client-sesv2').SESv2Client }> | undefined;
const client = () =>
  (loaded ??= import('@aws-sdk/client-sesv2').then((sdk) => {
    const endpoint = env.endpoint('ses');
    return { sdk, ses: new sdk.SESv2Client({ region: env.region, ...(endpoint ? { endpoint, credentials: localCredentials('other') } : {}) }) };
  }));

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
}

/** SES refusals that another attempt would not change. */
const PERMANENT = new Set(['MessageRejected', 'MailFromDomainNotVerifiedException', 'BadRequestException', 'NotFoundException']);
export const isPermanentSesError = (err: unknown) => PERMANENT.has((err as { name?: string }).name ?? '');

/** Sends one message through SES v2; returns SES's message id. */
export async function sendViaSes(mail: OutgoingMail): Promise<string> {
  const charset = 'UTF-8';
  const { sdk, ses } = await client();
  const out = await ses.send(
    new sdk.SendEmailCommand({
      FromEmailAddress: mail.from,
      Destination: { ToAddresses: [mail.to], CcAddresses: mail.cc, BccAddresses: mail.bcc },
      ReplyToAddresses: mail.replyTo ? [mail.replyTo] : undefined,
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: charset },
          Body: { Html: { Data: mail.html, Charset: charset }, Text: { Data: mail.text, Charset: charset } },
          Headers: Object.entries(mail.headers).map(([Name, Value]) => ({ Name, Value })),
        },
      },
      EmailTags: Object.entries(mail.tags).map(([Name, Value]) => ({ Name, Value })),
      ConfigurationSetName: env.sesConfigurationSet,
    }),
  );
  return out.MessageId ?? '';
}
