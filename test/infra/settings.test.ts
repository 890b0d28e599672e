import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../infra/config.js';
import { REPO_ROOT } from '../../infra/paths.js';

const run = promisify(execFile);
const cdkContext = () =>
  (JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
const settings = (context: Record<string, unknown>) =>
  readSettings(new App({ context: { ...cdkContext(), ...context } }).node);

/** `cdk synth` runs the app with the merged context in CDK_CONTEXT_JSON; so does this. */
async function synthApp(context: Record<string, unknown>) {
  const outdir = mkdtempSync(path.join(tmpdir(), 'helpdesk-synth-'));
  const env = { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ ...cdkContext(), ...context }), CDK_OUTDIR: outdir };
  try {
    await run(process.execPath, ['--import', 'tsx', 'infra/app.ts'], { env, cwd: REPO_ROOT });
    return { code: 0, stderr: '' };
  } catch (err) {
    return err as { code: number; stderr: string };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

describe('the default sender of a stage', () => {
  it('refuses to synthesize a stage other than dev without one, saying how to set it', async () => {
    for (const stage of ['prod', 'sandbox']) {
      const res = await synthApp({ stage });
      expect(res.code, stage).not.toBe(0);
      expect(res.stderr).toContain(`Context defaultSender is required for stage ${stage}: pass -c defaultSender=`);
      expect(res.stderr).toContain('verified in SES');
    }
  }, 120_000);

  it('takes a display name, refuses what is not one mailbox, and leaves dev on the placeholder', () => {
    expect(settings({ stage: 'prod', defaultSender: 'Acme Support <support@acme.example>' }).defaultSender).toBe(
      'Acme Support <support@acme.example>',
    );
    expect(() => settings({ stage: 'prod', defaultSender: 'a@acme.example, b@acme.example' })).toThrow(
      /Context defaultSender .*Expected one address/,
    );
    expect(() => settings({ stage: 'prod', defaultSender: 'Acme <support@acme' })).toThrow(/Context defaultSender/);
    expect(settings({ stage: 'dev' }).defaultSender).toBe('no-reply@dev.helpdesk.invalid');
  });
});

describe.each(['ticket', 'email'])('the %s list migration', (entity) => {
  const step = `${entity}Lists`;
  const count = `${entity}ListIndexes`;
  it('defaults to the narrow lists on all four indexes', () => {
    expect(settings({})).toMatchObject({ [step]: 'narrow', [count]: 4 });
  });

  it('takes fewer indexes only while migrating, and refuses what is not a step', () => {
    expect(settings({ [step]: 'migrating', [count]: 0 })).toMatchObject({ [step]: 'migrating', [count]: 0 });
    expect(settings({ [step]: 'migrating' })).toMatchObject({ [count]: 4 });
    expect(() => settings({ [count]: 2 })).toThrow(`${count}=2 needs -c ${step}=migrating`);
    expect(() => settings({ [step]: 'wide' })).toThrow(`${step} must be narrow or migrating`);
    for (const bad of [5, -1, 1.5, 'two'])
      expect(() => settings({ [step]: 'migrating', [count]: bad }), String(bad)).toThrow(`${count} must be 0 to 4`);
  });
});
