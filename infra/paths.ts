import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Group } from '@helpdesk/core/kernel/api/route';
import { REDOC_FILE } from '@helpdesk/core/top/openapi/reference-page';

/** The repository root (this file lives in <root>/infra). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the Lambda entry modules live: functions/http/<group>.ts, functions/queue/<consumer>.ts, functions/stream/<name>.ts. */
export const FUNCTIONS_ROOT = path.join(REPO_ROOT, 'functions');

export const httpEntry = (group: string, root = FUNCTIONS_ROOT) => path.join(root, 'http', `${group}.ts`);
export const queueEntry = (consumer: string, root = FUNCTIONS_ROOT) => path.join(root, 'queue', `${consumer}.ts`);

export const streamEntry = (name: string, root = FUNCTIONS_ROOT) => path.join(root, 'stream', `${name}.ts`);

export const entryExists = (entry: string) => existsSync(entry);

/** Files a group reads at runtime beside its bundle (the reference page serves Redoc from the installed package). */
export const groupAssets = (group: Group): string[] =>
  group === 'docs' ? [createRequire(import.meta.url).resolve(`redoc/bundles/${REDOC_FILE}`)] : [];
