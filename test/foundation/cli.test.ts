import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { relayable, scanOutbox } from '@helpdesk/core/kernel/ports/outbox';
import { describe, expect, it } from 'vitest';
import { adminCli } from '../support/admin-cli.js';
import { startTestApp } from '../support/app.js';
import { testResources } from '../support/env.js';
import { createTenant } from '../support/fixtures.js';

const LOCAL = { accessKeyId: 'local', secretAccessKey: 'local' };

const run = promisify(execFile);
// No consumers: what the tests put on queues and in the outbox stays there to be looked at.
const app = await startTestApp({ consumers: false });
/** The CLI as an operator runs it, finding this file's stand-ins through a stack file on its PORT. */
const admin = await adminCli(app);

describe('admin CLI', () => {
  it('creates an account, projects, members and keys that the API then honours', async () => {
    const account = await admin('account:create', '--name', 'Acme', '--plan', 'starter');
    expect(account.code).toBe(0);
    expect(account.json).toMatchObject({ name: 'Acme', plan: 'starter' });
    const id = account.json.id as string;

    expect((await admin('project:create', '--account', id, '--slug', 'web', '--name', 'Web')).json.slug).toBe('web');
    expect((await admin('project:create', '--account', id, '--slug', 'app', '--name', 'App')).code).toBe(0);
    const member = await admin(
      'member:add',
      '--account',
      id,
      '--email',
      'Ann@Example.com',
      '--name',
      'Ann',
      '--role',
      'admin',
    );
    expect(member.json).toMatchObject({ email: 'ann@example.com', role: 'admin' });

    const key = await admin(
      'key:create',
      '--account',
      id,
      '--env',
      'live',
      '--projects',
      'web',
      '--scopes',
      'tickets:read',
    );
    expect(key.json.key).toMatch(/^sk_live_/);
    const projects = await app.call('GET', '/projects', { key: key.json.key });
    expect(projects.body.projects.map((p: { slug: string }) => p.slug)).toEqual(['web']);
    const members = await app.call('GET', '/members', { key: key.json.key });
    expect(members.body.members).toEqual([
      { id: member.json.id, email: 'ann@example.com', name: 'Ann', role: 'admin' },
    ]);

    const limits = await admin('account:limits', '--account', id, '--tickets', '5', '--storage-bytes', '1000');
    expect(limits.json.limits).toEqual({ tickets: 5, storageBytes: 1000 });

    const revoked = await admin('key:revoke', '--key-id', key.json.id);
    expect(revoked.code).toBe(0);
    expect(revoked.json.revokedAt).toEqual(expect.any(String));
  }, 240_000);

  it('sets a project sender with a display name (form only on the local stack) and refuses one that is not a mailbox', async () => {
    const account = await admin('account:create', '--name', 'Senders', '--plan', 'pro');
    const id = account.json.id as string;
    const ok = await admin(
      'project:create',
      '--account',
      id,
      '--slug',
      'web',
      '--name',
      'Web',
      '--sender',
      'Acme Support <support@acme.example>',
    );
    expect(ok.json).toMatchObject({ slug: 'web', senderEmail: 'Acme Support <support@acme.example>' });
    const bad = await admin(
      'project:create',
      '--account',
      id,
      '--slug',
      'app',
      '--name',
      'App',
      '--sender',
      'a@acme.example, b@acme.example',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^admin: Sender "a@acme.example, b@acme.example": Expected one address/m);
  }, 240_000);

  it('exits non-zero with a message on bad input', async () => {
    for (const args of [
      ['account:create', '--name', 'X', '--plan', 'gold'],
      ['key:create', '--account', '00000000-0000-0000-0000-000000000000', '--env', 'live'],
      ['nope'],
    ]) {
      const res = await admin(...args);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/^admin: /m);
    }
  }, 240_000);

  it("against a deployed stage, signs for the AWS profile's region and names the table and region it tried", async () => {
    // A profile naming eu-west-3, no AWS_REGION, and DynamoDB reached through the SDK's own endpoint
    // setting (as a real endpoint would be: no *_ENDPOINT override), on DynamoDB Local: never the internet.
    const dir = mkdtempSync(path.join(tmpdir(), 'helpdesk-cli-'));
    const config = path.join(dir, 'config');
    writeFileSync(
      config,
      '[profile helpdesk-ops]\nregion = eu-west-3\naws_access_key_id = local\naws_secret_access_key = local\n',
    );
    const {
      AWS_REGION: _r,
      AWS_DEFAULT_REGION: _d,
      AWS_ACCESS_KEY_ID: _k,
      AWS_SECRET_ACCESS_KEY: _s,
      DYNAMODB_ENDPOINT,
      ...rest
    } = process.env;
    const env = {
      ...rest,
      AWS_CONFIG_FILE: config,
      AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'credentials'),
      AWS_PROFILE: 'helpdesk-ops',
      AWS_ENDPOINT_URL_DYNAMODB: DYNAMODB_ENDPOINT,
      TABLE_NAME: 'helpdesk-no-such-table',
    };
    const res = await run(
      process.execPath,
      ['--import', 'tsx', 'packages/cli/src/main.ts', 'account:create', '--name', 'X', '--plan', 'free'],
      { env },
    )
      .then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      )
      .finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/^admin: .*\(table helpdesk-no-such-table, region eu-west-3\)$/m);
  }, 240_000);

  it('lists dead letters with a sample and moves them back to their queue', async () => {
    const { dlqUrls, queueUrls } = testResources();
    const sqs = new SQSClient({ endpoint: process.env.SQS_ENDPOINT, region: 'us-east-1', credentials: LOCAL });
    await sqs.send(new SendMessageCommand({ QueueUrl: dlqUrls.webhooks, MessageBody: '{"dead":1}' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: dlqUrls.webhooks, MessageBody: '{"dead":2}' }));

    const listed = await admin('dlq:list');
    const webhooks = listed.json.deadLetterQueues.find((q: { queue: string }) => q.queue === 'webhooks');
    expect(webhooks.messages).toBe(2);
    expect(webhooks.sample.map((m: { body: string }) => m.body).sort()).toEqual(['{"dead":1}', '{"dead":2}']);
    expect(listed.json.deadLetterQueues.find((q: { queue: string }) => q.queue === 'emails').messages).toBe(0);

    expect((await admin('dlq:redrive', '--queue', 'nope')).code).toBe(2);
    const redriven = await admin('dlq:redrive', '--queue', 'webhooks');
    expect(redriven.json).toMatchObject({ queue: 'webhooks', redriven: 2, skipped: [] });
    const back = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrls.webhooks, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    expect((back.Messages ?? []).map((m) => m.Body).sort()).toEqual(['{"dead":1}', '{"dead":2}']);
    const after = await admin('dlq:list');
    expect(after.json.deadLetterQueues.find((q: { queue: string }) => q.queue === 'webhooks').messages).toBe(0);
    sqs.destroy();
  });

  it('marks the outbox items of a time window for the relay to take again', async () => {
    const before = new Date().toISOString();
    const created = await app.call('POST', '/tickets', {
      key: (await createTenant()).liveKey,
      body: { subject: 'Redrive me', body: 'Hi', customer: { email: 'redrive@example.com' } },
    });
    expect(created.status).toBe(200);
    const mine = (await scanOutbox({ since: before })).filter((r) => r.body.includes(created.body.id));
    expect(mine.length).toBeGreaterThan(0);

    expect((await admin('outbox:redrive', '--since', 'yesterday')).code).toBe(2);
    const redriven = await admin('outbox:redrive', '--since', before);
    expect(redriven.json.found).toBeGreaterThanOrEqual(mine.length);
    expect(redriven.json.redriven).toBe(redriven.json.found);
    const marked = (await scanOutbox({ since: before })).filter((r) => r.body.includes(created.body.id));
    expect(marked.map((r) => r.redrive)).toEqual(mine.map(() => 1));
    // What the stream then carries is a MODIFY with `redrive`: the relay takes it, as it takes an INSERT.
    expect(relayable('MODIFY', marked[0]!)).toBe(true);
    expect(relayable('MODIFY', { ...marked[0]!, redrive: undefined })).toBe(false);
    expect(relayable('INSERT', { pk: 'ticket#1' })).toBe(false);
  });
});
