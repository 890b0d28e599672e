import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHelpdeskClient, UploadError, uploadAttachment } from '@helpdesk/client';
import { buildOpenApiDocument } from '@helpdesk/core/top/openapi/document';
import { publishedServers } from '@helpdesk/core/top/openapi/servers';
import { allRoutes } from '@helpdesk/core/top/routes/table';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';

const app = await startTestApp();

describe('typed client', () => {
  it('calls the API with typed paths and responses', async () => {
    const t = await createTenant({ projects: ['web', 'app'] });
    const client = createHelpdeskClient({ baseUrl: app.apiUrl, apiKey: t.liveKey });
    const { data, error, response } = await client.GET('/projects');
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data?.projects.map((p) => p.slug)).toEqual(['app', 'web']);

    const denied = await createHelpdeskClient({ baseUrl: app.apiUrl, apiKey: 'sk_live_nope' }).GET('/projects');
    expect(denied.response.status).toBe(401);
    expect(denied.error?.error.code).toBe('auth.unauthorized');
  });

  it("types customFields by the project's ticket fields, in bodies, answers and list filters", async () => {
    const t = await createTenant();
    type Fields = { order_id: string; plan: 'free' | 'pro' };
    const client = createHelpdeskClient<Fields>({ baseUrl: app.apiUrl, apiKey: t.liveKey });
    await client.POST('/ticket-fields', { body: { key: 'order_id', label: 'Order', type: 'text', filterable: true } });
    await client.POST('/ticket-fields', {
      body: { key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro'] },
    });
    const created = await client.POST('/tickets', {
      body: {
        subject: 'Typed',
        body: 'Hi',
        customer: { email: 'typed@example.com' },
        customFields: { order_id: 'A-1', plan: 'pro' },
      },
    });
    expect(created.data?.customFields).toEqual({ order_id: 'A-1', plan: 'pro' });
    expectTypeOf(created.data!.customFields.plan).toEqualTypeOf<'free' | 'pro' | undefined>();
    const read = await client.GET('/tickets/{ticketId}', {
      params: { path: { ticketId: created.data!.id }, query: {} },
    });
    expectTypeOf(read.data!.customFields.order_id).toEqualTypeOf<string | undefined>();
    expect(read.data?.customFields.order_id).toBe('A-1');
    await client.PATCH('/tickets/{ticketId}', {
      params: { path: { ticketId: created.data!.id } },
      // null removes a value
      body: { customFields: { plan: null } },
    });
    const rows = await client.GET('/tickets', { params: { query: {} } });
    expect(rows.data?.tickets[0]?.customFields).toEqual({ order_id: 'A-1' });
    // A value of the wrong type does not compile (checked by the typecheck; never called).
    const wrong = () =>
      client.PATCH('/tickets/{ticketId}', {
        params: { path: { ticketId: created.data!.id } },
        // @ts-expect-error plan is 'free' | 'pro'
        body: { customFields: { plan: 'gold' } },
      });
    expect(typeof wrong).toBe('function');
  });

  it('uploadAttachment sends a file straight to S3 for a message to attach by its uploadId', async () => {
    const t = await createTenant();
    const client = createHelpdeskClient({ baseUrl: app.apiUrl, apiKey: t.liveKey });
    const created = await client.POST('/tickets', {
      body: { subject: 'Logs attached', body: 'See the file', customer: { email: 'c@example.com' } },
    });
    const data = randomBytes(6_000_000);
    const upload = await uploadAttachment(client, { fileName: 'app.log', mimeType: 'text/plain', data });
    expect(upload).toEqual({ uploadId: expect.any(String) });
    const message = await client.POST('/tickets/{ticketId}/messages', {
      params: { path: { ticketId: created.data!.id } },
      body: { body: 'Attached', attachments: [upload] },
    });
    expect(message.response.status).toBe(200);
    expect(message.data!.attachments).toEqual([
      expect.objectContaining({ fileName: 'app.log', fileSize: 6_000_000, mimeType: 'text/plain' }),
    ]);
    const downloaded = Buffer.from(await (await fetch(message.data!.attachments[0]!.url)).arrayBuffer());
    expect(downloaded.equals(data)).toBe(true);

    const refused = uploadAttachment(client, {
      fileName: 'huge.bin',
      mimeType: 'application/octet-stream',
      data: new Uint8Array(25_000_001),
    });
    await expect(refused).rejects.toBeInstanceOf(UploadError);
    await expect(refused).rejects.toMatchObject({ status: 422, body: { error: { code: 'validation.failed' } } });
  });

  it('is generated from the current OpenAPI document, as docs/openapi.json is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-'));
    const doc = buildOpenApiDocument(allRoutes, publishedServers);
    expect(JSON.parse(readFileSync('docs/openapi.json', 'utf8'))).toEqual(doc);
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    execFileSync(
      process.execPath,
      ['node_modules/openapi-typescript/bin/cli.js', join(dir, 'openapi.json'), '-o', join(dir, 'schema.d.ts')],
      {
        stdio: 'ignore',
      },
    );
    expect(readFileSync(join(dir, 'schema.d.ts'), 'utf8')).toBe(
      readFileSync('packages/client/src/schema.d.ts', 'utf8'),
    );
  });
});
