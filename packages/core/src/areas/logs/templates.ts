import { isVariable, joinValues, PLACEHOLDER, wordsOf } from './tokens.js';

/**
 * Online template learning in the manner of Drain (He et al., ICWS 2017): parameterized messages of one
 * scope and word count are compared with the known templates of that leaf; the most similar one at or
 * above SIMILARITY takes the message, and the word positions where the two differ become wildcards.
 * A template's id is the issue of its first event: the issue exists from that event on.
 */
export const WILDCARD = '<*>';
/** Share of a template's words a message must repeat (wildcards aside) to be of that template. */
export const SIMILARITY = 0.5;
/** Different values a word position must show before it is a wildcard. */
export const MIN_VARIANTS = 4;
/** Templates kept per project and environment; beyond it the least recently used one is forgotten. */
export const MAX_TEMPLATES = 1_000;
/** The stored state's size bound (a DynamoDB item holds 400 KB): beyond it the least recently used templates go. */
export const MAX_STATE_BYTES = 300_000;
/** Messages longer than this (in words) are not learned: they group by their fingerprint alone. */
export const MAX_WORDS = 40;
/** Words longer than this are not learned either (the state must stay small). */
const MAX_WORD_CHARS = 80;

export interface Template {
  /** The issue this template's events go to. */
  id: string;
  scope: string;
  words: string[];
  /** The state's clock when the template last took an event: eviction forgets the oldest. */
  used: number;
}

export interface TemplateState {
  clock: number;
  templates: Template[];
}

export interface Learned {
  /** The issue of the event's template. */
  issueId: string;
  /** Whether the state changed (a new or generalized template, or merged ones). */
  changed: boolean;
  /** Templates (and so issues) that the generalized template now covers: they merge into it. */
  merged: string[];
  /** The template's words when they just generalized (`<*>` where values vary): its issue's new title. */
  template?: string;
}

const leafKey = (scope: string, words: string[]) => `${scope}\u0000${words.length}`;

/** A state with its leaf index (built once per load, kept in step by `learn`). */
export class Templates {
  private readonly leaves = new Map<string, Template[]>();

  constructor(readonly state: TemplateState = { clock: 0, templates: [] }) {
    for (const t of state.templates) this.leaf(t.scope, t.words).push(t);
  }

  private leaf(scope: string, words: string[]) {
    const key = leafKey(scope, words);
    let leaf = this.leaves.get(key);
    if (!leaf) this.leaves.set(key, (leaf = []));
    return leaf;
  }

  /**
   * The words a message is learned by, or undefined for one too long to learn. A value becomes `<*>`
   * and keeps the literal text around it (`uid=<*>`, `[<*>]`): that text tells events apart. A number
   * with its unit is one value (`joinValues`).
   */
  static wordsOf(title: string): string[] | undefined {
    const words = wordsOf(joinValues(title));
    if (!words.length || words.length > MAX_WORDS || words.some((w) => w.length > MAX_WORD_CHARS)) return undefined;
    return words.map((w) => (isVariable(w) ? w.replace(PLACEHOLDER, WILDCARD) : w));
  }

  /** The template that takes `words`, without changing anything. */
  match(scope: string, words: string[]): Template | undefined {
    let best: Template | undefined;
    let bestScore = -1;
    for (const t of this.leaves.get(leafKey(scope, words)) ?? []) {
      let same = 0;
      let wild = 0;
      let exact = true;
      for (let i = 0; i < words.length; i++) {
        if (t.words[i] === WILDCARD) wild++;
        else if (t.words[i] === words[i]) same++;
        if (t.words[i] !== words[i]) exact = false;
      }
      // The same words (wildcards where the message has values) are its template, whatever the share of
      // wildcards: a message of mostly values (`<ip> "GET <path>" status: <num>`) repeats few literal words.
      if (exact) same = words.length;
      // Ties go to the more general template (Drain's rule), hence the small weight of wildcards.
      const score = same / words.length + wild / (words.length * 1000);
      if (same / words.length >= SIMILARITY && score > bestScore) {
        best = t;
        bestScore = score;
      }
    }
    return best;
  }

  /** Learns one event's words; `issueId` is the event's own issue, used when it starts a template. */
  learn(scope: string, words: string[], issueId: string): Learned {
    const clock = ++this.state.clock;
    const found = this.match(scope, words);
    if (!found) return this.add(scope, words, issueId, clock);
    found.used = clock;
    if (found.words.every((w, i) => w === WILDCARD || w === words[i]))
      return { issueId: found.id, changed: false, merged: [] };
    // The positions where they differ become wildcards only once MIN_VARIANTS different values were
    // seen there: two or three values are as often distinct events (startup/shutdown) as a variable.
    const general = found.words.map((w, i) => (w === words[i] ? w : WILDCARD));
    const leaf = this.leaf(scope, words);
    const covered = leaf.filter((t) => general.every((w, i) => w === WILDCARD || w === t.words[i]));
    const fresh = general.flatMap((w, i) => (w === WILDCARD && found.words[i] !== WILDCARD ? [i] : []));
    const values = new Set([...covered.map((t) => t.words), words].map((ws) => fresh.map((i) => ws[i]).join('\u0000')));
    // A value at such a position (a number where a word was, `<*>,<*>` where `<*>` was) shows at once that it varies.
    const classed = [...covered.map((t) => t.words), words].some((ws) => fresh.some((i) => ws[i]?.includes(WILDCARD)));
    if (values.size < MIN_VARIANTS && !classed) return this.add(scope, words, issueId, clock);
    // The oldest covered template stays: its issue is the one that existed first.
    const kept = covered.reduce((a, b) => (this.state.templates.indexOf(b) < this.state.templates.indexOf(a) ? b : a));
    kept.words = general;
    kept.used = clock;
    const others = covered.filter((t) => t !== kept);
    for (const t of others) this.remove(t);
    return { issueId: kept.id, changed: true, merged: others.map((t) => t.id), template: general.join(' ') };
  }

  private add(scope: string, words: string[], issueId: string, clock: number): Learned {
    const t: Template = { id: issueId, scope, words, used: clock };
    this.state.templates.push(t);
    this.leaf(scope, words).push(t);
    this.evict();
    return { issueId, changed: true, merged: [] };
  }

  /** The state as stored: JSON within MAX_STATE_BYTES (the least recently used templates are forgotten first). */
  serialize(): string {
    let json = JSON.stringify(this.state);
    while (Buffer.byteLength(json) > MAX_STATE_BYTES) {
      const drop = Math.max(1, Math.ceil(this.state.templates.length / 20));
      for (let i = 0; i < drop; i++) this.remove(this.oldest());
      json = JSON.stringify(this.state);
    }
    return json;
  }

  private oldest() {
    return this.state.templates.reduce((a, b) => (b.used < a.used ? b : a));
  }

  private remove(t: Template) {
    const leaf = this.leaf(t.scope, t.words);
    leaf.splice(leaf.indexOf(t), 1);
    this.state.templates.splice(this.state.templates.indexOf(t), 1);
  }

  private evict() {
    if (this.state.templates.length <= MAX_TEMPLATES) return;
    this.remove(this.oldest());
  }
}
