import { assertDeployedConfig, config, env, reloadConfig } from '@helpdesk/core/kernel/config';
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
    expect(() => assertDeployedConfig()).toThrow(/Stage prod cannot start: SIGNING_SECRET is not set/);
    expect(() => createGroupHandler({}, {})).toThrow(/SIGNING_SECRET/);
    expect(() => consumer('emails', { each: async () => {} })).toThrow(/SIGNING_SECRET/);
    // Never a silent development secret outside the local stack.
    expect(() => env.signingSecret).toThrow(/SIGNING_SECRET/);
    delete process.env.TABLE_NAME;
    expect(() => assertDeployedConfig()).toThrow(/TABLE_NAME, SIGNING_SECRET are not set/);
    process.env.TABLE_NAME = 'helpdesk-prod';
    process.env.SIGNING_SECRET = 'a-real-secret';
    expect(() => assertDeployedConfig()).not.toThrow();
    expect(env.signingSecret).toBe('a-real-secret');
  });

  it('lets the local stack run on its development defaults', () => {
    delete process.env.STAGE;
    delete process.env.SIGNING_SECRET;
    expect(() => assertDeployedConfig()).not.toThrow();
    expect(env.signingSecret).toBe('local-development-signing-secret');
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
