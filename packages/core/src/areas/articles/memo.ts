/**
 * `fn` remembered per instance for up to `kept` different words (then forgotten all at once): a help
 * center's vocabulary is small, and search folds and stems the same words on every request.
 */
export function perWord(fn: (word: string) => string, kept = 100_000): (word: string) => string {
  const known = new Map<string, string>();
  return (word) => {
    let found = known.get(word);
    if (found === undefined) {
      if (known.size >= kept) known.clear();
      found = fn(word);
      known.set(word, found);
    }
    return found;
  };
}
