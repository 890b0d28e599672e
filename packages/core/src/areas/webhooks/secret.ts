import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { env } from '../../kernel/config.js';

/** A new signing secret: shown once, in the response that creates or rotates it. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const VERSION = 'v1';
let cached: { from: string; key: Buffer } | undefined;

/** AES-256 key derived from the stage's signing secret (Secrets Manager in AWS), so rotating that re-keys nothing else. */
const sealingKey = () => {
  const from = env.signingSecret;
  if (cached?.from !== from) {
    cached = { from, key: Buffer.from(hkdfSync('sha256', from, 'helpdesk', 'webhook-signing-secret/v1', 32)) };
  }
  return cached.key;
};

/** AES-256-GCM with the endpoint id as associated data: a sealed secret copied onto another endpoint does not open. */
export function sealSecret(secret: string, webhookId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(), iv);
  cipher.setAAD(Buffer.from(webhookId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
}

export function openSecret(sealed: string, webhookId: string): string {
  const [version, payload] = sealed.split('.');
  if (version !== VERSION || !payload) throw new Error('Unknown sealed secret format');
  const raw = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(webhookId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
