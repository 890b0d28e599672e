import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { acceptedSecrets, signingSecret } from '../../kernel/secrets.js';

/** A new signing secret: shown once, in the response that creates or rotates it. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const VERSION = 'v1';
const keys = new Map<string, Buffer>();

/** AES-256 key derived from a signing secret of the stage (Secrets Manager in AWS). */
const sealingKey = (from: string) => {
  let key = keys.get(from);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', from, 'helpdesk', 'webhook-signing-secret/v1', 32));
    keys.set(from, key);
  }
  return key;
};

/** AES-256-GCM with the endpoint id as associated data: a sealed secret copied onto another endpoint does not open. */
export function sealSecret(secret: string, webhookId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(signingSecret()), iv);
  cipher.setAAD(Buffer.from(webhookId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
}

/** The secret sealed under one signing secret; throws when it was sealed under another (or altered). */
function openWith(from: string, sealed: string, webhookId: string): string {
  const [version, payload] = sealed.split('.');
  if (version !== VERSION || !payload) throw new Error('Unknown sealed secret format');
  const raw = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(from), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(webhookId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** Opens a sealed secret with the current signing secret, or a previous one during a rotation's overlap. */
export function openSecret(sealed: string, webhookId: string): string {
  for (const from of acceptedSecrets()) {
    try {
      return openWith(from, sealed, webhookId);
    } catch {
      // Sealed under another of the accepted secrets (or not ours): try the next.
    }
  }
  throw new Error('The sealed secret opens with no accepted signing secret');
}

/** Whether a sealed secret was sealed under the current signing secret (else `secret:rotate` seals it again). */
export function sealedWithCurrent(sealed: string, webhookId: string): boolean {
  try {
    openWith(signingSecret(), sealed, webhookId);
    return true;
  } catch {
    return false;
  }
}
