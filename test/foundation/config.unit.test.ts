import { emailsQueue } from '@helpdesk/core/areas/emails/queue';
import { assertDeployedConfig, config, env, reloadConfig } from '@helpdesk/core/kernel/config';
import { signingSecret } from '@helpdesk/core/kernel/secrets';
import { createGroupHandler } from '@helpdesk/core/top/pipeline/pipeline';
import { consumer } from '@helpdesk/core/top/queues/consumer';
import { afterEach, describe, expect, it } from 'vitest';

const saved = {
  STAGE: process.env.STAGE,
  SIGNING_SECRET: process.env.SIGNING_SECRET,
  TABLE_NAME: process.env.TABLE_NAME,
  WEBHOOK_RETRY_BASE_SECONDS: process.env.WEBHOOK_RETRY_BASE_SECONDS,
};
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
});

describe('configuration of a deployed stage', () => {
  it('refuses to start without its signing secret or table, naming what is missing', () => {
    process.env.STAGE = 'prod';
    delete process.env.SIGNING_SECRET;
    process.env.TABLE_NAME = 'helpdesk-prod';
    expect(() => assertDeployedConfig()).toThrow(/Stage prod cannot start: SIGNING_SECRET_ARN is not set/);
    expect(() => createGroupHandler({}, {})).toThrow(/SIGNING_SECRET_ARN/);
    expect(() => consumer(emailsQueue, { each: () => Promise.resolve() })).toThrow(/SIGNING_SECRET_ARN/);
    delete process.env.TABLE_NAME;
    expect(() => assertDeployedConfig()).toThrow(/TABLE_NAME, SIGNING_SECRET_ARN are not set/);
    process.env.TABLE_NAME = 'helpdesk-prod';
    process.env.SIGNING_SECRET_ARN =
      'arn:aws:secretsmanager:us-east-1:111111111111:secret:helpdesk/prod/signing-secret';
    expect(() => assertDeployedConfig()).not.toThrow();
    // Never a silent development secret outside the local stack: nothing signs before the secret is read.
    expect(() => signingSecret()).toThrow(/not been read/);
    delete process.env.SIGNING_SECRET_ARN;
    process.env.SIGNING_SECRET = 'a-real-secret-of-some-length';
    expect(() => assertDeployedConfig()).not.toThrow();
    expect(signingSecret()).toBe('a-real-secret-of-some-length');
  });

  it('lets the local stack run on its development defaults', () => {
    delete process.env.STAGE;
    delete process.env.SIGNING_SECRET;
    expect(() => assertDeployedConfig()).not.toThrow();
    expect(signingSecret()).toBe('local-development-signing-secret');
  });
});

describe('configuration parsing', () => {
  it('parses once: a later change of the environment is seen only after reloadConfig()', () => {
    delete process.env.STAGE;
    process.env.TABLE_NAME = 'first-table';
    reloadConfig();
    expect(env.tableName).toBe('first-table');
    process.env.TABLE_NAME = 'second-table';
    expect(config().tableName).toBe('first-table');
    reloadConfig();
    expect(env.tableName).toBe('second-table');
  });

  it('names a setting of the wrong form, never its value', () => {
    delete process.env.STAGE;
    process.env.WEBHOOK_RETRY_BASE_SECONDS = 'soon-ish';
    expect(() => assertDeployedConfig()).toThrow(/Configuration is invalid: WEBHOOK_RETRY_BASE_SECONDS/);
    expect(() => assertDeployedConfig()).not.toThrow(/soon-ish/);
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '0.5';
    process.env.STAGE = 'staging';
    expect(() => assertDeployedConfig()).toThrow(/STAGE/);
    process.env.STAGE = 'local';
    assertDeployedConfig();
    expect(env.webhookRetryBaseSeconds).toBe(0.5);
  });
});
