import { acceptsJson } from '@helpdesk/core/kernel/api/accept';
import { describe, expect, it } from 'vitest';

describe('Accept negotiation between a page and its JSON', () => {
  it.each([
    ['application/json', true],
    ['application/problem+json', true],
    ['application/json, text/html', true],
    ['text/html, application/json;q=0.9', false],
    ['application/json;q=0, text/html', false],
    ['application/json; q=0', false],
    ['application/json;q=0.5, */*;q=0.1', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['*/*', false],
    ['', false],
    [undefined, false],
    ['application/json;q=oops', true],
  ])('%j: JSON %s', (accept, json) => {
    expect(acceptsJson(accept)).toBe(json);
  });
});
