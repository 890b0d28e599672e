import { expect, inject } from 'vitest';
import type { TestApp } from '../support/app.js';

interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
}

/** Mails the SES stand-in holds for an address, oldest first (its store is shared by every test file). */
export async function mailsTo(address: string): Promise<StoredMail[]> {
  const res = await fetch(`${inject('endpoints').ses}/store`);
  const { emails } = (await res.json()) as { emails: StoredMail[] };
  return emails.filter((m) => m.destination.to.some((d) => d.toLowerCase().includes(address.toLowerCase())));
}

const signInLinks = async (address: string) =>
  (await mailsTo(address))
    .filter((m) => m.subject.startsWith('Sign in to'))
    .map((m) => /https?:\/\/\S+?(\/console\/sign-in\/[A-Za-z0-9_-]+)/.exec(m.body.text ?? '')?.[1]);

/**
 * The path of the console sign-in link mailed to an address for the request just made: the emails
 * consumer mails it from the queue, so this waits (up to 10 s) for a link newer than `seen`.
 */
export async function signInLinkPath(address: string, seen?: number): Promise<string> {
  const before = seen ?? 0;
  for (let waited = 0; waited < 10_000; waited += 100) {
    const links = await signInLinks(address);
    const link = links.length > before ? links.at(-1) : undefined;
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No sign-in link mailed to ${address}`);
}

/** How many sign-in links an address has been mailed so far. */
export const signInLinkCount = async (address: string) => (await signInLinks(address)).length;

export interface ConsoleResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** A browser without a browser: keeps the session cookie, reads the CSRF token off the pages. */
export class ConsoleClient {
  cookie?: string;
  csrf?: string;
  constructor(readonly app: TestApp) {}

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<ConsoleResponse> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(this.app.url + path, {
      method,
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const value = /console_session=([^;]*)/.exec(setCookie)?.[1];
      this.cookie = value ? `console_session=${value}` : undefined;
    }
    const text = await res.text();
    // The emails consumer mails sign-in links from the queue: let it, so the mail is there to read.
    if (method === 'POST' && path === '/console/sign-in') await this.app.drain();
    const csrf = /name="csrf" value="([^"]+)"/.exec(text)?.[1];
    if (csrf) this.csrf = csrf;
    return { status: res.status, headers: res.headers, text };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** A form post carrying the page's CSRF token (unless the test overrides it). */
  post(path: string, form: Record<string, string> = {}) {
    return this.request('POST', path, { csrf: this.csrf ?? '', ...form });
  }

  /** Signs in through the emailed link, as a member would. */
  async signIn(email: string) {
    const sent = await this.request('POST', '/console/sign-in', { email });
    expect(sent.status, sent.text).toBe(200);
    const path = await signInLinkPath(email);
    expect((await this.get(path)).status).toBe(200);
    const done = await this.request('POST', path, {});
    expect(done.status, done.text).toBe(303);
    expect(done.headers.get('location')).toBe('/console');
    const home = await this.get('/console');
    expect(home.status, home.text).toBe(200);
    return this;
  }
}
