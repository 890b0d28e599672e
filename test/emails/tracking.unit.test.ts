import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { sendViaSes } from '@helpdesk/core/kernel/ports/email-sender';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setEnv } from '../support/env.js';

// The configuration set decides whether SES tracks opens and clicks: the SES client is mocked to read what a send asks for.
const ses = mockClient(SESv2Client);
beforeEach(() => {
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
});
const saved = {
  SES_CONFIGURATION_SET: process.env.SES_CONFIGURATION_SET,
  SES_ENDPOINT: process.env.SES_ENDPOINT,
};
afterEach(() => setEnv(saved));

const mail = {
  from: 'a@example.com',
  to: 'b@example.com',
  cc: [],
  bcc: [],
  subject: 'Hi',
  html: '<p>Hi</p>',
  text: 'Hi',
  headers: {},
  tags: { emailId: 'e-1' },
};
const setOf = () => ses.commandCalls(SendEmailCommand).map((c) => c.args[0].input.ConfigurationSetName);

describe('open and click tracking per send', () => {
  it("picks the stage's configuration set for the tracking asked, the plain one by default", async () => {
    setEnv({ SES_CONFIGURATION_SET: 'helpdesk-prod', SES_ENDPOINT: undefined });
    await sendViaSes(mail);
    await sendViaSes({ ...mail, tracking: ['opens'] });
    await sendViaSes({ ...mail, tracking: ['clicks'] });
    await sendViaSes({ ...mail, tracking: ['opens', 'clicks'] });
    expect(setOf()).toEqual([
      'helpdesk-prod',
      'helpdesk-prod-opens',
      'helpdesk-prod-clicks',
      'helpdesk-prod-opens-clicks',
    ]);
  });
});
