import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in <root>/infra). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const httpEntry = (group: string) => path.join(REPO_ROOT, 'functions', 'http', `${group}.ts`);
export const queueEntry = (consumer: string) => path.join(REPO_ROOT, 'functions', 'queue', `${consumer}.ts`);

export const entryExists = (entry: string) => existsSync(entry);
