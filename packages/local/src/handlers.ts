import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The project root, where functions/ lives. */
export const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

type AnyHandler = (event: unknown, context: unknown) => Promise<unknown>;
const loaded = new Map<string, Promise<AnyHandler>>();

/** Imports a Lambda entry (functions/<kind>/<name>.ts) once, like a warm Lambda instance. */
export function loadHandler(kind: 'http' | 'queue', name: string): Promise<AnyHandler> {
  const file = join(projectRoot, 'functions', kind, `${name}.ts`);
  let p = loaded.get(file);
  if (!p) {
    if (!existsSync(file)) throw new Error(`No Lambda entry at ${file}`);
    p = import(pathToFileURL(file).href).then((m: { handler: AnyHandler }) => m.handler);
    loaded.set(file, p);
  }
  return p;
}
