import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { openSecret, sealedWithCurrent, sealSecret } from '@helpdesk/core/areas/webhooks/secret';
import { signToken, verifyToken } from '@helpdesk/core/kernel/links/signed';
import { parseRecipient, replyAddress } from '@helpdesk/core/kernel/mail/reply-address';
import { acceptedSecrets, loadSigningSecret, parseSigningSecret, signingSecret } from '@helpdesk/core/kernel/secrets';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { setEnv } from '../support/env.js';

/** Rotation of the stage's signing secret: what was signed or sealed before keeps working through the overlap. */
const OLD = 'old-secret-0123456789abcdef';
const NEW = 'new-secret-0123456789abcdef';
const future = new Date(Date.now() + 86_400_000).toISOString();
const past = new Date(Date.now() - 1000).toISOString();
const project = { id: '6f1c1c1e-7f5b-4a8e-9f55-1d2c3b4a5e6f', slug: 'web' };

afterEach(() => setEnv({ SIGNING_SECRET: undefined, SIGNING_SECRET_ARN: undefined, STAGE: undefined }));

describe('the signing secret', () => {
  it('reads JSON with previous secrets, or a plain current secret, and never echoes a bad value', () => {
    expect(parseSigningSecret(NEW)).toEqual({ current: NEW, previous: [] });
    expect(parseSigningSecret(JSON.stringify({ current: NEW, previous: [{ secret: OLD, until: future }] }))).toEqual({
      current: NEW,
      previous: [{ secret: OLD, until: future }],
    });
    expect(() => parseSigningSecret('{"current": "short"}')).toThrow(/not \{ current/);
    expect(() => parseSigningSecret('{"current": "leak-me-please-1234"')).not.toThrow(/leak-me/);
  });

  it('verifies links, reply addresses and sealed webhook secrets made with the previous secret until its time', () => {
    setEnv({ SIGNING_SECRET: OLD });
    const token = signToken(['t', 'p', 'live', 'x']);
    const address = replyAddress(project, 'live', 42, 'in.example.com');
    const sealed = sealSecret('whsec_abc', 'endpoint-1');

    setEnv({ SIGNING_SECRET: JSON.stringify({ current: NEW, previous: [{ secret: OLD, until: future }] }) });
    expect(signingSecret()).toBe(NEW);
    expect(acceptedSecrets()).toEqual([NEW, OLD]);
    expect(verifyToken(token)).toEqual(['t', 'p', 'live', 'x']);
    expect(parseRecipient(address, 'in.example.com')).toMatchObject({ kind: 'ticket', ticketNumber: 42 });
    expect(openSecret(sealed, 'endpoint-1')).toBe('whsec_abc');
    expect(sealedWithCurrent(sealed, 'endpoint-1')).toBe(false);
    expect(sealedWithCurrent(sealSecret('whsec_abc', 'endpoint-1'), 'endpoint-1')).toBe(true);
    // New links are signed with the new secret only.
    expect(signToken(['t', 'p', 'live', 'x'])).not.toBe(token);

    setEnv({ SIGNING_SECRET: JSON.stringify({ current: NEW, previous: [{ secret: OLD, until: past }] }) });
    expect(verifyToken(token)).toBeUndefined();
    expect(parseRecipient(address, 'in.example.com')).toBeUndefined();
    expect(() => openSecret(sealed, 'endpoint-1')).toThrow(/no accepted signing secret/);
  });

  it('comes from Secrets Manager in a deployed stage, read once and kept', async () => {
    const sm = mockClient(SecretsManagerClient);
    sm.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ current: NEW }) });
    setEnv({ STAGE: 'prod', TABLE_NAME: 't', SIGNING_SECRET_ARN: 'helpdesk/prod/signing-secret' });
    try {
      expect(() => signingSecret()).toThrow(/not been read/);
      await loadSigningSecret();
      await loadSigningSecret();
      expect(signingSecret()).toBe(NEW);
      expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
      expect(sm.commandCalls(GetSecretValueCommand)[0]?.args[0].input).toEqual({
        SecretId: 'helpdesk/prod/signing-secret',
      });
    } finally {
      sm.restore();
      setEnv({ TABLE_NAME: undefined });
    }
  });
});
