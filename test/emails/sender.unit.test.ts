import { GetEmailIdentityCommand, NotFoundException, SESv2Client } from '@aws-sdk/client-sesv2';
import { checkProjectSender } from '@helpdesk/core/areas/emails/sender';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setEnv } from '../support/env.js';

// SES identities have no local stand-in (aws-ses-v2-local accepts any sender): the SES v2 client is mocked here only.
// The admin CLI's project:create runs this check (test/foundation/cli.test.ts covers that wiring on the local stack).
const ses = mockClient(SESv2Client);
const VERIFIED: Record<string, boolean> = { 'acme.example': true, 'pending.example': false, 'ops@solo.example': true };

beforeEach(() => {
  ses.reset();
  ses.on(GetEmailIdentityCommand).callsFake(({ EmailIdentity }: { EmailIdentity: string }) => {
    if (!(EmailIdentity in VERIFIED))
      throw new NotFoundException({ message: 'Email identity does not exist.', $metadata: {} });
    return {
      IdentityType: EmailIdentity.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN',
      VerifiedForSendingStatus: VERIFIED[EmailIdentity],
    };
  });
});
const saved = {
  STAGE: process.env.STAGE,
  SIGNING_SECRET: process.env.SIGNING_SECRET,
  TABLE_NAME: process.env.TABLE_NAME,
};
afterEach(() => setEnv(saved));

const identitiesAsked = () => ses.commandCalls(GetEmailIdentityCommand).map((c) => c.args[0].input.EmailIdentity);

describe("a project's own sender", () => {
  it('in a deployed stage must be on an identity verified for sending: its address, its domain or a parent domain', async () => {
    // A deployed stage starts only with its table and secret.
    setEnv({ STAGE: 'prod', SIGNING_SECRET: 'a-deployed-secret', TABLE_NAME: 'helpdesk-prod' });
    await expect(checkProjectSender(' "Acme, Inc." <hello@mail.acme.example> ')).resolves.toBe(
      '"Acme, Inc." <hello@mail.acme.example>',
    );
    expect(identitiesAsked()).toEqual(['hello@mail.acme.example', 'mail.acme.example', 'acme.example']);
    await expect(checkProjectSender('Ops <ops@solo.example>')).resolves.toBe('Ops <ops@solo.example>');

    await expect(checkProjectSender('Other <x@other.example>')).rejects.toThrow(
      /neither x@other\.example nor the domain other\.example is an SES identity verified for sending in us-east-1\. Verify the domain in SES/,
    );
    await expect(checkProjectSender('p@pending.example')).rejects.toThrow(
      /the domain pending\.example is an SES identity/,
    );
    ses.resetHistory();
    await expect(checkProjectSender('a@acme.example, b@acme.example')).rejects.toThrow(/Expected one address/);
    expect(identitiesAsked()).toEqual([]);
  });

  it('is only checked for its form on the local stack, whose SES stand-in has no identities', async () => {
    setEnv({ STAGE: 'local' });
    await expect(checkProjectSender('Zoë <hello@unverified.example>')).resolves.toBe('Zoë <hello@unverified.example>');
    await expect(checkProjectSender('Zoë <hello@')).rejects.toThrow(/^Sender "Zoë <hello@": Expected an email address/);
    expect(identitiesAsked()).toEqual([]);
  });
});
