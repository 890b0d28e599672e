import { isIPv6 } from 'node:net';

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*';
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*';
const CLOCK = '\\d{1,2}:\\d{2}(?::\\d{2})?(?:[.,]\\d+)?';

/**
 * Token classes: the variable parts of a message, replaced in this order. Earlier classes contain text
 * that later ones would otherwise half-replace (a URL holds a path and numbers, a UUID holds hex runs,
 * a date holds numbers, `host:port` holds a host name). Only a date spans whitespace (`Jun 14 15:16:01`
 * is one value), so no rule turns two different words of a message into one; a quoted string is no
 * class (`"GET /a"` and `"POST /a"` are different events).
 */
export type TokenClass = [RegExp, string | ((match: string) => string)];

// The local part allows RFC 5322's characters except quotes, which far more often delimit an address.
export const EMAIL: TokenClass = [/(?<![\w.!#$%&*+/=?^{|}~-])[\w.!#$%&*+/=?^{|}~-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'];
export const URL_CLASS: TokenClass = [/(?<![\w+.-])[a-z][a-z\d+.-]*:\/\/[^\s"'`<>]+/gi, '<url>'];
export const UUID: TokenClass = [/\b[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}\b/gi, '<uuid>'];
// IPv6 candidates are checked by a parser: a clock like 12:30:45 looks similar but is not one.
export const IPV6: TokenClass = [
  /(?<![\w:])(?:[\da-f]{0,4}:){2,7}[\da-f]{0,4}(?![\w:])/gi,
  (m) => (isIPv6(m) ? '<ip>' : m),
];

export const applyClasses = (classes: TokenClass[], message: string) =>
  classes.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement as string), message);

const CLASSES: TokenClass[] = [
  EMAIL,
  URL_CLASS,
  UUID,
  // Dates and times: ISO and its dash/dot variants (2005-06-03-15.42.50.675872), d/m/y, month names, clocks.
  [
    /\b\d{4}[-./]\d{1,2}[-./]\d{1,2}(?:[-T ]\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w])/gi,
    '<date>',
  ],
  [/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g, '<date>'],
  [
    new RegExp(`\\b(?:${DAY},?\\s+)?${MONTH}\\s+\\d{1,2}(?:,?\\s+\\d{4})?(?:\\s+${CLOCK})?(?:\\s+\\d{4})?\\b`, 'gi'),
    '<date>',
  ],
  [new RegExp(`(?<![\\w:.])${CLOCK}(?![\\w:])`, 'g'), '<time>'],
  // IPv4 with an optional port.
  [/(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?![\w.])/g, '<ip>'],
  IPV6,
  // Paths: two or more segments, absolute or relative with a slash inside (Windows drive letters too).
  [/(?<![\w<.$@%+~-])(?:[a-z]:)?(?:\.{0,2}\/)?[\w.$@%+~-]*(?:\/[\w.$@%+~:-]+){2,}\/?/gi, '<path>'],
  [/(?<![\w<])\/[\w.$@%+~-]+\/?(?=[\s,;)\]}]|$)/g, '<path>'],
  [/(?<![\w<])[a-z]:\\[^\s"'<>|]*/gi, '<path>'],
  // Host names: dotted lower-case labels ending in a top-level-domain-like label; `host:port`.
  [
    /(?<![\w.<-])(?:[a-z\d](?:[a-z\d-]*[a-z\d])?\.)+[a-z]{2,6}(?::\d{1,5})?(?![\w.-])/g,
    (m) => (/\d|\.(?:com|net|org|edu|gov|io|local|lan|internal)\b/.test(m) ? '<host>' : m),
  ],
  [/(?<![\w.<-])[a-z][\w-]*(?:\.[\w-]+)*:\d{1,5}(?![\w.:])/gi, '<host>'],
  // Hex ids and hashes: 0x-prefixed, or 8+ hex characters mixing digits and letters.
  [/\b0x[\da-f]+\b|\b(?=[\da-f]*\d)(?=[\da-f]*[a-f])[\da-f]{8,}\b/gi, '<hex>'],
  // key=value: the value is data, the key is the message's own word.
  [/(?<=[\w\]]=)[^\s,;&)\]}"']+/g, '<val>'],
  // Any word holding a digit is data (ids, counters, numbered names: blk_-69, subdir51, test9,
  // core.2275, 250ms), and so is a signed number.
  [/(?<![\w<>-])[-+]?\d[\w.:+-]*(?<![.:])/g, '<num>'],
  // ... except an upper-case name ending in a version (SOCKS5, MD5, UTF8, HTTP2): a protocol or format, not an id.
  [/(?<![\w<>$@#-])[a-z_$@#][\w$@#-]*\d[\w$@#.:-]*(?<![.:])/gi, (m) => (/^[A-Z]{2,}\d{1,2}$/.test(m) ? m : '<id>')],
];

/** The message with its variable parts replaced by placeholders: the issue title and the words that are learned. */
export const parameterize = (message: string) => applyClasses(CLASSES, message);

// Units a number carries as one value: sizes and durations.
const UNIT = '(?:[KMGTP]i?B|B|bytes?|[mun\u00b5]s|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?)';
const VALUE_WITH_UNIT = new RegExp(`(?:<num>|(?<![\\w<>])[<>]=?\\d+(?:\\.\\d+)?)\\s+${UNIT}(?![\\w<])`, 'g');
const RESTATED_VALUE = /(<num>)\s+\(<num>\)/g;

/**
 * A parameterized message with each number and its unit as one value (`18.4 KB`, `<1 sec`,
 * `3 minutes`) and a value restated in parentheses after another (`1234 bytes (1.2 KB)`) dropped, so
 * that messages whose values are written with a different number of words (`lifetime 00:01` and
 * `lifetime <1 sec`, `0 bytes sent` and `18846 bytes (18.4 KB) sent`) have the same words to learn.
 * Learning only: the fingerprint and the title keep the message as parameterized.
 */
export const joinValues = (title: string) =>
  title
    .replace(VALUE_WITH_UNIT, '<num>')
    .replace(RESTATED_VALUE, '$1')
    .replace(QUOTED, (q, text: string) => (VERB_FIRST.test(text) ? q : '"<str>"'))
    .replace(QUOTED_VALUE, "$1'<str>'")
    .replace(BOOLEAN, '<bool>');
const QUOTED = /(?<![\w"])"([^"\n]{1,200})"(?![\w"])/g;
const VERB_FIRST = /^[A-Z]{2,}(?:\s|$)/;
const QUOTED_VALUE = /(=)'[^'\n]{1,200}'(?![\w'])/g;
const BOOLEAN = /(?<![\w<>-])(?:true|false)(?![\w<>-])/gi;

/** The words of a parameterized message; a word holding a placeholder is variable wherever it stands. */
export const wordsOf = (title: string) => title.split(/\s+/).filter(Boolean);

/** The placeholders of the token classes; consecutive ones are one value (`<path><uuid>`). */
export const PLACEHOLDER = /(?:<(?:email|url|uuid|date|time|ip|path|host|hex|val|num|id|str|bool)>)+/g;

const ONE_PLACEHOLDER = /<(?:email|url|uuid|date|time|ip|path|host|hex|val|num|id|str|bool)>/;
export const isVariable = (word: string) => word.includes('<') && ONE_PLACEHOLDER.test(word);

/** Every pattern built from strings here (test/foundation/regex-safety.test.ts checks them). */
export const BUILT_PATTERNS = [...CLASSES.map(([pattern]) => pattern), VALUE_WITH_UNIT];
