import Sentiment from 'sentiment';

export type SentimentLabel = 'positive' | 'neutral' | 'negative';

const analyzer = new Sentiment();

/** A rating decides (1–2 negative, 3 neutral, 4–5 positive); without one, the text's AFINN score does. */
export function sentimentOf(rating: number | undefined, text: string | undefined): SentimentLabel {
  if (rating !== undefined) return rating <= 2 ? 'negative' : rating === 3 ? 'neutral' : 'positive';
  const score = text ? analyzer.analyze(text).score : 0;
  return score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
}
