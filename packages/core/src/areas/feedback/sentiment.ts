import type Sentiment from 'sentiment';

export type SentimentLabel = 'positive' | 'neutral' | 'negative';

// The AFINN word list (~50 KB) loads on the first unrated text, not at every cold start of the Lambdas that bundle it.
let analyzer: Promise<Sentiment> | undefined;
const loadAnalyzer = () => (analyzer ??= import('sentiment').then(({ default: Analyzer }) => new Analyzer()));

/** A rating decides (1–2 negative, 3 neutral, 4–5 positive); without one, the text's AFINN score does. */
export async function sentimentOf(rating: number | undefined, text: string | undefined): Promise<SentimentLabel> {
  if (rating !== undefined) return rating <= 2 ? 'negative' : rating === 3 ? 'neutral' : 'positive';
  const score = text ? (await loadAnalyzer()).analyze(text).score : 0;
  return score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
}
