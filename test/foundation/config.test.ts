import { afterEach, describe, expect, it } from 'vitest';
import { assertDeployedConfig, env } from '@helpdesk/core/config';
import { createGroupHandler } from '@helpdesk/core/http/pipeline';
import { consumer } from '@helpdesk/core/ports/consumer';

const saved = { STAGE: process.env.STAGE, SIGNING_SECRET: process.env.SIGNING_SECRET, TABLE_NAME: process.env.TABLE_NAME };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
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
