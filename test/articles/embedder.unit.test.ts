import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { dequantize, quantize } from '@helpdesk/core/areas/articles/search-snapshot';
import { chunkText, deriveExcerpt, slugify } from '@helpdesk/core/areas/articles/text';
import { bedrockEmbedder, localEmbedder } from '@helpdesk/core/kernel/ports/embedder';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';

const bedrock = mockClient(BedrockRuntimeClient);
afterEach(() => bedrock.reset());

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const response = (embedding: number[]) =>
  ({ body: new TextEncoder().encode(JSON.stringify({ embedding, inputTextTokenCount: 3 })) }) as never;

describe('bedrockEmbedder (Titan Text Embeddings V2)', () => {
  it('calls InvokeModel once per text with the Titan V2 body and returns unit vectors in order', async () => {
    bedrock.on(InvokeModelCommand).callsFake((input: { body: string }) => {
      const { inputText } = JSON.parse(input.body) as { inputText: string };
      return response(inputText === 'first' ? [3, 4, 0, 0] : [0, 0, 0, 2]);
    });
    const embedder = bedrockEmbedder({
      client: new BedrockRuntimeClient({ region: 'us-east-1' }),
      modelId: 'amazon.titan-embed-text-v2:0',
      dimensions: 4,
    });
    const [a, b] = await embedder.embed(['first', 'second']);
    [0.6, 0.8, 0, 0].forEach((x, i) => expect(a![i]).toBeCloseTo(x, 6));
    expect(Array.from(b!)).toEqual([0, 0, 0, 1]);
    const calls = bedrock.commandCalls(InvokeModelCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.args[0].input).toMatchObject({
      modelId: 'amazon.titan-embed-text-v2:0',
      contentType: 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(calls[0]!.args[0].input.body as string)).toEqual({
      inputText: 'first',
      dimensions: 4,
      normalize: true,
    });
    expect(embedder.id).toBe('bedrock:amazon.titan-embed-text-v2:0:4');
  });

  it('fails on a response without an embedding of the right size, and on a Bedrock error', async () => {
    const embedder = bedrockEmbedder({ client: new BedrockRuntimeClient({ region: 'us-east-1' }), dimensions: 512 });
    bedrock.on(InvokeModelCommand).resolves(response([1, 2]));
    await expect(embedder.embed(['x'])).rejects.toThrow(/512-dimension/);
    bedrock.on(InvokeModelCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    await expect(embedder.embed(['x'])).rejects.toThrow('Rate exceeded');
  });
});

describe('localEmbedder', () => {
  it('is deterministic, unit length, and puts related texts closer than unrelated ones', async () => {
    const e = localEmbedder();
    const [q, related, unrelated, again] = await e.embed([
      'how do I reset my password',
      'Password reset: use the link we email you to reset a forgotten password',
      'Invoices are sent monthly to the billing contact',
      'how do I reset my password',
    ]);
    expect(Array.from(again!)).toEqual(Array.from(q!));
    expect(dot(q!, q!)).toBeCloseTo(1, 5);
    expect(dot(q!, related!)).toBeGreaterThan(dot(q!, unrelated!) + 0.2);
  });

  it('survives int8 quantization with the same ordering', async () => {
    const [a, b] = await localEmbedder().embed(['export tickets as csv', 'exporting your tickets to a csv file']);
    const back = dequantize(quantize(a!));
    expect(back).toHaveLength(a!.length);
    expect(dot(back, b!)).toBeCloseTo(dot(a!, b!), 1);
  });
});

describe('article text helpers', () => {
  it('slugifies to lowercase ASCII with single dashes', () => {
    expect(slugify('  Crème Brûlée -- for   Beginners!! ')).toBe('creme-brulee-for-beginners');
    expect(slugify('日本語')).toBe('article');
    expect(slugify('a'.repeat(300))).toHaveLength(80);
  });

  it('derives a plain-text excerpt cut at a word boundary', async () => {
    expect(await deriveExcerpt('')).toBeNull();
    expect(await deriveExcerpt('## Title\n\nSome *bold* [link](https://x.test).')).toBe('Title Some bold link.');
    const long = (await deriveExcerpt('word '.repeat(100)))!;
    expect(long.length).toBeLessThanOrEqual(201);
    expect(long.endsWith('word…')).toBe(true);
  });

  it('chunks long text along paragraphs and never exceeds the chunk size', () => {
    const paragraph = 'Sentence number one is here. '.repeat(30);
    const chunks = chunkText(`${paragraph}\n\n${paragraph}\n\n${'x'.repeat(3000)}`, 1000);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.length <= 1000)).toBe(true);
    expect(chunks.join('').replace(/\s/g, '').length).toBe(
      `${paragraph}${paragraph}${'x'.repeat(3000)}`.replace(/\s/g, '').length,
    );
    expect(chunkText('')).toEqual([]);
  });
});
