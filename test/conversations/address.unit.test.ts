import { randomUUID } from 'node:crypto';
import { inboundAddress, parseRecipient, replyAddress } from '@helpdesk/core/kernel/mail/reply-address';
import { describe, expect, it } from 'vitest';

const domain = 'in.example.com';
const project = { id: randomUUID(), slug: 'acme-support-desk-with-a-very-long-name-indeed' };

describe('reply and inbound addresses', () => {
  it('round-trip a ticket reply address and keep the local part within 64 characters', () => {
    for (const number of [1, 255, 256, 65_535, 1_000_000, 2 ** 40]) {
      for (const environment of ['live', 'sandbox'] as const) {
        const address = replyAddress(project, environment, number, domain);
        expect(address.split('@')[0]!.length).toBeLessThanOrEqual(64);
        expect(address).toMatch(/^[a-z0-9.+-]+@in\.example\.com$/);
        expect(parseRecipient(address, domain)).toEqual({
          kind: 'ticket',
          projectId: project.id,
          env: environment,
          ticketNumber: number,
        });
        expect(parseRecipient(address.toUpperCase(), domain)).toEqual({
          kind: 'ticket',
          projectId: project.id,
          env: environment,
          ticketNumber: number,
        });
      }
    }
  });

  it('refuses a forged, altered or foreign token', () => {
    const address = replyAddress(project, 'live', 42, domain);
    const [local] = address.split('@');
    const token = local!.split('+')[1]!;
    // Another ticket number with the same MAC, another environment, a flipped MAC character.
    const otherNumber = replyAddress(project, 'live', 43, domain).split('+')[1]!.split('@')[0]!;
    const forged = token.slice(0, 26 + 1 + 16) + otherNumber.slice(26 + 1 + 16);
    expect(forged).not.toBe(token);
    expect(parseRecipient(`x+${forged}@${domain}`, domain)).toBeUndefined();
    expect(parseRecipient(`x+${token.slice(0, 26)}s${token.slice(27)}@${domain}`, domain)).toBeUndefined();
    const flipped = token.slice(0, 30) + (token[30] === 'a' ? 'b' : 'a') + token.slice(31);
    expect(parseRecipient(`x+${flipped}@${domain}`, domain)).toBeUndefined();
    expect(parseRecipient(address.replace(domain, 'other.example.com'), domain)).toBeUndefined();
    expect(parseRecipient(`x+${token}@${domain}`, domain)).toMatchObject({ ticketNumber: 42 });
  });

  it('names the project and environment of an inbound address', () => {
    const live = inboundAddress(project, 'live', domain);
    const sandbox = inboundAddress(project, 'sandbox', domain);
    expect(live.split('@')[0]!.length).toBeLessThanOrEqual(64);
    expect(parseRecipient(live, domain)).toEqual({ kind: 'project', projectId: project.id, env: 'live' });
    expect(parseRecipient(sandbox, domain)).toEqual({ kind: 'project', projectId: project.id, env: 'sandbox' });
    expect(parseRecipient(`support@${domain}`, domain)).toBeUndefined();
    expect(parseRecipient('not-an-address', domain)).toBeUndefined();
  });
});
