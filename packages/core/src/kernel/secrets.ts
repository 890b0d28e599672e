import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { awsClientConfig, env } from './config.js';
import { lazyClient } from './lazy-client.js';

/**
 * The stage's signing secret: it signs every link the service mails (ticket pages, ratings), every
 * reply address, and seals webhook secrets. Deployed, it lives in Secrets Manager (SIGNING_SECRET_ARN,
 * read at cold start and again every few minutes); the local stack and tests give it in
 * SIGNING_SECRET. Its value is JSON, `{ current, previous: [{ secret, until }] }` (a plain string is a
 * current secret alone): signing uses `current`, verifying also accepts each previous secret until its
 * time, so mail sent before a rotation keeps working (README, Operations: rotating the signing secret).
 */
const SigningSecret = v.union([
  v.pipe(
    v.string(),
    v.minLength(16),
    v.transform((current) => ({ current, previous: [] as { secret: string; until: string }[] })),
  ),
  v.object({
    current: v.pipe(v.string(), v.minLength(16)),
    previous: v.optional(
      v.array(v.object({ secret: v.pipe(v.string(), v.minLength(16)), until: v.pipe(v.string(), v.isoTimestamp()) })),
      [],
    ),
  }),
]);
export type SigningSecretValue = v.InferOutput<typeof SigningSecret>;

/** The text as a signing secret (JSON or a plain current secret); throws without echoing it. */
export function parseSigningSecret(text: string): SigningSecretValue {
  let value: unknown = text;
  if (text.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error('The signing secret is not valid JSON');
    }
  }
  const parsed = v.safeParse(SigningSecret, value);
  if (!parsed.success) throw new Error('The signing secret is not { current, previous: [{ secret, until }] }');
  return parsed.output;
}

/** How long a deployed instance keeps the secret before reading it again (a rotation reaches every instance within it). */
export const SECRET_REFRESH_MS = 5 * 60_000;

export const secretsClient = lazyClient(
  () => import('@aws-sdk/client-secrets-manager'),
  // No stand-in: only deployed stages keep the secret in Secrets Manager.
  (sdk) => new sdk.SecretsManagerClient(awsClientConfig('secrets')),
);

let fetched: { value: SigningSecretValue; at: number } | undefined;
let loading: Promise<void> | undefined;

async function fetchSecret(secretId: string) {
  const { sdk, client } = await secretsClient();
  const out = await client.send(new sdk.GetSecretValueCommand({ SecretId: secretId }));
  if (!out.SecretString) throw new Error(`The signing secret ${secretId} has no value`);
  fetched = { value: parseSigningSecret(out.SecretString), at: Date.now() };
}

/**
 * Reads the secret from Secrets Manager when the stage keeps it there (at cold start: the handler
 * factories call this, and each invocation awaits it); again once SECRET_REFRESH_MS have passed.
 */
export function loadSigningSecret(now = Date.now()): Promise<void> {
  const secretId = env.signingSecretArn;
  if (!secretId) return Promise.resolve();
  if (fetched && now - fetched.at < SECRET_REFRESH_MS) return Promise.resolve();
  loading ??= fetchSecret(secretId).finally(() => {
    loading = undefined;
  });
  // A refresh that fails keeps the secret already read; only a first read must succeed.
  return fetched ? loading.catch(() => undefined) : loading;
}

const LOCAL_SECRET = 'local-development-signing-secret';
let parsedText: { text: string; value: SigningSecretValue } | undefined;

/** The secret now: from SIGNING_SECRET, else as read by loadSigningSecret, else (local stage only) a development value. */
function currentValue(): SigningSecretValue {
  const text = env.signingSecret;
  if (text !== undefined) {
    if (parsedText?.text !== text) parsedText = { text, value: parseSigningSecret(text) };
    return parsedText.value;
  }
  if (fetched) return fetched.value;
  if (env.stage === 'local') return { current: LOCAL_SECRET, previous: [] };
  throw new Error('The signing secret has not been read yet (loadSigningSecret)');
}

/** The secret that signs and seals now. */
export const signingSecret = () => currentValue().current;

/** Every secret a signature or seal may have been made with: the current one first, then unexpired previous ones. */
export function acceptedSecrets(now = Date.now()): string[] {
  const { current, previous } = currentValue();
  return [current, ...previous.filter((p) => Date.parse(p.until) > now).map((p) => p.secret)];
}

/**
 * Rotates the stage's secret in Secrets Manager: a new current secret; the old one joins the previous
 * ones until `overlapDays` from now (expired previous ones are dropped). This instance uses the new
 * value at once; others within SECRET_REFRESH_MS. Answers when the old secret stops being accepted.
 */
export async function rotateSigningSecret(overlapDays: number, now = Date.now()): Promise<{ previousUntil: string }> {
  const secretId = env.signingSecretArn;
  if (!secretId)
    throw new Error('This stage keeps no signing secret in Secrets Manager (SIGNING_SECRET_ARN is not set)');
  await fetchSecret(secretId);
  const old = currentValue();
  const until = new Date(now + overlapDays * 86_400_000).toISOString();
  const next: SigningSecretValue = {
    current: randomBytes(36).toString('base64url'),
    previous: [{ secret: old.current, until }, ...old.previous.filter((p) => Date.parse(p.until) > now)],
  };
  const { sdk, client } = await secretsClient();
  await client.send(new sdk.PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(next) }));
  fetched = { value: next, at: now };
  return { previousUntil: until };
}
