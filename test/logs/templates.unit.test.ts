import { MAX_STATE_BYTES, MAX_TEMPLATES, MIN_VARIANTS, Templates } from '@helpdesk/core/areas/logs/templates';
import { parameterize } from '@helpdesk/core/areas/logs/tokens';
import { describe, expect, it } from 'vitest';

const wordsOf = (message: string) => Templates.wordsOf(parameterize(message))!;
const learnAll = (templates: Templates, messages: string[]) =>
  messages.map((m, i) => templates.learn('', wordsOf(m), `issue-${i}`));

describe('template learning', () => {
  it('keeps an issue per value until a word position showed MIN_VARIANTS values, then merges them into the first', () => {
    const templates = new Templates();
    const users = ['root', 'bob', 'alice', 'carol', 'dave'];
    expect(users.length).toBeGreaterThan(MIN_VARIANTS);
    const learned = learnAll(
      templates,
      users.map((u) => `session opened for user ${u} by sshd`),
    );
    // Each of the first values starts its own issue: two or three values are as often distinct events.
    expect(learned.slice(0, MIN_VARIANTS - 1).map((l) => [l.issueId, l.merged])).toEqual(
      Array.from({ length: MIN_VARIANTS - 1 }, (_, i) => [`issue-${i}`, []]),
    );
    // The MIN_VARIANTS-th value shows the position varies: the earlier issues merge into the first one.
    expect(learned[MIN_VARIANTS - 1]).toEqual({
      issueId: 'issue-0',
      changed: true,
      merged: Array.from({ length: MIN_VARIANTS - 2 }, (_, i) => `issue-${i + 1}`),
      template: 'session opened for user <*> by sshd',
    });
    expect(learned[MIN_VARIANTS]).toEqual({ issueId: 'issue-0', changed: false, merged: [] });
    expect(templates.state.templates.map((t) => t.words.join(' '))).toEqual(['session opened for user <*> by sshd']);
  });

  it('makes one issue of the first two events of a shape whose email, URL, IP, UUID and quoted text differ', () => {
    const templates = new Templates();
    const learned = learnAll(templates, [
      'Sync for anna@example.com from https://a.example.com/x?y=1 via 10.0.0.1 job 3f2b8c1e-1a2b-4c3d-8e9f-0123456789ab failed: "disk is full"',
      'Sync for bob@example.org from https://b.example.net/ via 192.168.1.20 job 9a9b8c1e-1a2b-4c3d-8e9f-0123456789cd failed: "quota exceeded on volume"',
    ]);
    expect(learned.map((l) => l.issueId)).toEqual(['issue-0', 'issue-0']);
  });

  it('learns booleans and quoted values as values, and keeps a quoted request line and single-quoted words apart', () => {
    const templates = new Templates();
    const learned = learnAll(templates, [
      'updateClipping isOverlap:false, clip=true',
      'updateClipping isOverlap:true, clip=false',
      'acquire lock tag="View Lock" uid=1000',
      'acquire lock tag="RILJ_ACK_WL" uid=1001',
      "config key='a b' set",
      "config key='c' set",
      '10.0.0.1 "GET /v2/servers HTTP/1.1" status: 200',
      '10.0.0.2 "POST /v2/servers HTTP/1.1" status: 202',
      "Location icon should now be in state 'Active'",
      "Location icon should now be in state 'Inactive'",
    ]);
    expect(learned.map((l) => l.issueId)).toEqual([
      'issue-0',
      'issue-0',
      'issue-2',
      'issue-2',
      'issue-4',
      'issue-4',
      'issue-6',
      'issue-7',
      'issue-8',
      'issue-9',
    ]);
  });

  it('generalizes at once where a token class shows the position is data', () => {
    const templates = new Templates();
    const [first, second] = learnAll(templates, [
      'Invalid user webmaster from 10.0.0.1',
      'Invalid user test9 from 10.0.0.2',
    ]);
    expect(first!.issueId).toBe('issue-0');
    expect(second).toEqual({ issueId: 'issue-0', changed: true, merged: [], template: 'Invalid user <*> from <*>' });
  });

  it('groups messages made mostly of values by their exact words, and keeps the literal text around values', () => {
    const templates = new Templates();
    const learned = learnAll(templates, [
      '10.0.0.1 "GET /v2/a1/servers HTTP/1.1" status: 200 len: 1893 time: 0.24',
      '10.0.0.9 "GET /v2/b7/flavors HTTP/1.1" status: 404 len: 12 time: 1.5',
      '10.0.0.2,10.0.0.1 "GET /v2/c3/servers HTTP/1.1" status: 200 len: 7 time: 0.1',
      'setTodayTotalDetailSteps=1514038440000##7007',
      'setDiffTotalSteps=1514038440000##7007',
    ]);
    expect(learned.map((l) => l.issueId)).toEqual(['issue-0', 'issue-0', 'issue-0', 'issue-3', 'issue-4']);
  });

  it('learns a number and its unit as one value, and drops a value restated in parentheses, whatever the words they take', () => {
    const templates = new Templates();
    const learned = learnAll(templates, [
      'proxy.example.com:5070 close, 0 bytes sent, 0 bytes received, lifetime 00:01',
      'proxy.example.com:5070 close, 451 bytes sent, 18846 bytes (18.4 KB) received, lifetime <1 sec',
      'proxy.example.com:5070 close, 1200 bytes (1.2 KB) sent, 12 bytes received, lifetime 3 minutes',
      'Block rdd_2_3 stored as bytes in memory (estimated size 16.0 B, free 317.5 KB)',
      'Block rdd_4_1 stored as bytes in memory (estimated size 2.1 MiB, free 300.2 KB)',
    ]);
    expect(learned.map((l) => l.issueId)).toEqual(['issue-0', 'issue-0', 'issue-0', 'issue-3', 'issue-3']);
    expect(templates.state.templates.map((t) => t.words.join(' '))).toEqual([
      '<*> close, <*> sent, <*> received, lifetime <*>',
      'Block <*> stored as bytes in memory (estimated size <*>, free <*>)',
    ]);
    // The title (and so the fingerprint) keeps the message as written: only learning joins the values.
    expect(parameterize('0 bytes sent in 5 s')).toBe('<num> bytes sent in <num> s');
  });

  it('keeps two-valued words apart (startup/shutdown) and messages of other lengths or scopes', () => {
    const templates = new Templates();
    const learned = learnAll(templates, [
      'cupsd startup succeeded',
      'cupsd shutdown succeeded',
      'cupsd startup succeeded now',
      'cupsd startup succeeded',
    ]);
    expect(learned.map((l) => l.issueId)).toEqual(['issue-0', 'issue-1', 'issue-2', 'issue-0']);
    expect(templates.learn('billing', wordsOf('cupsd startup succeeded'), 'other').issueId).toBe('other');
  });

  it('does not learn messages beyond the word or size limits', () => {
    expect(Templates.wordsOf(Array.from({ length: 41 }, (_, i) => `w${'x'.repeat(i % 3)}`).join(' '))).toBeUndefined();
    expect(Templates.wordsOf(`a ${'y'.repeat(81)}`)).toBeUndefined();
  });

  it('stays within MAX_TEMPLATES and MAX_STATE_BYTES, forgetting the least recently used', () => {
    const templates = new Templates();
    const word = (i: number) => [...i.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('');
    for (let i = 0; i <= MAX_TEMPLATES; i++) templates.learn('', [word(i), `${word(i)}x`, `${word(i)}y`], `t${i}`);
    expect(templates.state.templates).toHaveLength(MAX_TEMPLATES);
    expect(templates.state.templates.some((t) => t.id === 't0')).toBe(false);
    const big = new Templates();
    for (let i = 0; i < MAX_TEMPLATES; i++)
      big.learn(
        '',
        Array.from({ length: 40 }, (_, j) => `${word(i)}${'q'.repeat(j % 5)}`),
        `b${i}`,
      );
    expect(Buffer.byteLength(big.serialize())).toBeLessThanOrEqual(MAX_STATE_BYTES);
    expect(big.state.templates.some((t) => t.id === `b${MAX_TEMPLATES - 1}`)).toBe(true);
  });
});
