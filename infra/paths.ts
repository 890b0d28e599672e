import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in <root>/infra). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the Lambda entry modules live: functions/http/<group>.ts and functions/queue/<consumer>.ts. */
export const FUNCTIONS_ROOT = path.join(REPO_ROOT, 'functions');

export const httpEntry = (group: string, root = FUNCTIONS_ROOT) => path.join(root, 'http', `${group}.ts`);
export const queueEntry = (consumer: string, root = FUNCTIONS_ROOT) => path.join(root, 'queue', `${consumer}.ts`);

export const entryExists = (entry: string) => existsSync(entry);
