import '@helpdesk/core/kernel/validation';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';

const schema = v.strictObject({
  subject: v.pipe(v.string(), v.minLength(1), v.maxLength(5)),
  count: v.optional(v.pipe(v.number(), v.integer(), v.maxValue(3))),
  priority: v.optional(v.picklist(['low', 'high'])),
  id: v.optional(v.pipe(v.string(), v.uuid())),
  tags: v.optional(v.array(v.string())),
  named: v.optional(v.pipe(v.string(), v.maxLength(2, 'Two at most'))),
});
const messages = (input: unknown) => {
  const parsed = v.safeParse(schema, input);
  return parsed.success ? [] : parsed.issues.map((i) => `${v.getDotPath(i) ?? '(body)'}: ${i.message}`);
};

describe('validation messages', () => {
  it("say what is wrong in the service's words", () => {
    expect(messages({})).toEqual(['subject: Required']);
    expect(messages({ subject: 'a', extra: 1 })).toEqual(['extra: Unknown field']);
    expect(messages({ subject: 1 })).toEqual(['subject: Expected string']);
    expect(messages({ subject: '' })).toEqual(['subject: At least 1 character']);
    expect(messages({ subject: 'toolong' })).toEqual(['subject: At most 5 characters']);
    expect(messages({ subject: 'a', count: 1.5 })).toEqual(['count: Expected an integer']);
    expect(messages({ subject: 'a', count: 9 })).toEqual(['count: At most 3']);
    expect(messages({ subject: 'a', tags: [1] })).toEqual(['tags.0: Expected string']);
    expect(messages(null)).toEqual(['(body): Expected an object']);
    expect(messages({ subject: 'a', priority: 'mid' })).toEqual(['priority: Expected one of low, high']);
    const either = v.safeParse(v.object({ at: v.union([v.string(), v.number()]) }), { at: true });
    expect(either.success ? [] : either.issues.map((i) => i.message)).toEqual(['Expected string or number']);
  });

  it('never quote the value received, and keep a message the schema gives', () => {
    const huge = `secret-${'x'.repeat(100_000)}`;
    for (const input of [{ subject: 'a', priority: huge }, { subject: 'a', id: huge }, { subject: huge }]) {
      const [message] = messages(input);
      expect(message).not.toContain('secret');
      expect(message).not.toMatch(/received|undefined/);
      expect(message!.length).toBeLessThan(300);
    }
    expect(messages({ subject: 'a', named: 'abc' })).toEqual(['named: Two at most']);
  });
});
