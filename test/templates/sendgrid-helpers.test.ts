import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { createTenant } from '../support/fixtures.js';
import { importer } from './helpers.js';

/** Templates written the way SendGrid's "Using Handlebars" reference writes them, with its test data and results. */
const app = await startTestApp();
const t = await createTenant();
let n = 0;

/** Imports `source` as a new template and previews it with each data set; answers the HTML of each, whitespace collapsed. */
async function render(source: string, ...dataSets: Record<string, unknown>[]): Promise<string[]> {
  const key = `sg-${++n}`;
  const imported = await importer(app, t.liveKey)(`${key}.hbs`, source);
  expect(imported.body.warnings).toEqual([]);
  const out: string[] = [];
  for (const variables of dataSets) {
    const res = await app.call('POST', '/emails/preview', { key: t.liveKey, body: { templateKey: key, variables } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(res.body.html.replace(/\s+/g, ' ').trim());
  }
  return out;
}

describe('SendGrid dynamic template helpers', () => {
  it('greaterThan and lessThan, with and without {{else}}', async () => {
    const gt =
      "<p>Hello Ben! {{#greaterThan scoreOne scoreTwo}}Congratulations, you have the high score today!{{else}}You were close, but you didn't get the high score today.{{/greaterThan}} Thanks for playing.</p>";
    expect(await render(gt, { scoreOne: 100, scoreTwo: 78 }, { scoreOne: 55, scoreTwo: 78 })).toEqual([
      '<p>Hello Ben! Congratulations, you have the high score today! Thanks for playing.</p>',
      "<p>Hello Ben! You were close, but you didn't get the high score today. Thanks for playing.</p>",
    ]);
    const lt = '<p>{{#lessThan scoreOne scoreTwo}}close{{/lessThan}}.</p>';
    expect(
      await render(
        lt,
        { scoreOne: 55, scoreTwo: 78 },
        { scoreOne: 100, scoreTwo: 78 },
        { scoreOne: '9', scoreTwo: '10' },
      ),
    ).toEqual(['<p>close.</p>', '<p>.</p>', '<p>close.</p>']);
  });

  it('equals and notEquals coerce types (3 equals "3"), with {{else}}', async () => {
    const eq =
      '<p>{{#equals customerCode winningCode}}You have a winning code.{{else}}You do not have a winning code.{{/equals}}</p>';
    expect(
      await render(
        eq,
        { customerCode: 289199, winningCode: 289199 },
        { customerCode: 167320, winningCode: 289199 },
        { customerCode: 3, winningCode: '3' },
      ),
    ).toEqual([
      '<p>You have a winning code.</p>',
      '<p>You do not have a winning code.</p>',
      '<p>You have a winning code.</p>',
    ]);
    const ne =
      '<p>{{#notEquals currentDate appointmentDate}}Your appointment is not today.{{else}}Your appointment is today.{{/notEquals}}</p>';
    expect(
      await render(
        ne,
        { currentDate: 20230715, appointmentDate: 20230715 },
        { currentDate: 20230710, appointmentDate: 20230715 },
      ),
    ).toEqual(['<p>Your appointment is today.</p>', '<p>Your appointment is not today.</p>']);
  });

  it('and and or with SendGrid truthiness (empty strings and zero are false), with {{else}}', async () => {
    const and =
      '<p>{{#and favoriteFood favoriteDrink}}Thanks for your preferences.{{else}}Finish the survey.{{/and}}</p>';
    expect(
      await render(
        and,
        { favoriteFood: 'Pasta', favoriteDrink: '' },
        { favoriteFood: 'Pasta', favoriteDrink: 'Coffee' },
      ),
    ).toEqual(['<p>Finish the survey.</p>', '<p>Thanks for your preferences.</p>']);
    const or = '<p>{{#or isRunner isCyclist}}Trail map.{{else}}Survey.{{/or}}</p>';
    expect(
      await render(
        or,
        { isRunner: true, isCyclist: false },
        { isRunner: false, isCyclist: 0 },
        { isRunner: false, isCyclist: true },
      ),
    ).toEqual(['<p>Trail map.</p>', '<p>Survey.</p>', '<p>Trail map.</p>']);
  });

  it('length of a list or a string, as a sub-expression of greaterThan', async () => {
    const source =
      '<p>{{#greaterThan (length cartItems) 0}}You have {{length cartItems}} items in your cart.{{else}}Thanks for browsing.{{/greaterThan}} {{length name}}</p>';
    expect(
      await render(source, { cartItems: ['raft', 'water bottle', 'sleeping bag'], name: 'Ben' }, { cartItems: [] }),
    ).toEqual(['<p>You have 3 items in your cart. 3</p>', '<p>Thanks for browsing. 0</p>']);
  });

  it('formatDate with the documented tokens, with and without a timezone offset', async () => {
    const source =
      '<p>Join us {{formatDate timeStamp dateFormat}}</p><p>Join us {{formatDate timeStamp dateFormat timezoneOffset}}</p>';
    const data = {
      timeStamp: '2020-01-01T23:00:00.000Z',
      dateFormat: 'MMMM DD, YYYY h:mm:ss A',
      timezoneOffset: '-0800',
    };
    expect(await render(source, data)).toEqual([
      '<p>Join us January 01, 2020 11:00:00 PM</p><p>Join us January 01, 2020 3:00:00 PM</p>',
    ]);
    const tokens =
      '{{formatDate when "YYYY YY MMMM MMM MM M DD D dddd ddd hh h HH H mm m ss s A ZZ Z [at] x" "+05:30"}}';
    expect(await render(tokens, { when: 1577919605 })).toEqual([
      '2020 20 January Jan 01 1 02 2 Thursday Thu 04 4 04 4 30 30 05 5 AM +0530 +05:30 at x',
    ]);
    expect(await render('[{{formatDate when "YYYY"}}]', { when: 'not a date' }, {})).toEqual(['[]', '[]']);
  });

  it('insert with a default, written either way', async () => {
    const source =
      '<p>Hello {{insert name "default=Customer"}}! Thank you for contacting us about {{insert businessName "your business"}}.</p>';
    expect(await render(source, { name: 'Ben', businessName: 'Twilio SendGrid' }, { name: 'Ben' }, {})).toEqual([
      '<p>Hello Ben! Thank you for contacting us about Twilio SendGrid.</p>',
      '<p>Hello Ben! Thank you for contacting us about your business.</p>',
      '<p>Hello Customer! Thank you for contacting us about your business.</p>',
    ]);
    expect(await render('{{insert name default="Friend"}}', {})).toEqual(['Friend']);
  });
});
