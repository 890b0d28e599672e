import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Runs a script of the local stack in a child whose PATH holds only `bin` (node is called by its full
 * path): no `java` at all, or the one given.
 */
function withJava(java: string | undefined, args: string[]) {
  const bin = mkdtempSync(join(tmpdir(), 'java-bin-'));
  if (java) writeFileSync(join(bin, 'java'), java, { mode: 0o755 });
  return spawnSync(process.execPath, ['--import', 'tsx', ...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: bin, PORT: '0' },
    // Well under the 30 s the stack used to wait for a DynamoDB Local that could never start.
    timeout: 20_000,
  });
}

const startScript = `
  const { startEmulators } = await import('./packages/local/src/emulators.ts');
  try { await startEmulators(); console.log('started'); process.exit(0); }
  catch (err) { console.log(JSON.stringify({ name: err.name, message: err.message })); process.exit(3); }
`;

describe('a machine without Java', () => {
  it('makes startEmulators (npm test) fail at once, naming Java and the command that installs it', () => {
    const run = withJava(undefined, ['--input-type=module', '-e', startScript]);
    expect(run.signal, 'still waiting for DynamoDB Local').toBeNull();
    expect(run.status, run.stderr).toBe(3);
    const error = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(error.name).toBe('MissingJavaError');
    expect(error.message).toContain('no `java` was found on PATH');
    expect(error.message).toContain('apt-get install -y default-jre-headless');
  });

  it('makes npm start print that message alone, without a stack trace, and exit 1', () => {
    const run = withJava(undefined, ['packages/local/src/main.ts', '--memory']);
    expect(run.signal, 'still waiting for DynamoDB Local').toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('apt-get install -y default-jre-headless');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('makes startEmulators fail at once when the java found cannot run DynamoDB Local', () => {
    const run = withJava('#!/bin/sh\necho "UnsupportedClassVersionError" >&2\nexit 1\n', [
      '--input-type=module',
      '-e',
      startScript,
    ]);
    expect(run.signal, 'still waiting for DynamoDB Local').toBeNull();
    expect(run.status, run.stderr).toBe(3);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!).message).toContain('exit code 1');
  });
});
