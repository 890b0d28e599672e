import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFunction, SDK_FOLDER } from '../../infra/constructs/bundle.js';
import { REPO_ROOT } from '../../infra/paths.js';

// Entries under the project root (a git-ignored folder), so they resolve its node_modules as functions/ do.
const cache = path.join(REPO_ROOT, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const root = mkdtempSync(path.join(cache, 'bundle-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const entry = (name: string, source: string) => {
  const file = path.join(root, `${name}.ts`);
  writeFileSync(file, source);
  return file;
};

describe('bundle aliases (infra/stubs/)', () => {
  it('compile Handlebars templates to the same output without source-map', async () => {
    const template = 'Hi {{name}}, {{#each items}}<b>{{this}}</b>{{else}}none{{/each}} {{{raw}}} {{> part}}';
    const data = { name: 'A&B "quoted"', items: [1, 'two'], raw: '<i>x</i>' };
    const out = path.join(root, 'hbs-out');
    const src = entry(
      'hbs',
      `import Handlebars from 'handlebars';
      Handlebars.registerPartial('part', '[{{name}}]');
      export const handler = async () => Handlebars.compile(${JSON.stringify(template)})(${JSON.stringify(data)});`,
    );
    buildFunction(src, out);
    const bundled = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { handler } = await import('./index.mjs'); process.stdout.write(await handler());`,
      ],
      {
        cwd: out,
        encoding: 'utf8',
      },
    );
    const { default: Handlebars } = await import('handlebars');
    const local = Handlebars.create();
    local.registerPartial('part', '[{{name}}]');
    expect(bundled).toBe(local.compile(template)(data));
    expect(bundled).toContain('A&amp;B');
  });
});

describe('the separately built AWS SDK clients (infra/constructs/bundle.ts)', () => {
  it('ship in the node_modules/ of a function that imports one on first use, where the import as written finds it', () => {
    const out = path.join(root, 'lazy-out');
    const src = entry(
      'lazy',
      `export const handler = async () => {
        const { S3Client, GetObjectCommand } = await import('@aws-sdk/client-s3');
        return typeof S3Client === 'function' && typeof GetObjectCommand === 'function';
      };`,
    );
    const { sdkModules } = buildFunction(src, out);
    expect(sdkModules).toEqual(['@aws-sdk/client-s3']);
    expect(existsSync(path.join(out, SDK_FOLDER, '@aws-sdk', 'client-s3', 'index.mjs'))).toBe(true);
    expect(existsSync(path.join(out, SDK_FOLDER, '@aws-sdk', 'client-sesv2'))).toBe(false);
    const ran = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { handler } = await import('./index.mjs'); process.stdout.write(String(await handler()));`,
      ],
      {
        cwd: out,
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1' },
        encoding: 'utf8',
      },
    );
    expect(ran).toBe('true');
  });

  it('refuse a static import, which would load the client at init', () => {
    const src = entry(
      'static',
      `import { S3Client } from '@aws-sdk/client-s3';\nexport const handler = async () => typeof S3Client;`,
    );
    expect(() => buildFunction(src, path.join(root, 'static-out'))).toThrow(
      /@aws-sdk\/client-s3 is imported statically/,
    );
  });
});
