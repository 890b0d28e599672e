import { isRule } from '@helpdesk/core/areas/conversations/reply/markers';
import { htmlToText } from '@helpdesk/core/areas/templates/text';

/** One case of a reply corpus (bench/replies-corpora/SOURCES.md describes the fields). */
export interface ReplyCase {
  id: string;
  corpus: string;
  client: string;
  language: string;
  raw?: string;
  text?: string;
  html?: string;
  expected: string;
  expected_format: 'text' | 'html';
  compare: 'exact' | 'strip' | 'ignore_whitespace';
}

export function readCases(jsonl: string): ReplyCase[] {
  return jsonl
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const c = JSON.parse(line) as Omit<ReplyCase, 'corpus'>;
      return { ...c, corpus: c.id.split('/')[0] ?? 'unknown' };
    });
}

/** Whitespace-normalized: runs of white space are one space, none at the ends (all removed where upstream removes all). */
const normalize = (text: string, compare: ReplyCase['compare']) =>
  compare === 'ignore_whitespace' ? text.replace(/\s+/g, '') : text.replace(/\s+/g, ' ').trim();

/**
 * The expected reply as text (an HTML expectation as the text it reads as). A horizontal rule an
 * HTML expectation ends with (talon cuts inside the element that holds Outlook's `<hr>`) reads as a
 * line of dashes and carries no words: it is left out, as the service leaves out a closing rule.
 */
export const expectedText = (c: ReplyCase) =>
  c.expected_format === 'html' ? withoutClosingRules(htmlToText(c.expected)) : c.expected;

function withoutClosingRules(text: string) {
  const lines = text.trimEnd().split('\n');
  while (lines.length > 1 && isRule(lines.at(-1) as string)) lines.pop();
  return lines.join('\n');
}

/**
 * Whether the stored text lost some of the customer's words: the expected reply is not contained in
 * it (an inexact result that only kept too much, such as a sign-off a corpus removes, is not a loss).
 */
export function lostWords(c: ReplyCase, stored: string): boolean {
  return !normalize(stored, c.compare).includes(normalize(expectedText(c), c.compare));
}

/** Whether the stored text is the expected reply (an HTML expectation is compared as the text it reads as). */
export function compareReplies(c: ReplyCase, stored: string): boolean {
  return normalize(stored, c.compare) === normalize(expectedText(c), c.compare);
}
