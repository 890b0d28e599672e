import { afterAll } from 'vitest';
import type { App } from '../../packages/local/src/app.js';
import type { Endpoints } from '../../packages/local/src/emulators.js';
import { checkContract } from './contract.js';
import { testEndpoints, testResources } from './env.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Raw body (multipart, forms); sent as is. */
  rawBody?: RequestInit['body'];
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

export interface TestApp extends App {
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
}

/**
 * The local stack on this file's stand-ins, on a free port: the same HTTP server, handlers, queue
 * consumers and scheduler the developer runs with `npm start`. Stopped after the file.
 */
export async function startTestApp(
  options: { consumers?: boolean; endpoints?: Endpoints; functionTimeoutMs?: number } = {},
): Promise<TestApp> {
  const { startApp } = await import('../../packages/local/src/app.js');
  const app = await startApp({ endpoints: testEndpoints(), resources: testResources(), port: 0, ...options });
  afterAll(() => app.stop());
  const call = async <T>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> => {
    const url = new URL(/^\/(api|docs|console|help)(\/|$)/.test(path) ? app.url + path : app.apiUrl + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: RequestInit['body'] = options.rawBody;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    // Redirects are answers to check (a renamed help center's 301), not to follow.
    const res = await fetch(url, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    checkContract(method, url, res.status, res.headers.get('content-type'), parsed);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return Object.assign(app, { call });
}
