import { GetEmailIdentityCommand, NotFoundException, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount, createProject, loadTenant } from '@helpdesk/core/auth/accounts';

// SES identities have no local stand-in (aws-ses-v2-local accepts any sender): the SES v2 client is mocked here only.
const ses = mockClient(SESv2Client);
const VERIFIED: Record<string, boolean> = { 'acme.example': true, 'pending.example': false };
const stage = process.env.STAGE;

beforeEach(() => {
  ses.reset();
  ses.on(GetEmailIdentityCommand).callsFake(({ EmailIdentity }: { EmailIdentity: string }) => {
    if (!(EmailIdentity in VERIFIED)) throw new NotFoundException({ message: 'Email identity does not exist.', $metadata: {} });
    return { IdentityType: 'DOMAIN', VerifiedForSendingStatus: VERIFIED[EmailIdentity] };
  });
});
afterEach(() => {
  process.env.STAGE = stage;
});

const identitiesAsked = () => ses.commandCalls(GetEmailIdentityCommand).map((c) => c.args[0].input.EmailIdentity);

describe("a project's own sender", () => {
  it('in a deployed stage must be on a domain (or parent domain) verified for sending in SES', async () => {
    process.env.STAGE = 'prod';
    const { accountId } = await createAccount({ name: 'Acme', plan: 'pro' });

    const ok = await createProject({ accountId, slug: 'web', name: 'Web', senderEmail: '"Acme, Inc." <hello@mail.acme.example>' });
    expect(ok.senderEmail).toBe('"Acme, Inc." <hello@mail.acme.example>');
    expect(identitiesAsked()).toEqual(['hello@mail.acme.example', 'mail.acme.example', 'acme.example']);

    await expect(createProject({ accountId, slug: 'other', name: 'Other', senderEmail: 'Other <x@other.example>' })).rejects.toThrow(
      /neither x@other\.example nor the domain other\.example is an SES identity verified for sending in us-east-1\. Verify the domain in SES/,
    );
    await expect(createProject({ accountId, slug: 'pending', name: 'Pending', senderEmail: 'p@pending.example' })).rejects.toThrow(/pending\.example/);
    await expect(createProject({ accountId, slug: 'bad', name: 'Bad', senderEmail: 'a@acme.example, b@acme.example' })).rejects.toThrow(/Expected one address/);
    expect((await loadTenant(accountId)).projects.map((p) => p.slug)).toEqual(['web']);
  });

  it('is only checked for its form on the local stack, whose SES stand-in has no identities', async () => {
    process.env.STAGE = 'local';
    const { accountId } = await createAccount({ name: 'Local', plan: 'pro' });
    const p = await createProject({ accountId, slug: 'web', name: 'Web', senderEmail: 'Zoë <hello@unverified.example>' });
    expect(p.senderEmail).toBe('Zoë <hello@unverified.example>');
    await expect(createProject({ accountId, slug: 'bad', name: 'Bad', senderEmail: 'Zoë <hello@' })).rejects.toThrow(/Sender/);
    expect(identitiesAsked()).toEqual([]);
  });
});
